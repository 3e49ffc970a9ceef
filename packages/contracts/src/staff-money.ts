import { z } from 'zod'
import { IdParamSchema, IdSchema, pageSchema, plainText } from './api'
import { LEDGER_REF_TYPES } from './ledger-labels'

/**
 * The console's money area (issue 12, role `cashier`): a user's accounts looked up, adjustments of
 * the balance or deposit, refunds of paid orders, and the daily ledger report. Amounts in fen,
 * times ISO-8601 UTC; a "day" is a China (Asia/Shanghai) calendar day.
 */
const Fen = z.number().int()
const Amount = z.number().int().positive().max(100_000_000_000)

/** The user accounts an operator sees and adjusts (the ledger's user kinds). */
export const USER_ACCOUNT_KINDS = ['balance', 'deposit', 'withdrawal'] as const

// Users lookup.

/** `GET /money/users?mobile=|id=`: one of the two. */
export const MoneyUserQuerySchema = z
  .object({
    mobile: z
      .string()
      .regex(/^1\d{10}$/)
      .optional(),
    id: IdParamSchema.optional(),
  })
  .refine((q) => (q.mobile === undefined) !== (q.id === undefined), {
    message: 'give either mobile or id',
  })
export type MoneyUserQuery = z.infer<typeof MoneyUserQuerySchema>

export const MoneyBalancesSchema = z.object({
  balance: Fen,
  deposit: Fen,
  /** Money asked to be withdrawn, held until staff pay or refuse it. */
  withdrawal: Fen,
})
export type MoneyBalances = z.infer<typeof MoneyBalancesSchema>

export const MoneyUserSchema = z.object({
  userId: z.number().int(),
  mobile: z.string(),
  display: z.string(),
  createdAt: z.string(),
  balances: MoneyBalancesSchema,
  /** Bidding quota (deposit × multiplier), exposure against it, deposit exposure leaves free. */
  quota: Fen,
  exposure: Fen,
  freeDeposit: Fen,
  /** The user's orders by status: count and total (fen). */
  orders: z.array(z.object({ status: z.string(), count: z.number().int(), total: Fen })),
})
export type MoneyUser = z.infer<typeof MoneyUserSchema>

export const MoneyLedgerQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
})

/** One posting on one of the user's accounts, with the transfer it belongs to. */
export const MoneyLedgerLineSchema = z.object({
  transferId: z.number().int(),
  /** The transfer's kind: `remittance`, `payment`, `adjustment_credit`, `refund` … */
  kind: z.string(),
  /** The transfer's internal memo (English, for the log); the console shows refs and reason. */
  memo: z.string(),
  /** What the transfer belongs to: the orders a payment paid, the shipment, the remittance … */
  refs: z.array(z.object({ type: z.enum(LEDGER_REF_TYPES), id: z.number().int() })),
  /** The reason staff typed for an adjustment or a refund, as typed; null for other kinds. */
  reason: z.string().nullable(),
  account: z.string(),
  amount: Fen,
  at: z.string(),
})
export type MoneyLedgerLine = z.infer<typeof MoneyLedgerLineSchema>
export const MoneyLedgerPageSchema = pageSchema(MoneyLedgerLineSchema)
export type MoneyLedgerPage = z.infer<typeof MoneyLedgerPageSchema>

// Adjustments.

/**
 * `POST /money/users/{userId}/adjustments` (Idempotency-Key honoured): one transfer between the
 * user's balance or deposit and the platform's clearing account, with the reason as its memo.
 */
export const AdjustmentRequestSchema = z.object({
  account: z.enum(['balance', 'deposit']),
  direction: z.enum(['credit', 'debit']),
  amount: Amount,
  reason: plainText(2, 200),
})
export type AdjustmentRequest = z.infer<typeof AdjustmentRequestSchema>

export const AdjustmentSchema = AdjustmentRequestSchema.extend({
  userId: z.number().int(),
  transferId: z.number().int(),
  before: MoneyBalancesSchema,
  after: MoneyBalancesSchema,
})
export type Adjustment = z.infer<typeof AdjustmentSchema>

// Refunds.

/** An order as the refund desk sees it, with why it cannot be refunded (null: it can). */
export const RefundableOrderSchema = z.object({
  orderId: z.number().int(),
  userId: z.number().int(),
  mobile: z.string(),
  kind: z.enum(['auction', 'mall']),
  title: z.string(),
  status: z.string(),
  goods: Fen,
  discount: Fen,
  fee: Fen,
  total: Fen,
  payMethod: z.string().nullable(),
  paidAt: z.string().nullable(),
  refusal: z.string().nullable(),
})
export type RefundableOrder = z.infer<typeof RefundableOrderSchema>

/** `POST /money/orders/{orderId}/refund` (Idempotency-Key honoured). */
export const RefundRequestSchema = z.object({ reason: plainText(2, 200) })
export type RefundRequest = z.infer<typeof RefundRequestSchema>

export const RefundSchema = z.object({
  id: z.number().int(),
  orderId: z.number().int(),
  userId: z.number().int(),
  kind: z.enum(['auction', 'mall']),
  /** What went back to the balance: goods less discount, plus the fee. */
  amount: Fen,
  fee: Fen,
  reason: z.string(),
  transferId: z.number().int(),
  staffId: z.number().int(),
  createdAt: z.string(),
  balanceBefore: Fen,
  balanceAfter: Fen,
})
export type Refund = z.infer<typeof RefundSchema>
export const RefundsQuerySchema = MoneyLedgerQuerySchema
export const RefundsPageSchema = pageSchema(RefundSchema)
export type RefundsPage = z.infer<typeof RefundsPageSchema>

export const OrderIdParamsSchema = z.object({ orderId: IdParamSchema })
export const UserIdParamsSchema = z.object({ userId: IdParamSchema })

// Daily ledger report.

export const LedgerDailyQuerySchema = z.object({ date: z.iso.date() })

export const LedgerTransferGroupSchema = z.object({
  kind: z.string(),
  count: z.number().int(),
  /** Money moved: the sum of the group's positive postings. */
  total: Fen,
})
export const LedgerAccountRowSchema = z.object({
  kind: z.string(),
  opening: Fen,
  /** Sum of the day's positive postings on accounts of this kind. */
  in: Fen,
  /** Sum of the day's negative postings, as a positive number. */
  out: Fen,
  closing: Fen,
  /** opening + in − out = closing. */
  rollsForward: z.boolean(),
})
export const LedgerDailyReportSchema = z.object({
  date: z.string(),
  from: z.string(),
  to: z.string(),
  transferCount: z.number().int(),
  transfers: z.array(LedgerTransferGroupSchema),
  accounts: z.array(LedgerAccountRowSchema),
  check: z.object({
    /** Sum of every posting of the day (0 when every transfer balances). */
    postingsSum: Fen,
    /** Ids of the day's transfers whose postings do not sum to zero. */
    unbalancedTransfers: z.array(IdSchema),
    /** Sum of the closing balances over all kinds (0 in a sound ledger). */
    closingSum: Fen,
    balanced: z.boolean(),
  }),
})
export type LedgerDailyReport = z.infer<typeof LedgerDailyReportSchema>
