import type { Tx } from '../../platform/transactions'

/**
 * Which of `orderIds` a remittance notice still waiting for staff names. A buyer who has sent the
 * money and filed the notice has done their part: while staff have not decided, their order is
 * neither overdue nor forfeited nor expired (DESIGN §4, §5). Other modules receive this function
 * through `app.ts`, not the finance repository.
 *
 * Notices waiting for staff are few (staff decide them daily), and their order ids are a JSON
 * array, so they are read whole and matched here rather than in SQL that differs per dialect.
 */
export async function ordersAwaitingRemittance(
  tx: Tx,
  orderIds: readonly number[],
): Promise<Set<number>> {
  const named = new Set<number>()
  if (orderIds.length === 0) return named
  const wanted = new Set(orderIds)
  const rows = await tx
    .selectFrom('remittances')
    .select('order_ids')
    .where('status', '=', 'submitted')
    .execute()
  for (const row of rows) {
    for (const id of JSON.parse(row.order_ids) as number[]) if (wanted.has(id)) named.add(id)
  }
  return named
}

export type OrdersAwaitingRemittance = typeof ordersAwaitingRemittance
