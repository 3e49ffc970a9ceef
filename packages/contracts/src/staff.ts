import { z } from 'zod'
import { IdParamSchema, IdSchema, ImageUrlSchema, plainText } from './api'

/** The operator calls of DESIGN §9 (under `/svc/main/admin`, staff session cookie). Amounts in fen. */
const Fen = z.number().int().positive().max(100_000_000_000)
const Iso = z.iso.datetime({ offset: true })

export const SpecialCreateSchema = z
  .object({
    title: plainText(1, 100),
    subtitle: plainText(0, 200).default(''),
    description: plainText(0, 5000, { multiline: true }).default(''),
    cover: ImageUrlSchema.or(z.literal('')).default(''),
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
  images: z.array(ImageUrlSchema).max(20).default([]),
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

/**
 * Staff roles (issue 12, ADR 021). `admin` may do everything, the others their area: cataloguers
 * list lots and mall items, cashiers decide on money, shipping hands goods over, support answers
 * the chat. A staff member may hold several.
 */
export const STAFF_ROLES = ['admin', 'cataloguer', 'cashier', 'shipping', 'support'] as const
export const StaffRoleSchema = z.enum(STAFF_ROLES)
export type StaffRole = z.infer<typeof StaffRoleSchema>

/** Who may call a staff route: the roles named (admin always may), or any signed-in staff. */
export type StaffAccess = readonly StaffRole[] | 'any'

/** The one access rule, for the server's guard and the console's menu alike. */
export function mayAccess(roles: readonly StaffRole[], access: StaffAccess | undefined): boolean {
  if (roles.includes('admin')) return true
  if (access === undefined) return false
  if (access === 'any') return roles.length > 0
  return access.some((role) => roles.includes(role))
}

export const StaffSessionSchema = z.object({
  staffId: z.number().int(),
  username: z.string(),
  roles: z.array(StaffRoleSchema),
})
export type StaffSession = z.infer<typeof StaffSessionSchema>

const Username = z
  .string()
  .min(2)
  .max(32)
  .regex(/^[a-z0-9_.-]+$/, 'lower-case letters, digits, . _ -')
const StaffPassword = z.string().min(10).max(256)
const Roles = z.array(StaffRoleSchema).min(1).max(STAFF_ROLES.length)

export const StaffMemberSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  roles: z.array(StaffRoleSchema),
  disabled: z.boolean(),
  createdAt: z.string(),
})
export type StaffMember = z.infer<typeof StaffMemberSchema>

export const StaffMemberCreateSchema = z.object({
  username: Username,
  password: StaffPassword,
  roles: Roles,
})
export type StaffMemberCreate = z.infer<typeof StaffMemberCreateSchema>

/** What an admin changes on an account; a disabled account's sessions end at once. */
export const StaffMemberUpdateSchema = z
  .object({ roles: Roles, password: StaffPassword, disabled: z.boolean() })
  .partial()
  .refine((b) => Object.keys(b).length > 0, { message: 'nothing to change' })
export type StaffMemberUpdate = z.infer<typeof StaffMemberUpdateSchema>

/**
 * One line of the staff audit log: every staff call that changes something (or tried to), who made
 * it and when, the route and its input (secrets redacted), and the state before and after where
 * the call names them (else the reply's data as `after`).
 */
export const AuditEntrySchema = z.object({
  id: z.number().int(),
  staffId: z.number().int(),
  username: z.string(),
  method: z.string(),
  route: z.string(),
  /** The route's summary, for people ("Create a special"). */
  action: z.string(),
  target: z.string().nullable(),
  params: z.unknown(),
  body: z.unknown(),
  before: z.unknown(),
  after: z.unknown(),
  /** The call's Idempotency-Key: a second line with the same key is a retry answered once. */
  idempotencyKey: z.string().nullable(),
  statusCode: z.number().int(),
  /** The refusal's code when the call was refused (`FORBIDDEN`, `NOT_PENDING`, …). */
  errorCode: z.string().nullable(),
  at: z.string(),
})
export type AuditEntry = z.infer<typeof AuditEntrySchema>

export const AuditQuerySchema = z.object({
  staffId: IdParamSchema.optional(),
  /** Part of the route, e.g. `/remittances`. */
  route: plainText(0, 200).optional(),
  target: plainText(0, 200).optional(),
  /** Entries older than this id (the previous page's last). */
  before: IdParamSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
})
export type AuditQuery = z.infer<typeof AuditQuerySchema>
