import type { Tx } from '../../platform/transactions'
import type { CouponHolds } from './coupon-holds'
import type { LockedOrder, OrdersRepository } from './repository'

/**
 * The side effects of placing a mall order, each with the step that undoes it (STYLE.md "Side
 * effects in steps with compensation"; Medusa's reserve-inventory step). Placing runs the steps
 * forward inside its one write transaction, where a failure rolls all of them back; cancelling and
 * expiring a committed order run their undos.
 */
export interface Step<Input, Result = void> {
  run(tx: Tx, input: Input): Promise<Result>
  undo(tx: Tx, input: Input): Promise<void>
}

export interface StockLine {
  mallItemId: number
  quantity: number
}

export interface CouponHold {
  userCouponId: number
  orderId: number
}

/** Reserve stock ↔ return it. `run` is false, and changes nothing, when fewer units are left. */
export const stockStep = (
  orders: Pick<OrdersRepository, 'reserveStock' | 'returnStock'>,
): Step<StockLine, boolean> => ({
  run: (tx, line) => orders.reserveStock(tx, line.mallItemId, line.quantity),
  undo: (tx, line) => orders.returnStock(tx, line.mallItemId, line.quantity),
})

/** Lock the claimed coupon for the order ↔ release it (usable again). */
export const couponStep = (holds: CouponHolds): Step<CouponHold> => ({
  run: (tx, hold) => holds.lock(tx, hold.userCouponId, hold.orderId),
  undo: (tx, hold) => holds.release(tx, hold.userCouponId, hold.orderId),
})

export type CancelRefusal = 'not_mall' | 'not_pending'

/** Why a locked order cannot be cancelled (by its buyer or by expiry), or null when it can. */
export function cancelRefusal(order: LockedOrder): CancelRefusal | null {
  if (order.kind !== 'mall' || order.mallItemId === null) return 'not_mall'
  if (order.status !== 'pending_payment') return 'not_pending'
  return null
}

/**
 * An unpaid mall order past its due time expires. Choosing bank remittance moved that time
 * (REMITTANCE_HOLD_MS from the choice); the expiry job also keeps one a waiting notice names.
 */
export function hasExpired(order: LockedOrder, now: number): boolean {
  return cancelRefusal(order) === null && order.dueAt !== null && order.dueAt <= now
}

/**
 * Undoes a placed mall order that is still unpaid; the order row must be locked by the caller.
 * The status flips first, conditionally, so an order is unwound at most once whoever asks (the
 * buyer, an expiry job on any instance). Stock goes back before the coupon is released — not the
 * reverse of placing — because placing locks the item before the coupon, and every transaction
 * taking the two in the same order is what keeps them from deadlocking on PostgreSQL.
 */
export async function unwindMallOrder(
  tx: Tx,
  order: LockedOrder,
  now: number,
  deps: {
    orders: Pick<OrdersRepository, 'markCancelled'>
    stock: Step<StockLine, boolean>
    coupon: Step<CouponHold>
  },
): Promise<boolean> {
  if (cancelRefusal(order) !== null || order.mallItemId === null) return false
  if (!(await deps.orders.markCancelled(tx, order.id, now))) return false
  await deps.stock.undo(tx, { mallItemId: order.mallItemId, quantity: order.quantity })
  if (order.userCouponId !== null) {
    await deps.coupon.undo(tx, { userCouponId: order.userCouponId, orderId: order.id })
  }
  return true
}
