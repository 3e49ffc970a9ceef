import { z } from 'zod'
import { IdSchema, ImageUrlSchema, plainText } from './api'
import { LotStatusSchema, SpecialStatusSchema } from './catalog'
import { LotCreateSchema, SpecialCreateSchema } from './staff'

/**
 * The console's catalogue area (issue 12, role `cataloguer`): staff reads of specials and lots with
 * what only staff see (reserve, certificate, export flag), their edits, and the bulk lot import.
 * Amounts in fen, times ISO with offset.
 */

/** Grading services a lot may name (the same list as `POST /admin/lots`). */
export const GRADING_SERVICES = LotCreateSchema.shape.gradingService.unwrap().options
export type GradingService = (typeof GRADING_SERVICES)[number]

export const StaffSpecialSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  subtitle: z.string(),
  description: z.string(),
  cover: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  /** The last lot's end (staggered, maybe extended by soft close); the special's end without lots. */
  lastEndsAt: z.string(),
  staggerSeconds: z.number().int(),
  softCloseWindowSeconds: z.number().int(),
  softCloseExtendSeconds: z.number().int(),
  status: SpecialStatusSchema,
  /** Whether lots may still be added (by hand or CSV): until its first lot's close (`endsAt`). */
  acceptsLots: z.boolean(),
  lotCount: z.number().int(),
  bidCount: z.number().int(),
  createdAt: z.string(),
})
export type StaffSpecial = z.infer<typeof StaffSpecialSchema>

export const StaffSpecialsQuerySchema = z.object({
  status: z.enum(['preview', 'live', 'ended', 'all']).default('all'),
  /** Part of the title (no control characters: PostgreSQL refuses NUL in a query, a 500). */
  keyword: plainText(0, 100).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
})
export type StaffSpecialsQuery = z.infer<typeof StaffSpecialsQuerySchema>

