import { z } from 'zod'
import { IdParamSchema, IdSchema, ImageUrlSchema, plainText, ShopLinkSchema } from './api'

/**
 * The console's shop settings (issue 12, role `cataloguer`): mall items and their stock,
 * auction and mall categories, home banners, coupons and the increment table. Under
 * `/svc/main/admin`; amounts in fen, times ISO-8601.
 */
const Fen = z.number().int().positive().max(100_000_000_000)
const Iso = z.iso.datetime({ offset: true })

// Mall items.

export const StaffMallItemQuerySchema = z.object({
  /** Part of the title or the product number. */
  keyword: plainText(0, 100).optional(),
  onSale: z.enum(['true', 'false']).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
})
export type StaffMallItemQuery = z.infer<typeof StaffMallItemQuerySchema>

export const GradingServiceSchema = z.enum(['PCGS', 'NGC', 'PMG', 'GBCA'])

/** What staff may change on a mall item (its stock moves by adjustments, its sale by on/off). */
export const MallItemUpdateSchema = z.object({
  title: plainText(1, 200),
  subtitle: plainText(0, 200).default(''),
  description: plainText(0, 5000, { multiline: true }).default(''),
  images: z.array(ImageUrlSchema).max(20).default([]),
  price: Fen,
  categoryId: IdSchema.nullable().default(null),
  limitPerUser: z.number().int().positive().max(10_000).nullable().default(null),
  gradeCode: z.number().int().min(0).max(99).default(0),
  gradingService: GradingServiceSchema.nullable().default(null),
  certNo: plainText(0, 40).nullable().default(null),
  year: plainText(0, 40).default(''),
  denomination: plainText(0, 40).default(''),
  material: plainText(0, 40).default(''),
  exportBanned: z.boolean().default(false),
})
export type MallItemUpdate = z.infer<typeof MallItemUpdateSchema>

/**
 * A new mall item with everything the edit form has, and the units first put on its shelf
 * (`POST /mall-items/new`: created in one transaction, so it never exists half-described).
 */
export const MallItemNewSchema = MallItemUpdateSchema.extend({
  stock: z.number().int().min(0).max(1_000_000),
})
export type MallItemNew = z.infer<typeof MallItemNewSchema>

export const StaffMallItemSchema = z.object({
  id: z.number().int(),
  productNo: z.string(),
  title: z.string(),
  subtitle: z.string(),
  description: z.string(),
  images: z.array(z.string()),
  price: z.number().int(),
  /** Units on the shelf now (ordered units have left it). */
  stock: z.number().int(),
  /** Units in mall orders not yet paid (they come back if the order is cancelled). */
  reserved: z.number().int(),
  /** Units paid for. */
  sold: z.number().int(),
  onSale: z.boolean(),
  limitPerUser: z.number().int().nullable(),
  categoryId: z.number().int().nullable(),
  categoryName: z.string().nullable(),
  gradeCode: z.number().int(),
  gradingService: GradingServiceSchema.nullable(),
  certNo: z.string().nullable(),
  year: z.string(),
  denomination: z.string(),
  material: z.string(),
  exportBanned: z.boolean(),
  createdAt: z.string(),
})
export type StaffMallItem = z.infer<typeof StaffMallItemSchema>

export const StaffMallItemPageSchema = z.object({
  items: z.array(StaffMallItemSchema),
  total: z.number().int(),
})
export type StaffMallItemPage = z.infer<typeof StaffMallItemPageSchema>

/**
 * A stock adjustment: units put on the shelf (positive) or taken off it (negative). Units already
 * ordered have left the shelf, so a removal larger than what is on it is refused (STOCK_HELD).
 */
export const StockAdjustSchema = z.object({
  delta: z
    .number()
    .int()
    .min(-1_000_000)
    .max(1_000_000)
    .refine((d) => d !== 0, { message: 'must not be 0' }),
  memo: plainText(0, 200).default(''),
})
export type StockAdjust = z.infer<typeof StockAdjustSchema>

export const MallItemSaleSchema = z.object({ onSale: z.boolean() })
export type MallItemSale = z.infer<typeof MallItemSaleSchema>

// Categories.

const CategoryFields = {
  name: plainText(1, 20),
  nameEn: plainText(0, 40).default(''),
}

export const CategoryInputSchema = z.object({
  ...CategoryFields,
  /**
   * The mark on the category's coin (web lib/category-mark): one or two characters (古, 钞) or a
   * style keyword (ancient, banknote …); '' shows the name's first character.
   */
  icon: plainText(0, 20).default(''),
})
export type CategoryInput = z.infer<typeof CategoryInputSchema>

