import {
  BookingCompletedSchema,
  ShipmentChangedSchema,
  StaffBookingSchema,
  type BookingCompleted,
  type ShipmentChanged,
  type ShipmentShip,
  type StaffBooking,
} from '@numisma/contracts/delivery'
import {
  CounterDaySchema,
  FulfilmentShipmentSchema,
  PickListSchema,
  type CounterDay,
  type FulfilmentShipment,
  type FulfilmentShipmentsQuery,
  type PickList,
} from '@numisma/contracts/staff-fulfilment'
import { randomUuid } from '@numisma/contracts/signing'
import { HEADER } from '@numisma/contracts/signing'
import { z } from 'zod'
import { staffRequest } from '../staff-api'

export function getShipments(
  status: FulfilmentShipmentsQuery['status'],
): Promise<FulfilmentShipment[]> {
  return staffRequest('/fulfilment/shipments', z.array(FulfilmentShipmentSchema), {
    query: { status },
  })
}

export function shipShipment(id: number, details: ShipmentShip): Promise<ShipmentChanged> {
  return staffRequest(`/shipments/${id}/ship`, ShipmentChangedSchema, {
    method: 'POST',
    body: details,
  })
}

export function handOverPickup(id: number): Promise<ShipmentChanged> {
  return staffRequest(`/shipments/${id}/complete`, ShipmentChangedSchema, { method: 'POST' })
}

export function getCounterDay(date: string): Promise<CounterDay> {
  return staffRequest('/fulfilment/pickups', CounterDaySchema, { query: { date } })
}

/** Cash taken: one key per click, so a retried request closes the booking once. */
export function completeBooking(
  id: number,
  idempotencyKey = randomUuid(),
): Promise<BookingCompleted> {
  return staffRequest(`/bookings/${id}/complete`, BookingCompletedSchema, {
    method: 'POST',
    headers: { [HEADER.idempotencyKey]: idempotencyKey },
  })
}

export function cancelBooking(id: number): Promise<StaffBooking> {
  return staffRequest(`/bookings/${id}/cancel`, StaffBookingSchema, { method: 'POST' })
}

export type PickListRequest =
  { date: string; slot?: string | undefined } | { shipmentIds: readonly number[] }

export function getPickList(request: PickListRequest): Promise<PickList> {
  const query =
    'shipmentIds' in request
      ? { shipmentIds: request.shipmentIds.join(',') }
      : { date: request.date, slot: request.slot }
  return staffRequest('/fulfilment/pick-lists', PickListSchema, { query })
}
