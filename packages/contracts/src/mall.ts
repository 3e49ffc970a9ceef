import { z } from 'zod'
import { IdParamSchema, IdSchema, plainText } from './api'
import { MallItemCardSchema } from './catalog'
import type { Locale } from './errors'
import { ORDER_QUANTITY_MAX } from './limits'

/**
 * Mall purchase, coupons and mall watching (DESIGN §5 and §9 "Mall and coupons"). Amounts in fen,
 * times ISO-8601 UTC.
 */
const Fen = z.number().int()
const Iso = z.iso.datetime({ offset: true })
const PositiveFen = z.number().int().positive().max(100_000_000_000)
const FenOrZero = z.number().int().min(0).max(100_000_000_000)

/** A product number in a path or body (`M100001`). */
export const ProductNoSchema = z
  .string()
  .trim()
  .min(1)
  .max(32)
  .regex(/^[\w-]+$/)
export const ProductNoParamsSchema = z.object({ productNo: ProductNoSchema })

// Coupons.

export const CouponKindSchema = z.enum(['amount', 'percent'])

/** Staff `POST /admin/coupons`. */
export const CouponCreateSchema = z
  .object({
    title: plainText(1, 60),
    kind: CouponKindSchema,
    /** The goods total an order must reach (0: any). */
    threshold: FenOrZero,
    amount: PositiveFen.optional(),
    percent: z.number().int().min(1).max(99).optional(),
    cap: PositiveFen.optional(),
    /** How many may be received in all, and by one user. */
    total: z.number().int().min(1).max(10_000_000),
    perUser: z.number().int().min(1).max(100),
    startsAt: Iso,
    endsAt: Iso,
    productNos: z.array(ProductNoSchema).max(200).default([]),
    categoryIds: z.array(IdSchema).max(200).default([]),
  })
  .refine((c) => Date.parse(c.startsAt) < Date.parse(c.endsAt), {
    message: 'startsAt must be before endsAt',
    path: ['endsAt'],
  })
  .refine((c) => (c.kind === 'amount' ? c.amount !== undefined : c.percent !== undefined), {
    message: 'kind amount needs amount; kind percent needs percent',
    path: ['kind'],
  })
  .refine((c) => c.kind !== 'amount' || c.threshold === 0 || (c.amount ?? 0) <= c.threshold, {
    message: 'the saving must not exceed the threshold',
    path: ['amount'],
  })
  .refine((c) => c.perUser <= c.total, {
    message: 'perUser must not exceed total',
    path: ['perUser'],
  })
export type CouponCreate = z.infer<typeof CouponCreateSchema>
export const CouponCreatedSchema = z.object({ id: z.number().int() })

/** The terms every coupon view shows. */
const CouponTermsSchema = z.object({
  title: z.string(),
  kind: CouponKindSchema,
  threshold: Fen,
  amount: Fen.nullable(),
  percent: z.number().int().nullable(),
  cap: Fen.nullable(),
  startsAt: z.string(),
  endsAt: z.string(),
  /** `all`: the whole mall; `limited`: some items or categories. */
  scope: z.enum(['all', 'limited']),
})

/** `GET /mallproduct/getMallCoupons/{productNo}`: coupons valid for the item now. */
export const MallCouponSchema = CouponTermsSchema.extend({
  id: z.number().int(),
  /** The caller has received it at least once (false when signed out). */
  received: z.boolean(),
  /** The caller may receive one more (stock left, their limit not reached). */
  receivable: z.boolean(),
  /** How many are left to receive in all. */
  left: z.number().int(),
})
export type MallCoupon = z.infer<typeof MallCouponSchema>

export const ReceiveCouponParamsSchema = z.object({ couponId: IdParamSchema })
export const ReceivedCouponSchema = z.object({ userCouponId: z.number().int() })
export type ReceivedCoupon = z.infer<typeof ReceivedCouponSchema>

/**
 * `GET /user/3_3/pay/getUserCoupons`: the caller's coupons usable for an order, with what each
 * saves, best first. For an item not yet ordered pass `productNo` and `quantity`; for a placed
 * mall order (the payment screen) pass `orderId`.
 */
export const UserCouponsQuerySchema = z
  .object({
    productNo: ProductNoSchema.optional(),
    quantity: z.coerce.number().int().min(1).max(ORDER_QUANTITY_MAX).default(1),
    orderId: IdParamSchema.optional(),
  })
  .refine((q) => (q.productNo === undefined) !== (q.orderId === undefined), {
    message: 'pass productNo or orderId',
    path: ['productNo'],
  })
