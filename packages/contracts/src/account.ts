import { z } from 'zod'
import { IdSchema, plainText } from './api'
import { PayPasswordSchema, WechatPayRequestSchema } from './payment'

/**
 * The user's money outside an order (DESIGN §4, §6, §9 "Money"): the payment password, moving
 * money between balance and deposit, recharging the deposit, bank remittances and withdrawals.
 * Amounts in fen, times ISO-8601 UTC.
 */
const Fen = z.number().int()
const Amount = z.number().int().positive().max(100_000_000_000)

// Payment password.

/** `GET /user/@accountSeting`. */
export const AccountSettingsSchema = z.object({
  payPasswordSet: z.boolean(),
  /** Payment is locked until then after 5 wrong tries (DESIGN §3). */
  payLockedUntil: z.string().nullable(),
})
export type AccountSettings = z.infer<typeof AccountSettingsSchema>

/** `POST /user/@setPayPass`: a first password, or a new one with the old one or an SMS code. */
export const SetPayPasswordSchema = z.object({
  password: PayPasswordSchema,
  oldPassword: PayPasswordSchema.optional(),
  smsCode: z
    .string()
    .regex(/^\d{6}$/)
    .optional(),
})
export type SetPayPassword = z.infer<typeof SetPayPasswordSchema>
export const SetPayPasswordResultSchema = z.object({ payPasswordSet: z.literal(true) })

/** Wrong tries before payment locks, and for how long (DESIGN §3). */
export const PAY_PASSWORD_MAX_TRIES = 5
export const PAY_LOCK_HOURS = 3

// Balance ↔ deposit.

/** `PATCH /user/{userId}/@finance`: positive moves balance → deposit, negative deposit → balance. */
export const FinanceTransferSchema = z.object({
  amount: z
    .number()
    .int()
    .min(-100_000_000_000)
    .max(100_000_000_000)
    .refine((n) => n !== 0, 'not zero'),
})
export const BalancesSchema = z.object({
  balance: Fen,
  deposit: Fen,
  /** Deposit not held by exposure: what may move back to balance or be withdrawn. */
  freeDeposit: Fen,
})
export type Balances = z.infer<typeof BalancesSchema>

// Recharge (the deposit, paid through the messaging platform).

/** `PATCH /user/recharge/@finance`. */
export const RechargeRequestSchema = z.object({ amount: Amount })
export const RechargeSchema = z.object({
  rechargeId: z.number().int(),
  amount: Fen,
  fee: Fen,
  total: Fen,
  status: z.enum(['pending', 'paid', 'failed']),
  payRequest: WechatPayRequestSchema.optional(),
})
export type Recharge = z.infer<typeof RechargeSchema>

// Bank remittance.

/** `GET /user/finance/@companyBanks`: our accounts a user may remit to. */
export const CompanyBankSchema = z.object({
  id: z.number().int(),
  bankName: z.string(),
  branch: z.string(),
  accountName: z.string(),
  accountNo: z.string(),
})
export type CompanyBank = z.infer<typeof CompanyBankSchema>

/**
 * `POST /user/finance/@remittance`: the user reports money sent by bank transfer. `receipt` is an
 * optional photo of the bank slip as a data URL (JPEG/PNG/WebP, re-encoded by the server).
 */
/** How far back a transfer may be dated (China time); tomorrow is the latest. */
export const REMITTED_ON_MAX_DAYS_BACK = 90
export const RemittanceRequestSchema = z.object({
  companyBankId: IdSchema,
  amount: Amount,
  payerName: plainText(1, 50),
  payerBank: plainText(1, 50),
  remittedOn: z.iso.date(),
  /** Orders the money is for (they were chosen to be paid by remittance); may be empty. */
  orderIds: z.array(IdSchema).max(50).default([]),
  receipt: z
    .string()
    .max(4 * 1024 * 1024)
    .regex(/^data:image\/(jpeg|png|webp);base64,[A-Za-z0-9+/=]+$/)
    .optional(),
})
export type RemittanceRequest = z.infer<typeof RemittanceRequestSchema>