export const StaffSpecialPageSchema = z.object({
  items: z.array(StaffSpecialSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
})
export type StaffSpecialPage = z.infer<typeof StaffSpecialPageSchema>

export const StaffLotSchema = z.object({
  id: z.number().int(),
  specialId: z.number().int(),
  lotNo: z.number().int(),
  title: z.string(),
  subtitle: z.string(),
  description: z.string(),
  images: z.array(z.string()),
  categoryId: z.number().int().nullable(),
  gradeCode: z.number().int(),
  gradingService: z.string().nullable(),
  certNo: z.string().nullable(),
  startPrice: z.number().int(),
  reservePrice: z.number().int().nullable(),
  exportBanned: z.boolean(),
  status: LotStatusSchema,
  /** The standing price, null before the first bid. */
  price: z.number().int().nullable(),
  bidCount: z.number().int(),
  startsAt: z.string(),
  endsAt: z.string(),
  /** Whether the console may still change it: no bid and not closed. */
  editable: z.boolean(),
})
export type StaffLot = z.infer<typeof StaffLotSchema>

export const StaffSpecialDetailSchema = StaffSpecialSchema.extend({
  lots: z.array(StaffLotSchema),
})
export type StaffSpecialDetail = z.infer<typeof StaffSpecialDetailSchema>

const specialFields = SpecialCreateSchema.shape

/**
 * A special's changes (each field optional). Texts and the cover change any time; the times
 * (start, end, stagger, soft close) only before it starts (SPECIAL_STARTED), and then every lot's
 * start and staggered end follow.
 */
export const SpecialUpdateSchema = z
  .object({
    title: specialFields.title,
    subtitle: plainText(0, 200),
    description: plainText(0, 5000, { multiline: true }),
    cover: ImageUrlSchema.or(z.literal('')),
    startsAt: specialFields.startsAt,
    endsAt: specialFields.endsAt,
    staggerSeconds: z.number().int().min(0).max(3600),
    softCloseWindowSeconds: z.number().int().min(0).max(3600),
    softCloseExtendSeconds: z.number().int().min(0).max(3600),
  })
  .partial()
  .refine((b) => Object.keys(b).length > 0, { message: 'nothing to change' })
export type SpecialUpdate = z.infer<typeof SpecialUpdateSchema>

/** The fields of the special whose change moves the sale's clock. */
export const SPECIAL_TIME_FIELDS = [
  'startsAt',
  'endsAt',
  'staggerSeconds',
  'softCloseWindowSeconds',
  'softCloseExtendSeconds',
] as const satisfies readonly (keyof SpecialUpdate)[]

const lotFields = LotCreateSchema.shape

/**
 * A lot's changes (each optional), only while it has no bid and has not closed (LOT_HAS_BIDS).
 * `null` clears the reserve, the category, the grading service or the certificate number.
 */
export const LotUpdateSchema = z
  .object({
    title: lotFields.title,
    subtitle: plainText(0, 200),
    description: plainText(0, 5000, { multiline: true }),
    startPrice: lotFields.startPrice,
    reservePrice: lotFields.startPrice.nullable(),
    categoryId: IdSchema.nullable(),
    gradeCode: z.number().int().min(0).max(99),
    gradingService: lotFields.gradingService.unwrap().nullable(),
    certNo: plainText(0, 40).nullable(),
    images: lotFields.images.unwrap(),
    exportBanned: z.boolean(),
  })
  .partial()
  .refine((b) => Object.keys(b).length > 0, { message: 'nothing to change' })
export type LotUpdate = z.infer<typeof LotUpdateSchema>

/**
 * The bulk import's columns, in the template's order. Prices in yuan (2 decimals at most);
 * `exportBanned` is 1/0, 是/否, true/false or blank (no); `images` are URLs separated by `|`.
 */
export const LOT_IMPORT_COLUMNS = [
  'title',
  'subtitle',
  'description',
  'startPrice',
  'reservePrice',
  'category',
  'gradeCode',
  'gradingService',
  'certNo',
  'exportBanned',
  'images',
] as const
export type LotImportColumn = (typeof LOT_IMPORT_COLUMNS)[number]

/** What each column holds, for the template's documentation and the console's help. */
export const LOT_IMPORT_COLUMN_NOTES: Record<LotImportColumn, string> = {
  title: '标题（必填，最多 200 字）',
  subtitle: '副标题（可空）',
  description: '描述（可空，可多行）',
  startPrice: '起拍价，元（必填，须在加价阶梯上）',
  reservePrice: '保留价，元（可空，不低于起拍价）',
  category: '拍品分类：分类编号或名称（可空）',
  gradeCode: '品相代码 0–99（可空，0 为无）',
  gradingService: `评级公司：${GRADING_SERVICES.join(' / ')}（可空）`,
  certNo: '评级证书号（可空）',
  exportBanned: '禁止出境：1/0、是/否（可空为否）',
  images: '图片网址，多张用 | 分隔（可空，第一张为封面）',
}

export const LOT_IMPORT_MAX_ROWS = 500

export const LotImportSchema = z.object({
  /** The CSV text, UTF-8, with the header line of LOT_IMPORT_COLUMNS (any order). */
  csv: z.string().min(1).max(2_000_000),
  /** Only check the rows; nothing is written. */
  dryRun: z.boolean().default(false),
})
export type LotImport = z.infer<typeof LotImportSchema>

/** One refusal in the file: its line (the header is line 1), column, code and message. */
export const LotImportErrorSchema = z.object({
  row: z.number().int(),
  field: z.string(),
  code: z.string(),
  message: z.string(),
})
export type LotImportError = z.infer<typeof LotImportErrorSchema>

/**
 * The import's answer. With errors nothing is written (a real import answers LOT_IMPORT_INVALID
 * with these `errors` in its details); without, `lots` are the lots added (empty on a dry run).
 */
export const LotImportResultSchema = z.object({
  dryRun: z.boolean(),
  rowCount: z.number().int(),
  errors: z.array(LotImportErrorSchema),
  lots: z.array(z.object({ id: z.number().int(), lotNo: z.number().int(), endsAt: z.string() })),
})
export type LotImportResult = z.infer<typeof LotImportResultSchema>

const quote = (value: string): string =>
  /[",\n|]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value

/** The downloadable template: the header and two example rows (UTF-8 with BOM for Excel). */
export function lotImportTemplate(): string {
  const rows = [
    [...LOT_IMPORT_COLUMNS],
    [
      '1980年长城币 1元',
      'PCGS MS65',
      '原光，包浆自然',
      '100.00',
      '300.00',
      '',
      '65',
      'PCGS',
      '12345678',
      '0',
      '',
    ],
    ['第四套人民币 1980年 50元', '', '', '50', '', '', '', '', '', '是', ''],
  ]
  return `\uFEFF${rows.map((r) => r.map(quote).join(',')).join('\r\n')}\r\n`
}
