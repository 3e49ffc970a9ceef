import type { OrderCharge } from '@numisma/domain/postings'
import type { PayableOrder } from './ports'

/**
 * The rules of paying, as pure functions over plain data (the service applies them under its
 * locks): which orders may be paid, what they come to, what a late payment notice pays, and the
 * recharge fee.
 */

/** The statuses an order may be paid from: unpaid, or a won lot unpaid past its due time. */
export const PAYABLE_STATUSES = ['pending_payment', 'overdue'] as const

export type PayRefusal = 'unknown' | 'not_yours' | 'not_payable' | 'expired'

/**
 * Why the caller may not pay this order now, or null. A mall order past its 30 minutes is as good
 * as cancelled (the expiry job is on its way) unless its buyer chose bank remittance.
 */
export function payRefusal(
  order: Pick<PayableOrder, 'userId' | 'kind' | 'status' | 'dueAt' | 'payMethod'> | undefined,
  userId: number,
  now: number,
): PayRefusal | null {
  if (!order) return 'unknown'
  if (order.userId !== userId) return 'not_yours'
  if (!(PAYABLE_STATUSES as readonly string[]).includes(order.status)) return 'not_payable'
  if (
    order.kind === 'mall' &&
    order.dueAt !== null &&
    order.dueAt <= now &&
    order.payMethod !== 'remittance'
  ) {
    return 'expired'
  }
  return null
}

/** What each order charges, for the posting rule (packages/domain/src/postings.ts). */
export const chargesOf = (orders: readonly PayableOrder[]): OrderCharge[] =>
  orders.map((o) => ({ goods: o.goods, discount: o.discount, fee: o.fee }))

/** What paying the orders takes: the sum of their totals (goods + fee − discount). */
export const amountOf = (orders: readonly PayableOrder[]): number =>
  orders.reduce((sum, o) => sum + o.total, 0)

/**
 * What a payment's money does when its notice arrives. It pays the orders that still wait for
 * this payment — unpaid and pointing at it: an order the buyer meanwhile paid another way, or
 * chose to pay with another payment, points elsewhere; a cancelled or expired one is no longer
 * payable. Their totals are what they were when the payment was made (only a new payment changes
 * an unpaid order's total). The rest of the money is credited to the buyer's balance: it was
 * taken from them, and is never lost.
 */
export function noticeSettlement(
  payment: { id: number; userId: number; amount: number },
  orders: readonly PayableOrder[],
): { pay: PayableOrder[]; credit: number } {
  const pay = orders.filter(
    (o) =>
      o.userId === payment.userId &&
      o.paymentId === payment.id &&
      (PAYABLE_STATUSES as readonly string[]).includes(o.status),
  )
  const credit = payment.amount - amountOf(pay)
  // Unreachable while the invariant above holds; if it ever broke, the whole amount is credited
  // rather than orders paid for less than they cost.
  if (credit < 0) return { pay: [], credit: payment.amount }
  return { pay, credit }
}

/**
 * Our trade number at the platform (`out_trade_no`, unique per merchant): `P<id>` for a payment of
 * orders, `R<id>` for a recharge. A later attempt — a fresh prepay after the first one's window
 * closed — is `P<id>-<start>`, its start in seconds, base 36: the platform takes a closed trade
 * number only as a duplicate, and every attempt names the same payment, settled once.
 */
export type TradeRef = { kind: 'payment' | 'recharge'; id: number }

export const tradeNo = (ref: TradeRef, attemptStartedAt?: number): string =>
  `${ref.kind === 'payment' ? 'P' : 'R'}${ref.id}` +
  (attemptStartedAt === undefined ? '' : `-${Math.floor(attemptStartedAt / 1000).toString(36)}`)

export function parseTradeNo(outTradeNo: string): TradeRef | null {
  const match = /^([PR])([1-9]\d{0,9})(?:-[0-9a-z]{1,10})?$/.exec(outTradeNo)
  if (!match) return null
  const id = Number(match[2])
  if (id > 2 ** 31 - 1) return null
  return { kind: match[1] === 'P' ? 'payment' : 'recharge', id }
}

