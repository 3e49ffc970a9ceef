import { z } from 'zod'
import { IdSchema, plainText } from './api'

/** The operator calls of DESIGN §9 (under `/svc/main/admin`, staff session cookie). Amounts in fen. */
const Fen = z.number().int().positive().max(100_000_000_000)
const Iso = z.iso.datetime({ offset: true })

export const SpecialCreateSchema = z
  .object({
    title: plainText(1, 100),
    subtitle: plainText(0, 200).default(''),
    description: plainText(0, 5000, { multiline: true }).default(''),
    cover: plainText(0, 2048).default(''),
    startsAt: Iso,
    endsAt: Iso,
    staggerSeconds: z.number().int().min(0).max(3600).default(30),
    softCloseWindowSeconds: z.number().int().min(0).max(3600).default(300),
    softCloseExtendSeconds: z.number().int().min(0).max(3600).default(300),
  })
  .refine((b) => Date.parse(b.startsAt) < Date.parse(b.endsAt), {
    message: 'startsAt must be before endsAt',
    path: ['endsAt'],
  })
export type SpecialCreate = z.infer<typeof SpecialCreateSchema>
export const SpecialCreatedSchema = z.object({ id: z.number().int() })

export const LotCreateSchema = z.object({
  specialId: IdSchema,
  title: plainText(1, 200),
  subtitle: plainText(0, 200).default(''),
  description: plainText(0, 5000, { multiline: true }).default(''),
  startPrice: Fen,
  reservePrice: Fen.optional(),
  categoryId: IdSchema.optional(),
  gradeCode: z.number().int().min(0).max(99).default(0),
  gradingService: z.enum(['PCGS', 'NGC', 'PMG', 'GBCA']).optional(),
  certNo: plainText(0, 40).optional(),
  images: z.array(plainText(0, 2048)).max(20).default([]),
  exportBanned: z.boolean().default(false),
})
export type LotCreate = z.infer<typeof LotCreateSchema>
/** `lotNo` is the lot's place in its special (1, 2, …), which sets its staggered end. */
export const LotCreatedSchema = z.object({
  id: z.number().int(),
  lotNo: z.number().int(),
  endsAt: z.string(),
})
export type LotCreated = z.infer<typeof LotCreatedSchema>

export const MallItemCreateSchema = z.object({
  title: plainText(1, 200),
  price: Fen,
  stock: z.number().int().min(0).max(1_000_000),
  categoryId: IdSchema.optional(),
  /** Units one buyer may hold; bounded like stock, so it always fits the database's integer. */
  limitPerUser: z.number().int().positive().max(10_000).optional(),
})
export type MallItemCreate = z.infer<typeof MallItemCreateSchema>
export const MallItemCreatedSchema = z.object({ id: z.number().int(), productNo: z.string() })
export type MallItemCreated = z.infer<typeof MallItemCreatedSchema>

export const DepositCreditSchema = z.object({
  amount: Fen,
  memo: plainText(0, 200).default('counter deposit'),
})
export const DepositCreditedSchema = z.object({ deposit: z.number().int() })
/** The older `…/quota` path answered `{ quota }` with the deposit balance; it still does, beside `deposit`. */
export const LegacyQuotaCreditedSchema = DepositCreditedSchema.extend({
  quota: z.number().int().describe('the deposit balance, under the older name'),
})
