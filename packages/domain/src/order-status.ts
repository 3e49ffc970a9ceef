import type { ErrorCode } from '@numisma/contracts/errors'
import type { OrderKind, OrderStatus } from '@numisma/contracts/orders'

/**
 * The order state machine (DESIGN §6, §9 "Orders"; spec §4: transitions exist only as calls and
 * jobs). Statuses are DESIGN §9's, no others:
 *
 *   event            from                           to                 who
 *   pay              pending_payment, overdue       paid               buyer (or a payment notice)
 *   cancel           pending_payment (mall)         cancelled          buyer
 *   expire           pending_payment (mall), due    cancelled          the 30-minute job
 *   markOverdue      pending_payment (auction), due overdue            the overdue job
 *   forfeit          overdue (auction)              cancelled          staff
 *   bookCounter      pending_payment, overdue       (unchanged)        buyer
 *   settleAtCounter  pending_payment, overdue       completed          staff
 *   applyDelivery    paid                           delivery_applied   buyer
 *   ship             delivery_applied (express)     shipped            staff
 *   handOver         delivery_applied (pickup)      completed          staff
 *   confirmReceipt   shipped                        completed          buyer
 *   autoComplete     shipped, 15 days after ship    completed          the completion job
 *
 * - `pay`: an unpaid order (pending, or a won lot overdue — DESIGN §4: overdue still pays). A mall
 *   order past its 30 minutes is as good as expired unless it is paid offline (the server's
 *   `payRefusal`).
 * - `cancel` (the buyer) and `expire` (the 30-minute job): unpaid mall orders only; auction orders
 *   are never cancelled by their buyer — an overdue one is closed by staff with `forfeit`, which
 *   the server records as `cancelled` (there is no separate forfeited status).
 * - `markOverdue` (the job): a won lot still unpaid at its due time.
 * - Counter cash (DESIGN §6 "pay cash at the counter, then pick up"): `bookCounter` books a visit
 *   for unpaid orders and leaves their status as it is (the booking is its own record, and the
 *   server then counts the order as paid offline so that expiry, the overdue mark and forfeits
 *   leave it alone); `settleAtCounter` is staff closing the booking — cash taken, goods handed
 *   over — and completes the order in one step.
 * - Delivery of paid goods in storage: `applyDelivery` (express or pickup, the shipment's method
 *   is recorded on the order), then `ship` (express, staff with carrier and tracking number) and
 *   `confirmReceipt` / `autoComplete` (15 days after shipping), or `handOver` (pickup, staff).
 *
 * `completed` and `cancelled` are terminal: nothing leaves them.
 */
export const ORDER_EVENTS = [
  'pay',
  'cancel',
  'expire',
  'markOverdue',
  'forfeit',
  'bookCounter',
  'settleAtCounter',
  'applyDelivery',
  'ship',
  'handOver',
  'confirmReceipt',
  'autoComplete',
] as const
export type OrderEvent = (typeof ORDER_EVENTS)[number]

export type DeliveryMethod = 'express' | 'pickup'

/** Goods are delivered automatically as received this long after shipping (DESIGN §6). */
export const AUTO_COMPLETE_DAYS = 15
const DAY_MS = 86_400_000

/** When a shipped order completes by itself if its buyer has not confirmed receipt. */
export function autoCompleteAt(shippedAt: number): number {
  return shippedAt + AUTO_COMPLETE_DAYS * DAY_MS
}

/** What the machine needs to know about an order (times in epoch milliseconds). */
export interface OrderFacts {
  kind: OrderKind
  status: OrderStatus
  /** Pay by then (30 minutes for a mall order, 3 days for a won lot); null when none applies. */
  dueAt: number | null
  /** When staff shipped it (express); null before. */
  shippedAt: number | null
  /** The method of the shipment it was applied for; null before `applyDelivery`. */
  deliveryMethod: DeliveryMethod | null
  /**
   * The buyer pays outside our clock: a mall order whose buyer chose bank remittance, a
   * remittance notice staff have not decided yet, or an open counter-cash booking. Expiry, the
   * overdue mark and forfeits leave such an order alone, and a mall order past its 30 minutes may
   * still be paid. The server decides which of these it knows of.
   */
  paidOffline: boolean
}

export type TransitionResult = { ok: true; status: OrderStatus } | { ok: false; code: ErrorCode }

export const TERMINAL_STATUSES: readonly OrderStatus[] = ['completed', 'cancelled']

export function isTerminal(status: OrderStatus): boolean {
  return TERMINAL_STATUSES.includes(status)
}

/** Unpaid: pending, or a won lot past its due time (both may still be paid). */
export const UNPAID_STATUSES: readonly OrderStatus[] = ['pending_payment', 'overdue']