/** The platform lets a prepay id lapse two hours after it issued it. */
export const PREPAY_LIFETIME_MS = 2 * 60 * 60 * 1000
/**
 * How long one attempt at the platform is payable: its trade closes then (`time_expire`), ten
 * minutes before its prepay id would lapse (a margin for the platform's clock), and only then is
 * a fresh one asked for — so two attempts are never payable at once and a payer cannot pay twice.
 */
export const PREPAY_WINDOW_MS = PREPAY_LIFETIME_MS - 10 * 60 * 1000

/** Whether a prepay id issued for an attempt started at `startedAt` may still be handed out. */
export const prepayUsable = (startedAt: number | null, now: number): boolean =>
  startedAt !== null && now < startedAt + PREPAY_WINDOW_MS

/** The platform refuses a JSAPI trade whose `time_expire` is less than five minutes away. */
export const PREPAY_MIN_MS = 5 * 60 * 1000

/**
 * When the first of these orders stops being payable by the clock: a mall order at its due time
 * (30 minutes from placing, or the end of a remittance hold — the expiry job cancels it then);
 * null when none has such an end (a won lot stays payable, overdue included). A messaging-app
 * trade for them must close by then, or its sheet would pay an order already cancelled.
 */
export function payableUntil(
  orders: readonly Pick<PayableOrder, 'kind' | 'dueAt'>[],
): number | null {
  let until: number | null = null
  for (const o of orders) {
    if (o.kind === 'mall' && o.dueAt !== null) until = Math.min(until ?? o.dueAt, o.dueAt)
  }
  return until
}

/**
 * Whether a pending messaging-app payment may still be paid at the platform: its current attempt's
 * window is open — or, with no prepay stored yet, the first attempt (which starts at the payment's
 * creation) may be handed out any moment — and the orders have not reached `closeBy`. Staff must
 * not forfeit an order while this holds: its winner may be paying it on the sheet.
 */
export function wechatAttemptOpen(
  payment: { createdAt: number; prepayId: string | null; prepayAt: number | null },
  closeBy: number | null,
  now: number,
): boolean {
  const startedAt = payment.prepayId === null ? payment.createdAt : (payment.prepayAt ?? 0)
  return prepayUsable(startedAt, now) && (closeBy === null || now < closeBy)
}

export interface PrepayAttempt {
  outTradeNo: string
  /** Stored as the prepay's `prepay_at`: the window runs from here. */
  startedAt: number
  /** The trade's `time_expire` at the platform. */
  expiresAt: number
}

/**
 * The attempt to ask the platform for now, for a payment (or recharge) made at `createdAt` whose
 * stored prepay (if any) started at `prepayAt` and is no longer usable: the first, `P<id>` from
 * `createdAt`, while its window is open and nothing was stored for it (a retry of a lost answer
 * asks the same trade again, which the platform answers with the same prepay id); otherwise one
 * starting now (whole seconds, as the suffix says).
 */
export function prepayAttempt(
  ref: TradeRef,
  row: { createdAt: number; prepayAt: number | null },
  now: number,
  closeBy: number | null = null,
): PrepayAttempt {
  // The trade closes with the orders (payableUntil), if they end before the window does. For one
  // payment closeBy does not move (only a new payment re-times its orders), so a retry of the
  // first attempt asks the same trade with the same time_expire.
  const closes = (startedAt: number) => Math.min(startedAt + PREPAY_WINDOW_MS, closeBy ?? Infinity)
  if (row.prepayAt === null && prepayUsable(row.createdAt, now)) {
    return { outTradeNo: tradeNo(ref), startedAt: row.createdAt, expiresAt: closes(row.createdAt) }
  }
  const startedAt = Math.floor(now / 1000) * 1000
  return { outTradeNo: tradeNo(ref, startedAt), startedAt, expiresAt: closes(startedAt) }
}