export type UserCouponsQuery = z.infer<typeof UserCouponsQuerySchema>

export const UsableCouponSchema = CouponTermsSchema.extend({
  userCouponId: z.number().int(),
  couponId: z.number().int(),
  saving: Fen,
})
export type UsableCoupon = z.infer<typeof UsableCouponSchema>

/** A received coupon's state: `locked` while an unpaid order holds it. */
export const USER_COUPON_STATUSES = ['usable', 'locked', 'used', 'expired'] as const
export type UserCouponStatus = (typeof USER_COUPON_STATUSES)[number]

/** `GET /user/3_3/pay/getUserCouponsHistory?state=`: the tabs of /myCoupon. */
export const COUPON_HISTORY_STATES = ['usable', 'used', 'expired'] as const
export const CouponHistoryQuerySchema = z.object({
  /** `used` lists locked and used coupons; omitted, every coupon. */
  state: z.enum(COUPON_HISTORY_STATES).optional(),
})
export type CouponHistoryQuery = z.infer<typeof CouponHistoryQuerySchema>

export const UserCouponRecordSchema = CouponTermsSchema.extend({
  userCouponId: z.number().int(),
  couponId: z.number().int(),
  status: z.enum(USER_COUPON_STATUSES),
  /** The order that holds or used it. */
  orderId: z.number().int().nullable(),
  receivedAt: z.string(),
  usedAt: z.string().nullable(),
})
export type UserCouponRecord = z.infer<typeof UserCouponRecordSchema>

// Buying.

export const CreateOrderRequestSchema = z.object({
  productNo: ProductNoSchema,
  quantity: z.number().int().min(1).max(ORDER_QUANTITY_MAX),
  userCouponId: IdSchema.optional(),
})
export type CreateOrderRequest = z.infer<typeof CreateOrderRequestSchema>

export const PURCHASE_STATUSES = [
  'SUCCESS',
  'SOLD_OUT',
  'LIMIT_EXCEEDED',
  'OFF_SALE',
  'COUPON_INVALID',
] as const
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number]

/**
 * `POST /mallorder/createOrder`: HTTP 200 whatever the outcome (spec §4: a purchase succeeded only
 * when `status` is SUCCESS); `detail` is a sentence in the request's locale.
 */
export const CreateOrderResultSchema = z.object({
  status: z.enum(PURCHASE_STATUSES),
  detail: z.string(),
  orderId: z.number().int().optional(),
  /** SOLD_OUT: units left; LIMIT_EXCEEDED: how many more the caller may buy. */
  left: z.number().int().optional(),
})
export type CreateOrderResult = z.infer<typeof CreateOrderResultSchema>

/** The `detail` of each purchase outcome. */
export const PURCHASE_DETAILS: Record<PurchaseStatus, Record<Locale, string>> = {
  SUCCESS: { zh: '下单成功，请在30分钟内付款', en: 'order placed; please pay within 30 minutes' },
  SOLD_OUT: { zh: '库存不足', en: 'not enough stock left' },
  LIMIT_EXCEEDED: { zh: '超出每人限购数量', en: 'more than the limit per buyer' },
  OFF_SALE: { zh: '商品已下架', en: 'the item is no longer on sale' },
  COUPON_INVALID: {
    zh: '优惠券不可用于此订单',
    en: 'the coupon cannot be used for this order',
  },
}

/** `GET /mallorder/records/{productNo}`: who bought the item (masked), newest first (/orderHistory). */
export const PurchaseRecordSchema = z.object({
  buyer: z.string(),
  quantity: z.number().int(),
  at: z.string(),
  mine: z.boolean(),
})
export type PurchaseRecord = z.infer<typeof PurchaseRecordSchema>
export const PurchaseRecordQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(50).default(20),
})

// Watching.

export const MallWatchStateSchema = z.object({ productNo: z.string(), watched: z.boolean() })
export type MallWatchState = z.infer<typeof MallWatchStateSchema>

/** `GET /user/auction/queryUserMallAttentions`, newest watch first. */
export const WatchedMallItemSchema = MallItemCardSchema.extend({
  onSale: z.boolean(),
  watchedAt: z.string(),
})
export type WatchedMallItem = z.infer<typeof WatchedMallItemSchema>
