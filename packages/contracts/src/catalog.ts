import { z } from 'zod'
import { IdParamSchema } from './api'
import { LotStatusSchema } from './lot-status'

/**
 * Shapes of the browsing calls (spec §7 "Home and info", item detail, search). Times are ISO-8601
 * UTC strings; money is integer fen.
 */
export const GRADING_SERVICES = ['PCGS', 'NGC', 'PMG', 'GBCA'] as const
export const GradingServiceSchema = z.enum(GRADING_SERVICES)

export const CategorySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  nameEn: z.string(),
  icon: z.string(),
})
export type Category = z.infer<typeof CategorySchema>

export interface MallCategoryNode {
  id: number
  name: string
  /** The English name; the Chinese one when no translation was entered. */
  nameEn: string
  children: MallCategoryNode[]
}
export const MallCategoryNodeSchema: z.ZodType<MallCategoryNode> = z.lazy(() =>
  z.object({
    id: z.number().int(),
    name: z.string(),
    nameEn: z.string(),
    children: z.array(MallCategoryNodeSchema),
  }),
)

export const BannerSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  /** The English title; the Chinese one when no translation was entered. */
  titleEn: z.string(),
  image: z.string(),
  link: z.string(),
})
export type Banner = z.infer<typeof BannerSchema>

export { LotStatusSchema, type LotStatus } from './lot-status'

export const SpecialStatusSchema = z.enum(['preview', 'live', 'ended'])

export const LotCardSchema = z.object({
  id: z.number().int(),
  specialId: z.number().int(),
  lotNo: z.number().int(),
  title: z.string(),
  image: z.string(),
  gradeCode: z.number().int(),
  gradingService: z.string().nullable(),
  startPrice: z.number().int(),
  /** Current price; null until the first bid. */
  price: z.number().int().nullable(),
  bidCount: z.number().int(),
  startsAt: z.string(),
  endsAt: z.string(),
  status: LotStatusSchema,
})
export type LotCard = z.infer<typeof LotCardSchema>

export const LotDetailSchema = LotCardSchema.extend({
  specialTitle: z.string(),
  categoryId: z.number().int().nullable(),
  subtitle: z.string(),
  description: z.string(),
  images: z.array(z.string()),
  certNo: z.string().nullable(),
  year: z.string(),
  denomination: z.string(),
  material: z.string(),
  exportBanned: z.boolean(),
  hasReserve: z.boolean(),
  reserveMet: z.boolean(),
  /** Whether the caller leads; false for anonymous callers. */
  leading: z.boolean(),
  /** The caller's proxy maximum on this lot, if any. */
  myMax: z.number().int().nullable(),
  /** The caller won this lot (status `sold`, caller the winner); false for anonymous callers. */
  won: z.boolean().default(false),
  /** The winner's auction order for this lot, shown to the winner only. */
  orderId: z.number().int().nullable().default(null),
  softCloseWindowSeconds: z.number().int(),
  softCloseExtendSeconds: z.number().int(),
})
export type LotDetail = z.infer<typeof LotDetailSchema>

export const SpecialSummarySchema = z.object({
  id: z.number().int(),
  title: z.string(),
  subtitle: z.string(),
  cover: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  status: SpecialStatusSchema,
  lotCount: z.number().int(),
  bidCount: z.number().int(),
  previewImages: z.array(z.string()),
})
export type SpecialSummary = z.infer<typeof SpecialSummarySchema>

export const SpecialDetailSchema = SpecialSummarySchema.extend({
  description: z.string(),
  staggerSeconds: z.number().int(),
  softCloseWindowSeconds: z.number().int(),
  softCloseExtendSeconds: z.number().int(),
  lots: z.array(LotCardSchema),
})
export type SpecialDetail = z.infer<typeof SpecialDetailSchema>

export const MallItemCardSchema = z.object({
  id: z.number().int(),
  productNo: z.string(),
  title: z.string(),
  image: z.string(),
  gradeCode: z.number().int(),
  gradingService: z.string().nullable(),
  price: z.number().int(),
  /** Units left to buy. */
  stock: z.number().int(),
  sold: z.number().int(),
})
export type MallItemCard = z.infer<typeof MallItemCardSchema>

export const MallItemDetailSchema = MallItemCardSchema.extend({
  categoryId: z.number().int().nullable(),
  subtitle: z.string(),
  description: z.string(),
  images: z.array(z.string()),
  certNo: z.string().nullable(),
  year: z.string(),
  denomination: z.string(),
  material: z.string(),
  limitPerUser: z.number().int().nullable(),
  onSale: z.boolean(),
  exportBanned: z.boolean(),
  /** Whether the caller watches it (false when signed out). */
  watched: z.boolean(),
  /** Units the caller holds in orders not cancelled (for the per-user limit; 0 signed out). */
  boughtByMe: z.number().int(),
})
export type MallItemDetail = z.infer<typeof MallItemDetailSchema>

export const ServerTimeSchema = z.object({ now: z.string(), timestamp: z.number().int() })

export const SEARCH_SORTS = ['ending', 'price_asc', 'price_desc', 'newest', 'bids'] as const
export const SEARCH_PAGE_SIZE_MAX = 50

/** `GET /api/search/wechat` query (search service). Prices in fen. */
export const SearchQuerySchema = z
  .object({
    type: z.enum(['auction', 'mall']).default('auction'),
    keyword: z.string().trim().max(50).default(''),
    categoryId: IdParamSchema.optional(),
    specialId: IdParamSchema.optional(),
    grade: z.coerce.number().int().min(0).max(99).optional(),
    gradingService: GradingServiceSchema.optional(),
    minPrice: z.coerce.number().int().min(0).optional(),
    maxPrice: z.coerce.number().int().min(0).optional(),
    status: z.enum(['live', 'preview', 'ended', 'all']).default('live'),
    sort: z.enum(SEARCH_SORTS).optional(),
    page: z.coerce.number().int().min(1).max(10_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(SEARCH_PAGE_SIZE_MAX).default(20),
  })
  .refine((q) => q.minPrice === undefined || q.maxPrice === undefined || q.minPrice <= q.maxPrice, {
    message: 'minPrice must not exceed maxPrice',
    path: ['minPrice'],
  })
export type SearchQuery = z.infer<typeof SearchQuerySchema>
