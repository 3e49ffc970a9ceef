import {
  BOOKING_STATUSES,
  type Booking,
  type BookingStatus,
  PICKUP_SLOTS,
  type PickupSlot,
  type StaffBooking,
} from '@numisma/contracts/delivery'
import { orderItemOf } from '../orders/mappers'
import type { BookingOrderItemRow, BookingRow } from './repository'

function statusOf(value: string): BookingStatus {
  const status = BOOKING_STATUSES.find((s) => s === value)
  if (!status) throw new Error(`booking has an unknown status: ${value}`)
  return status
}

function slotOf(value: string): PickupSlot {
  const slot = PICKUP_SLOTS.find((s) => s === value)
  if (!slot) throw new Error(`booking has an unknown slot: ${value}`)
  return slot
}

/** A booking in BookingSchema's shape, with the orders (and their items) it holds. */
export function toBooking(row: BookingRow, orders: readonly BookingOrderItemRow[]): Booking {
  const mine = orders.filter((o) => o.booking_id === row.id)
  return {
    id: row.id,
    status: statusOf(row.status),
    date: row.date,
    slot: slotOf(row.slot),
    orderIds: mine.map((o) => o.order_id),
    items: mine.map(orderItemOf),
    total: row.total,
    createdAt: new Date(row.created_at).toISOString(),
    completedAt: row.completed_at === null ? null : new Date(row.completed_at).toISOString(),
  }
}

export function toStaffBooking(
  row: BookingRow & { display: string; mobile: string },
  orders: readonly BookingOrderItemRow[],
): StaffBooking {
  return {
    ...toBooking(row, orders),
    userId: row.user_id,
    display: row.display,
    mobile: row.mobile,
  }
}