export const REMITTANCE_STATUSES = ['submitted', 'confirmed', 'rejected'] as const
export const RemittanceSchema = z.object({
  id: z.number().int(),
  companyBankId: z.number().int(),
  amount: Fen,
  payerName: z.string(),
  payerBank: z.string(),
  remittedOn: z.string(),
  orderIds: z.array(z.number().int()),
  receiptUrl: z.string().nullable(),
  status: z.enum(REMITTANCE_STATUSES),
  note: z.string().nullable(),
  /** What staff saw arrive (fen) once confirmed: what was credited; null before. */
  amountReceived: Fen.nullable(),
  createdAt: z.string(),
})
export type Remittance = z.infer<typeof RemittanceSchema>

// Withdrawals.

export const WithdrawalRequestSchema = z.object({
  amount: Amount,
  source: z.enum(['balance', 'deposit']),
  bankName: plainText(1, 50),
  accountName: plainText(1, 50),
  accountNo: z
    .string()
    .trim()
    .regex(/^\d{8,30}$/),
  /** Money leaves the account as it does paying from the balance: the payment password first. */
  payPassword: PayPasswordSchema.optional(),
})
export type WithdrawalRequest = z.infer<typeof WithdrawalRequestSchema>

export const WITHDRAWAL_STATUSES = ['requested', 'paid', 'refused'] as const
export const WithdrawalSchema = z.object({
  id: z.number().int(),
  amount: Fen,
  source: z.enum(['balance', 'deposit']),
  bankName: z.string(),
  accountName: z.string(),
  /** Masked but for the last four digits. */
  accountNo: z.string(),
  status: z.enum(WITHDRAWAL_STATUSES),
  note: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
})
export type Withdrawal = z.infer<typeof WithdrawalSchema>

// Staff.

export const StaffDecisionSchema = z.object({
  note: plainText(0, 200, { multiline: true }).optional(),
})
/**
 * Staff `POST /admin/remittances/{id}/confirm`: what actually arrived (fen; the notice's amount when
 * left out). Exactly that is credited, and only that pays the notice's orders.
 */
export const RemittanceConfirmSchema = StaffDecisionSchema.extend({
  amountReceived: Amount.optional(),
})
export type RemittanceConfirm = z.infer<typeof RemittanceConfirmSchema>
export const BalanceCreditSchema = z.object({
  amount: Amount,
  memo: plainText(0, 200).default('counter cash'),
})
/** Staff `POST /admin/users/{userId}/balance` answers the user's balance after the credit. */
export const BalanceCreditedSchema = z.object({ balance: Fen })

// Staff views of remittances and withdrawals (a staff call now, the console's screens later).

/**
 * A remittance notice as staff decide it: whose it is, and the company account it names (to check
 * against that account's statement; null only if the account row is gone).
 */
export const StaffRemittanceSchema = RemittanceSchema.extend({
  userId: z.number().int(),
  companyBank: CompanyBankSchema.nullable(),
})
export type StaffRemittance = z.infer<typeof StaffRemittanceSchema>
export const StaffRemittanceQuerySchema = z.object({
  status: z.enum(REMITTANCE_STATUSES).optional(),
})

/** A withdrawal as staff pay it: whose it is, and the whole account number. */
export const StaffWithdrawalSchema = WithdrawalSchema.extend({
  userId: z.number().int(),
  accountNo: z.string(),
})
export type StaffWithdrawal = z.infer<typeof StaffWithdrawalSchema>
export const StaffWithdrawalQuerySchema = z.object({
  status: z.enum(WITHDRAWAL_STATUSES).optional(),
})

/**
 * Staff `POST /admin/orders/{id}/forfeit` (DESIGN §4): an overdue winner's deposit pays for the
 * lot, up to the deposit; the order is closed as cancelled and the lot may be relisted.
 */
export const ForfeitSchema = z.object({
  orderId: z.number().int(),
  userId: z.number().int(),
  hammer: Fen,
  /** min(hammer, deposit): what the deposit paid. */
  taken: Fen,
  /** The deposit left. */
  deposit: Fen,
  status: z.literal('cancelled'),
})
export type Forfeit = z.infer<typeof ForfeitSchema>
