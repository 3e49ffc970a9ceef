import type { Order, OrderItem, OrderKind, OrderStatus } from '@numisma/contracts/orders'
import { ORDER_KINDS, ORDER_STATUSES } from '@numisma/contracts/orders'
import { parseImages } from '../catalog/mappers'
import type { OrderRow } from './reads-repository'

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString())

/** A stored order kind, refused loudly if the database holds something else. */
export function kindOf(value: string): OrderKind {
  const kind = ORDER_KINDS.find((k) => k === value)
  if (!kind) throw new Error(`order has an unknown kind: ${value}`)
  return kind
}

/** A stored order status, refused loudly if the database holds something else. */
export function statusOf(value: string): OrderStatus {
  const status = ORDER_STATUSES.find((s) => s === value)
  if (!status) throw new Error(`order has an unknown status: ${value}`)
  return status
}

/** The columns an order's item is made from (an order read joined with its lot or mall item). */
export type OrderItemFacts = Pick<
  OrderRow,
  | 'kind'
  | 'quantity'
  | 'amount'
  | 'lot_id'
  | 'lot_title'
  | 'lot_images'
  | 'product_no'
  | 'mall_title'
  | 'mall_images'
>

/**
 * What the order is for. The unit price comes from the order (`amount` is price × quantity as it
 * was when the order was placed), never from the item's current price.
 */
export function orderItemOf(row: OrderItemFacts): OrderItem {
  const quantity = Math.max(1, row.quantity)
  const price = Math.round(row.amount / quantity)
  if (row.kind === 'auction') {
    return {
      title: row.lot_title ?? '',
      ...(row.lot_id === null ? {} : { lotId: row.lot_id }),
      quantity,
      price,
      image: parseImages(row.lot_images ?? '[]')[0] ?? '',
    }
  }
  return {
    title: row.mall_title ?? '',
    ...(row.product_no === null ? {} : { productNo: row.product_no }),
    quantity,
    price,
    image: parseImages(row.mall_images ?? '[]')[0] ?? '',
  }
}

/** An order row in DESIGN §9's shape: `total = goods + fee − discount`. */
export function toOrder(row: OrderRow): Order {
  return {
    id: row.id,
    kind: kindOf(row.kind),
    status: statusOf(row.status),
    items: [orderItemOf(row)],
    goods: row.amount,
    fee: row.fee,
    discount: row.discount,
    total: row.total,
    userCouponId: row.user_coupon_id,
    payMethod: row.pay_method,
    createdAt: new Date(row.created_at).toISOString(),
    dueAt: iso(row.due_at),
    paidAt: iso(row.paid_at),
    cancelledAt: iso(row.cancelled_at),
  }
}
