import type { UsableCoupon } from '@numisma/contracts/mall'
import type { Order } from '@numisma/contracts/orders'
import type { PayMethod, WaitPayStatistics } from '@numisma/contracts/payment'

/**
 * The payment screen's choices as plain data: which pending orders are ticked, which order a
 * coupon may go to, what the payment comes to and how it is paid. The server judges all of it
 * again when paying (doPay); these only keep the screen from offering what it would refuse.
 */

/**
 * The orders ticked when the screen opens: those of `?orderIds=` that are still pending, in the
 * pending list's order. Without the parameter (the user centre's 待付款) every pending order is
 * ticked — a collector who won five lots pays once.
 */
export function initialSelection(wanted: readonly number[], pending: readonly Order[]): number[] {
  if (wanted.length === 0) return pending.map((order) => order.id)
  return pending.filter((order) => wanted.includes(order.id)).map((order) => order.id)
}

/** The wanted orders that are no longer pending (paid, cancelled or expired meanwhile). */
export function missingOrders(wanted: readonly number[], pending: readonly Order[]): number[] {
  return wanted.filter((id) => !pending.some((order) => order.id === id))
}

/**
 * Where a coupon chosen here may go (DESIGN §9: a mall order of the payment that has none yet):
 * the one ticked mall order without a coupon. With none there is nothing to choose; with several
 * the screen cannot say which one it would be for, so it asks to pay them apart.
 */
export type CouponTarget =
  { kind: 'none' } | { kind: 'order'; order: Order } | { kind: 'ambiguous'; count: number }

export function couponTarget(selected: readonly Order[]): CouponTarget {
  const open = selected.filter((order) => order.kind === 'mall' && order.userCouponId === null)
  if (open.length === 0) return { kind: 'none' }
  if (open.length === 1) return { kind: 'order', order: open[0]! }
  return { kind: 'ambiguous', count: open.length }
}

export interface PayTotals {
  goods: number
  fee: number
  discount: number
  total: number
  balance: number
  balanceCovers: boolean
}

/**
 * What the payment comes to: the server's statistics for the ticked orders, less what a coupon
 * chosen here saves (the server's own figure for that order, from getUserCoupons).
 */
export function payTotals(stats: WaitPayStatistics, coupon: UsableCoupon | null): PayTotals {
  const saving = Math.min(coupon?.saving ?? 0, stats.total)
  const total = stats.total - saving
  return {
    goods: stats.goods,
    fee: stats.fee,
    discount: stats.discount + saving,
    total,
    balance: stats.balance,
    balanceCovers: stats.balance >= total,
  }
}

/**
 * The method offered first: the balance when it covers the payment, else messaging-app pay where
 * it is offered, else bank remittance.
 */
export function defaultMethod(balanceCovers: boolean, messagingPay: boolean): PayMethod {
  if (balanceCovers) return 'balance'
  return messagingPay ? 'wechat' : 'remittance'
}
