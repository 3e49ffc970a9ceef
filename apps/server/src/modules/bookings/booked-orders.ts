import type { Tx } from '../../platform/transactions'

/**
 * Which of `orderIds` an open counter cash booking holds. Its buyer will pay cash at the counter on
 * the booked day (DESIGN §6): until staff close or cancel the booking the order counts as paid
 * offline (packages/domain/src/order-status.ts `paidOffline`), so the mall-order expiry, the
 * overdue job and forfeits leave it alone. Other modules receive this function through `app.ts`,
 * not the bookings repository. Call it under the orders' row locks: a booking is made under them,
 * so what it answers cannot change until the caller commits.
 */
export async function ordersBookedAtCounter(
  tx: Tx,
  orderIds: readonly number[],
): Promise<Set<number>> {
  if (orderIds.length === 0) return new Set()
  const rows = await tx
    .selectFrom('booking_orders')
    .innerJoin('bookings', 'bookings.id', 'booking_orders.booking_id')
    .select('booking_orders.order_id')
    .where('bookings.status', '=', 'booked')
    .where('booking_orders.order_id', 'in', [...new Set(orderIds)])
    .execute()
  return new Set(rows.map((r) => r.order_id))
}

export type OrdersBookedAtCounter = typeof ordersBookedAtCounter
