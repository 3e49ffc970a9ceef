import type { Order } from '@numisma/contracts/orders'

/**
 * When the bank transfer for these orders must have been reported, or null when none has a
 * deadline: a mall order whose buyer chose remittance is held REMITTANCE_HOLD_MS from that choice
 * (the server sets its `dueAt`), then cancelled unless a notice names it; a won lot keeps its own
 * due time and turns overdue rather than cancelled, so it sets no deadline here. The earliest one
 * counts: a transfer for several orders must beat all of them.
 */
export function remittanceDeadline(
  orders: readonly Order[],
  orderIds: readonly number[],
): string | null {
  const wanted = new Set(orderIds)
  let earliest: string | null = null
  for (const order of orders) {
    if (!wanted.has(order.id) || order.kind !== 'mall') continue
    if (order.status !== 'pending_payment' || order.payMethod !== 'remittance') continue
    if (order.dueAt === null) continue
    if (earliest === null || Date.parse(order.dueAt) < Date.parse(earliest)) earliest = order.dueAt
  }
  return earliest
}
