import type { Booking, PickupDay, PickupSlot, StoredOrder } from '@numisma/contracts/delivery'
import type { Order } from '@numisma/contracts/orders'
import { chinaDate } from '@numisma/domain/delivery'
import { UNPAID_STATUSES } from '@numisma/domain/order-status'

/**
 * How the delivery screens read their choices. /order/applySend keeps them in its URL
 * (`orderIds`, `method`, `addressId`, `insured`) so that a trip to the address list and back
 * (which returns with `addressId` added) finds everything as it was left.
 */
export const DELIVERY_CHOICES = ['express', 'pickup', 'cash'] as const
export type DeliveryChoice = (typeof DELIVERY_CHOICES)[number]

export function parseDeliveryChoice(value: string | null): DeliveryChoice {
  return DELIVERY_CHOICES.find((c) => c === value) ?? 'express'
}

/**
 * The ticked orders among those offered: the ids the URL names (an order gone meanwhile drops
 * out), or every one offered while the URL names none — most collectors ship all they hold.
 */
export function selectedOrders<T extends { id: number }>(
  named: readonly number[] | null,
  offered: readonly T[],
): T[] {
  if (named === null) return [...offered]
  return offered.filter((o) => named.includes(o.id))
}

/** Tick or untick one order: the new list of ids, in the order they are offered. */
export function toggled(
  selected: readonly number[],
  offered: readonly { id: number }[],
  id: number,
  on: boolean,
): number[] {
  const next = new Set(selected)
  if (on) next.add(id)
  else next.delete(id)
  return offered.map((o) => o.id).filter((x) => next.has(x))
}

/** What the goods are declared at for insurance: the chosen orders' totals. */
export function declaredValue(orders: readonly Pick<Order, 'total'>[]): number {
  return orders.reduce((sum, order) => sum + order.total, 0)
}

/** What a stored order's row says about storage: free until a day, or what it has cost so far. */
export type StorageNote = { kind: 'free'; until: string } | { kind: 'fee'; fee: number }

export function storageNote(
  stored: Pick<StoredOrder, 'storageFee' | 'storageFreeUntil'>,
): StorageNote {
  return stored.storageFee > 0
    ? { kind: 'fee', fee: stored.storageFee }
    : { kind: 'free', until: stored.storageFreeUntil }
}

/** The days that still have a place in some slot (a full day is not offered). */
export function daysWithPlaces(days: readonly PickupDay[]): PickupDay[] {
  return days.filter((day) => day.slots.some((s) => s.remaining > 0))
}

/**
 * The day and slot to show as chosen: the ones picked while they still have places, else the
 * first day with places and its first slot with places; null when nothing is bookable.
 */
export function slotChoice(
  days: readonly PickupDay[],
  date: string | undefined,
  slot: PickupSlot | undefined,
): { date: string; slot: PickupSlot | undefined } | null {
  const open = daysWithPlaces(days)
  const day = open.find((d) => d.date === date) ?? open[0]
  if (!day) return null
  const free = day.slots.filter((s) => s.remaining > 0)
  const kept = free.find((s) => s.slot === slot)
  return { date: day.date, slot: (kept ?? free[0])?.slot }
}

/** The orders counter cash may be booked for: unpaid (pending, or a won lot overdue). */
export function bookableOrders(orders: readonly Order[]): Order[] {
  return orders.filter((order) => UNPAID_STATUSES.includes(order.status))
}

/** A booking may be called off while it is booked and its day has not come (China time). */
export function bookingCancellable(
  booking: Pick<Booking, 'status' | 'date'>,
  now: number,
): boolean {
  return booking.status === 'booked' && booking.date > chinaDate(now)
}