const isUnpaid = (status: OrderStatus) => UNPAID_STATUSES.includes(status)
const due = (order: OrderFacts, now: number) => order.dueAt !== null && order.dueAt <= now
/** A mall order past its 30 minutes that nobody pays offline: expiry is on its way. */
const lapsed = (order: OrderFacts, now: number) =>
  order.kind === 'mall' && due(order, now) && !order.paidOffline

const to = (status: OrderStatus): TransitionResult => ({ ok: true, status })
const refuse = (code: ErrorCode): TransitionResult => ({ ok: false, code })

/**
 * The status `event` takes `order` to at `now`, or the coded refusal (the codes of
 * packages/contracts/src/errors.ts the server answers with). Pure: the server applies the result
 * under the order's row lock, with a conditional update on the status it read.
 */
export function transition(order: OrderFacts, event: OrderEvent, now: number): TransitionResult {
  const { status } = order
  switch (event) {
    case 'pay':
      if (!isUnpaid(status) || lapsed(order, now)) return refuse('ORDER_NOT_PAYABLE')
      return to('paid')
    case 'cancel':
      if (order.kind !== 'mall' || status !== 'pending_payment') {
        return refuse('ORDER_NOT_CANCELLABLE')
      }
      return to('cancelled')
    case 'expire':
      if (order.kind !== 'mall' || status !== 'pending_payment') {
        return refuse('ORDER_NOT_CANCELLABLE')
      }
      if (!due(order, now)) return refuse('ORDER_NOT_DUE')
      if (order.paidOffline) return refuse('ORDER_PAID_OFFLINE')
      return to('cancelled')
    case 'markOverdue':
      if (order.kind !== 'auction' || status !== 'pending_payment') return refuse('NOT_PENDING')
      if (!due(order, now)) return refuse('ORDER_NOT_DUE')
      if (order.paidOffline) return refuse('ORDER_PAID_OFFLINE')
      return to('overdue')
    case 'forfeit':
      // The server's ForfeitService: a decided (cancelled) order is NOT_PENDING.
      if (status === 'cancelled') return refuse('NOT_PENDING')
      if (order.kind !== 'auction' || status !== 'overdue') return refuse('ORDER_NOT_OVERDUE')
      if (order.paidOffline) return refuse('ORDER_PAID_OFFLINE')
      return to('cancelled')
    case 'bookCounter':
      if (!isUnpaid(status) || lapsed(order, now)) return refuse('ORDER_NOT_BOOKABLE')
      return to(status)
    case 'settleAtCounter':
      if (!isUnpaid(status) || lapsed(order, now)) return refuse('ORDER_NOT_PAYABLE')
      return to('completed')
    case 'applyDelivery':
      if (status !== 'paid') return refuse('ORDER_NOT_SHIPPABLE')
      return to('delivery_applied')
    case 'ship':
      if (status !== 'delivery_applied' || order.deliveryMethod !== 'express') {
        return refuse('ORDER_NOT_SHIPPABLE')
      }
      return to('shipped')
    case 'handOver':
      if (status !== 'delivery_applied' || order.deliveryMethod !== 'pickup') {
        return refuse('ORDER_NOT_SHIPPABLE')
      }
      return to('completed')
    case 'confirmReceipt':
      if (status !== 'shipped') return refuse('ORDER_NOT_RECEIVABLE')
      return to('completed')
    case 'autoComplete':
      if (status !== 'shipped') return refuse('ORDER_NOT_RECEIVABLE')
      if (order.shippedAt === null || now < autoCompleteAt(order.shippedAt)) {
        return refuse('ORDER_NOT_DUE')
      }
      return to('completed')
  }
}

/** The order groups of spec §4 that lists and the user centre's counters show. */
export const ORDER_GROUPS = [
  'pendingPayment',
  'waitingToShip',
  'waitingToReceive',
  'completed',
] as const
export type OrderGroup = (typeof ORDER_GROUPS)[number]

/**
 * The statuses in each group, for a list's `WHERE status IN (…)`: an overdue won lot is still
 * waiting for payment; goods applied for delivery stay in storage until shipped or handed over.
 * Cancelled orders belong to no group.
 */
export const ORDER_GROUP_STATUSES: Readonly<Record<OrderGroup, readonly OrderStatus[]>> = {
  pendingPayment: ['pending_payment', 'overdue'],
  waitingToShip: ['paid', 'delivery_applied'],
  waitingToReceive: ['shipped'],
  completed: ['completed'],
}

/** The group an order of this status is listed and counted in; null for a cancelled one. */
export function orderGroup(status: OrderStatus): OrderGroup | null {
  for (const group of ORDER_GROUPS) {
    if (ORDER_GROUP_STATUSES[group].includes(status)) return group
  }
  return null
}
