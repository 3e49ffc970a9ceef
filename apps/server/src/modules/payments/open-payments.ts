import type { Tx } from '../../platform/transactions'
import { payableUntil, wechatAttemptOpen } from './rules'

/**
 * Which of `orderIds` wait for a messaging-app payment their buyer may still pay at the platform
 * (rules.ts wechatAttemptOpen): the sheet is, or may any moment be, in the payer's hands. Other
 * modules receive this function through `app.ts` (the overdue module refuses a forfeit meanwhile),
 * not the payments repository. Call it under the orders' row locks and read `now` after them: a
 * payment attaches its orders under those locks, so what it answers cannot change until the
 * caller commits — except a fresh attempt of a payment whose window had closed, which the payer
 * can only ask for while the orders are still payable (PaymentService.ensurePrepay checks).
 *
 * The closing time is judged by each order's own due time: the payment's other orders
 * closing earlier can only make this answer longer than the truth, never shorter.
 */
export async function ordersWithOpenWechatPayment(
  tx: Tx,
  orderIds: readonly number[],
  now: number,
): Promise<Set<number>> {
  const open = new Set<number>()
  if (orderIds.length === 0) return open
  const rows = await tx
    .selectFrom('orders')
    .innerJoin('payments', 'payments.id', 'orders.payment_id')
    .select([
      'orders.id',
      'orders.kind',
      'orders.due_at',
      'payments.created_at',
      'payments.prepay_id',
      'payments.prepay_at',
    ])
    .where('orders.id', 'in', [...new Set(orderIds)])
    .where('payments.status', '=', 'pending')
    .where('payments.method', '=', 'wechat')
    .execute()
  for (const row of rows) {
    const closeBy = payableUntil([{ kind: row.kind, dueAt: row.due_at }])
    const payment = { createdAt: row.created_at, prepayId: row.prepay_id, prepayAt: row.prepay_at }
    if (wechatAttemptOpen(payment, closeBy, now)) open.add(row.id)
  }
  return open
}

export type OrdersWithOpenWechatPayment = typeof ordersWithOpenWechatPayment
