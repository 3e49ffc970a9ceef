import type { Tx } from '../../platform/transactions'
import { UNPAID_STATUSES } from '@numisma/domain/order-status'

/**
 * Which of a notice's orders `amount` pays: the unpaid ones in id order while what is left of it
 * covers them (the first that does not fit, and every one after it, wait). Their sum never
 * exceeds `amount`. Confirming a notice pays these out of the money received; while it waits,
 * these — judged on its stated amount — are the orders it holds.
 */
export function remittancePayable(
  orders: readonly { id: number; status: string; total: number }[],
  amount: number,
): number[] {
  const pay: number[] = []
  let left = amount
  for (const order of [...orders].sort((a, b) => a.id - b.id)) {
    if (!(UNPAID_STATUSES as readonly string[]).includes(order.status)) continue
    if (order.total > left) break
    pay.push(order.id)
    left -= order.total
  }
  return pay
}

/** The notices still waiting for staff that name one of `orderIds`, with their amounts. */
async function waitingNoticesNaming(
  tx: Tx,
  orderIds: readonly number[],
): Promise<{ amount: number; orderIds: number[] }[]> {
  if (orderIds.length === 0) return []
  const wanted = new Set(orderIds)
  const rows = await tx
    .selectFrom('remittances')
    .select(['amount', 'order_ids'])
    .where('status', '=', 'submitted')
    .execute()
  return rows
    .map((row) => ({ amount: row.amount, orderIds: JSON.parse(row.order_ids) as number[] }))
    .filter((notice) => notice.orderIds.some((id) => wanted.has(id)))
}

/**
 * Which of `orderIds` a remittance notice still waiting for staff covers. A buyer who has sent the
 * money and filed the notice has done their part: while staff have not decided, their order is
 * neither overdue nor forfeited nor expired (DESIGN §4, §5). Only for what the notice's amount
 * covers, though — the orders it names in id order while the amount reaches (remittancePayable, the
 * rule confirming it pays by): a 1-fen notice naming a 5,000-yuan win holds nothing. Other modules
 * receive this function through `app.ts`, not the finance repository.
 *
 * Coverage is computed here, at read time, from the named orders' current statuses and totals, not
 * stored when the notice is filed (ADR 012, amendment): no schema change, and it follows what
 * confirming the stated amount would pay now — an order the buyer meanwhile paid another way, or
 * one cancelled, frees its share for the next, as confirmation would. The callers hold the row
 * locks of the orders they ask about; a notice's other orders are read as committed, and can only
 * leave the unpaid statuses (or get cheaper by a coupon), which only ever widens what is covered.
 *
 * Notices waiting for staff are few (staff decide them daily), and their order ids are a JSON
 * array, so they are read whole and matched here rather than in SQL that differs per dialect.
 */
export async function ordersAwaitingRemittance(
  tx: Tx,
  orderIds: readonly number[],
): Promise<Set<number>> {
  const covered = new Set<number>()
  const notices = await waitingNoticesNaming(tx, orderIds)
  if (notices.length === 0) return covered
  const named = [...new Set(notices.flatMap((n) => n.orderIds))]
  const orders = await tx
    .selectFrom('orders')
    .select(['id', 'status', 'total'])
    .where('id', 'in', named)
    .execute()
  const byId = new Map(orders.map((o) => [o.id, o]))
  const wanted = new Set(orderIds)
  for (const notice of notices) {
    const own = notice.orderIds.flatMap((id) => byId.get(id) ?? [])
    for (const id of remittancePayable(own, notice.amount)) if (wanted.has(id)) covered.add(id)
  }
  return covered
}

export type OrdersAwaitingRemittance = typeof ordersAwaitingRemittance

/**
 * Which of `orderIds` a notice waiting for staff names at all, whether or not its amount covers
 * them: what the counter booking refuses (the notice's money, once staff confirm what arrived,
 * may yet pay such an order — it must not be booked to be paid in cash too).
 */
export async function ordersNamedByRemittance(
  tx: Tx,
  orderIds: readonly number[],
): Promise<Set<number>> {
  const wanted = new Set(orderIds)
  const named = new Set<number>()
  for (const notice of await waitingNoticesNaming(tx, orderIds)) {
    for (const id of notice.orderIds) if (wanted.has(id)) named.add(id)
  }
  return named
}
