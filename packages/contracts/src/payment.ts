import { z } from 'zod'
import { IdSchema, idListSchema } from './api'

/**
 * Paying orders (DESIGN §6, §9 "Money"): balance with the payment password, messaging-app pay
 * (JSAPI; paid only when the platform's signed server-side notice arrives), or bank remittance.
 * Amounts in fen, times ISO-8601 UTC.
 */
const Fen = z.number().int()

/** Six digits (DESIGN §3). */
export const PayPasswordSchema = z.string().regex(/^\d{6}$/, 'six digits')

export const PAY_METHODS = ['balance', 'wechat', 'remittance'] as const
export const PayMethodSchema = z.enum(PAY_METHODS)
export type PayMethod = z.infer<typeof PayMethodSchema>

/** At most this many orders in one payment (a collector who won many lots pays once). */
export const PAY_MAX_ORDERS = 50

export const PayRequestSchema = z.object({
  orderIds: z
    .array(IdSchema)
    .min(1)
    .max(PAY_MAX_ORDERS)
    .refine((ids) => new Set(ids).size === ids.length, 'an order is named twice'),
  method: PayMethodSchema,
  /** Required for `balance`. */
  payPassword: PayPasswordSchema.optional(),
  /** Applies to a mall order in the payment that has no coupon yet (as getUserCoupons offers it). */
  userCouponId: IdSchema.optional(),
})
export type PayRequest = z.infer<typeof PayRequestSchema>

/**
 * The messaging platform's JSAPI pay request (spec §3): what the page hands to the platform's
 * bridge. `packages` is `prepay_id=…`; `sign` is over the other fields with the merchant key.
 */
export const WechatPayRequestSchema = z.object({
  appid: z.string(),
  timestamp: z.string(),
  noncestr: z.string(),
  packages: z.string(),
  signType: z.literal('MD5'),
  sign: z.string(),
})
export type WechatPayRequest = z.infer<typeof WechatPayRequestSchema>

/**
 * `POST /user/3_3/pay/doPay`: `PAID` when the money moved now (balance), `PENDING` while it is on
 * its way (messaging-app pay until the notice, remittance until staff confirm it).
 */
export const PayResultSchema = z.object({
  status: z.enum(['PAID', 'PENDING']),
  paymentId: z.number().int(),
  method: PayMethodSchema,
  orderIds: z.array(z.number().int()),
  /** What the payment takes: the orders' totals after any coupon chosen here. */
  amount: Fen,
  payRequest: WechatPayRequestSchema.optional(),
})
export type PayResult = z.infer<typeof PayResultSchema>

/** `GET /user/3_3/pay/waitPayStatistics?orderIds=1,2`: what paying these orders comes to. */
export const WaitPayQuerySchema = z.object({
  orderIds: idListSchema(50),
})
export const WaitPayStatisticsSchema = z.object({
  count: z.number().int(),
  goods: Fen,
  /** The buyer's handling fees of won lots. */
  fee: Fen,
  discount: Fen,
  total: Fen,
  /** The caller's balance now, and whether it covers the total. */
  balance: Fen,
  balanceCovers: z.boolean(),
})
export type WaitPayStatistics = z.infer<typeof WaitPayStatisticsSchema>

/** `GET /user/payments/:id`: one of the caller's payments (the success page polls a pending one). */
export const PaymentSchema = z.object({
  id: z.number().int(),
  method: PayMethodSchema,
  status: z.enum(['pending', 'paid', 'failed']),
  amount: Fen,
  orderIds: z.array(z.number().int()),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  /**
   * Money of a paid messaging-app payment that went to the balance instead: its notice came after
   * some of the orders had been cancelled, had expired or were paid another way (0 otherwise).
   */
  credited: Fen.optional(),
})
export type Payment = z.infer<typeof PaymentSchema>
