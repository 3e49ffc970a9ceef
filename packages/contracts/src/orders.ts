import { z } from 'zod'
import { IdParamSchema, pageSchema } from './api'

/**
 * Orders of DESIGN §9 "Orders": one shape for auction and mall orders, amounts in fen,
 * `total = goods + fee − discount`. The payment and delivery issues add to the statuses' journeys,
 * never to the shape's required fields.
 */
const Fen = z.number().int()

export const ORDER_KINDS = ['auction', 'mall'] as const
export type OrderKind = (typeof ORDER_KINDS)[number]

export const ORDER_STATUSES = [
  'pending_payment',
  'paid',
  'delivery_applied',
  'shipped',
  'completed',
  'cancelled',
  'overdue',
] as const
export const OrderStatusSchema = z.enum(ORDER_STATUSES)
export type OrderStatus = z.infer<typeof OrderStatusSchema>

export const OrderItemSchema = z.object({
  title: z.string(),
  lotId: z.number().int().optional(),
  productNo: z.string().optional(),
  quantity: z.number().int(),
  /** Unit price: the hammer price of a lot, the mall price when the order was placed. */
  price: Fen,
  /** The item's first picture ('' when it has none). */
  image: z.string(),
})
export type OrderItem = z.infer<typeof OrderItemSchema>

export const OrderSchema = z.object({
  id: z.number().int(),
  kind: z.enum(ORDER_KINDS),
  status: OrderStatusSchema,
  items: z.array(OrderItemSchema),
  goods: Fen,
  /** The buyer's handling fee of an auction order; 0 for the mall. */
  fee: Fen,
  /** What a coupon took off (mall orders). */
  discount: Fen,
  total: Fen,
  /** The coupon locked by this order while it is unpaid, and used once it is paid. */
  userCouponId: z.number().int().nullable(),
  /** `balance` | `wechat` | `remittance` once the buyer chose how to pay (the money issue). */
  payMethod: z.string().nullable(),
  createdAt: z.string(),
  /** Pay by then: 30 minutes for a mall order, 3 days for a won lot. */
  dueAt: z.string().nullable(),
  paidAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  /**
   * A paid order in storage (status `paid`): the storage it has run up so far (free through the
   * 30th China day after payment, then a daily fee) and when it starts to cost. Absent otherwise.
   */
  storageFee: Fen.optional(),
  storageFreeUntil: z.string().optional(),
})
export type Order = z.infer<typeof OrderSchema>

/**
 * The order groups of spec §4 and §7 "Orders", newest first: `GET /user/logistic/waiting` (won lots
 * waiting to ship), `GET /user/bplus/queryNoPaymentMark` (mall orders waiting to ship) and
 * `GET /user/order/getUserOrderByBid` (completed).
 */
export const OrderGroupQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(50).default(20),
})
export type OrderGroupQuery = z.infer<typeof OrderGroupQuerySchema>
export const OrdersPageSchema = pageSchema(OrderSchema)
export type OrdersPage = z.infer<typeof OrdersPageSchema>

/** `GET /user/3_3/order/cancel?orderId=` (a GET in spec §7). */
export const CancelOrderQuerySchema = z.object({ orderId: IdParamSchema })
export const CancelOrderResultSchema = z.object({
  orderId: z.number().int(),
  status: z.literal('cancelled'),
})
export type CancelOrderResult = z.infer<typeof CancelOrderResultSchema>