export const StaffCategorySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  nameEn: z.string(),
  icon: z.string(),
  sort: z.number().int(),
  /** Lots filed under it. */
  lots: z.number().int(),
})
export type StaffCategory = z.infer<typeof StaffCategorySchema>

export const MallCategoryInputSchema = z.object({
  ...CategoryFields,
  parentId: IdSchema.nullable().default(null),
})
export type MallCategoryInput = z.infer<typeof MallCategoryInputSchema>
export const MallCategoryRenameSchema = z.object(CategoryFields)
export type MallCategoryRename = z.infer<typeof MallCategoryRenameSchema>

export const StaffMallCategorySchema = z.object({
  id: z.number().int(),
  parentId: z.number().int().nullable(),
  name: z.string(),
  nameEn: z.string(),
  sort: z.number().int(),
  /** Mall items filed directly under it. */
  items: z.number().int(),
})
export type StaffMallCategory = z.infer<typeof StaffMallCategorySchema>

/**
 * A new order: every category of the list (auction categories; a mall category's siblings under
 * `parentId`), each once, first shown first. A list that is not exactly that set is refused
 * (CATEGORY_ORDER_STALE: someone added or removed one since the page was read).
 */
export const CategoryOrderSchema = z.object({
  ids: z.array(IdSchema).min(1).max(500),
})
export const MallCategoryOrderSchema = CategoryOrderSchema.extend({
  parentId: IdSchema.nullable().default(null),
})
export type MallCategoryOrder = z.infer<typeof MallCategoryOrderSchema>

export const CreatedIdSchema = z.object({ id: z.number().int() })
export const IdPathSchema = z.object({ id: IdParamSchema })

// Banners.

/** 0: the home page; 1: the mall's category page (spec §7 /mall/advertis/{0,1}). */
export const BANNER_POSITIONS = [0, 1] as const
export const BannerPositionSchema = z.union([z.literal(0), z.literal(1)])

export const BannerInputSchema = z
  .object({
    position: BannerPositionSchema.default(0),
    title: plainText(1, 60),
    titleEn: plainText(0, 120).default(''),
    image: ImageUrlSchema,
    link: ShopLinkSchema,
    sort: z.number().int().min(0).max(10_000).default(0),
    activeFrom: Iso,
    /** null: shown until taken down. */
    activeUntil: Iso.nullable().default(null),
  })
  .refine((b) => b.activeUntil === null || Date.parse(b.activeFrom) < Date.parse(b.activeUntil), {
    message: 'activeFrom must be before activeUntil',
    path: ['activeUntil'],
  })
export type BannerInput = z.infer<typeof BannerInputSchema>

export const StaffBannerSchema = z.object({
  id: z.number().int(),
  position: z.number().int(),
  title: z.string(),
  titleEn: z.string(),
  image: z.string(),
  link: z.string(),
  sort: z.number().int(),
  activeFrom: z.string(),
  activeUntil: z.string().nullable(),
  /** Shown to buyers now. */
  live: z.boolean(),
})
export type StaffBanner = z.infer<typeof StaffBannerSchema>

// Coupons (created with POST /admin/coupons, contracts/mall CouponCreateSchema).

/**
 * `scheduled` before its window, `issuing` while it may be received, `stopped` when no more may
 * be received (all taken, or staff stopped it), `ended` after its window.
 */
export const CouponStateSchema = z.enum(['scheduled', 'issuing', 'stopped', 'ended'])
export type CouponState = z.infer<typeof CouponStateSchema>

export const StaffCouponSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  kind: z.enum(['amount', 'percent']),
  threshold: z.number().int(),
  amount: z.number().int().nullable(),
  percent: z.number().int().nullable(),
  cap: z.number().int().nullable(),
  /** How many may be received in all (lowered to `received` when issuing is stopped). */
  total: z.number().int(),
  perUser: z.number().int(),
  received: z.number().int(),
  /** Received coupons an unpaid order holds. */
  locked: z.number().int(),
  used: z.number().int(),
  startsAt: z.string(),
  endsAt: z.string(),
  productNos: z.array(z.string()),
  categoryIds: z.array(z.number().int()),
  state: CouponStateSchema,
  createdAt: z.string(),
})
export type StaffCoupon = z.infer<typeof StaffCouponSchema>

// The increment table.

export const PriceStepInputSchema = z.object({
  from: z.number().int().min(0).max(100_000_000_000),
  step: Fen,
})

/** The whole table, replacing the one in force (checked by domain/increment-table). */
export const PriceStepTableSchema = z.object({
  steps: z.array(PriceStepInputSchema).min(1).max(50),
})
export type PriceStepTable = z.infer<typeof PriceStepTableSchema>
