import { gradeName, hasGrade } from '@numisma/contracts/grades'
import { PICKUP_SLOTS, type PickupSlot, type ShipmentAddress } from '@numisma/contracts/delivery'
import {
  type CounterDay,
  type FulfilmentShipment,
  type FulfilmentShipmentsQuery,
  maskMobile,
  type PickItem,
  type PickList,
  type PickListQuery,
  type PickSheet,
} from '@numisma/contracts/staff-fulfilment'
import { chinaDate, DEFAULT_PICKUP_RULES, type PickupRules } from '@numisma/domain/delivery'
import { BOOKING_STATUSES, SHIPMENT_STATUSES } from '@numisma/contracts/delivery'
import type { Clock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import { parseImages } from '../catalog/mappers'
import type {
  FulfilmentBookingRow,
  FulfilmentRepository,
  FulfilmentShipmentRow,
  PickItemRow,
} from './staff-fulfilment-repository'

/** The house's name at the head of a pick list, until an operator setting says otherwise. */
export const DEFAULT_HOUSE_NAME = '泉藏拍卖'

/** What the shipments list answers with at most. */
const LIST_LIMIT = 200

export interface FulfilmentDeps {
  clock: Clock
  repo: Pick<FulfilmentRepository, keyof FulfilmentRepository>
  /** The counter's days, slots and capacity (the same rules pickups and bookings are taken by). */
  rules?: PickupRules
  house?: string
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString())

const slotOf = (value: string | null): PickupSlot | null =>
  PICKUP_SLOTS.find((s) => s === value) ?? null

const shipmentStatusOf = (value: string) => {
  const status = SHIPMENT_STATUSES.find((s) => s === value)
  if (!status) throw new Error(`shipment has an unknown status: ${value}`)
  return status
}

const bookingStatusOf = (value: string) => {
  const status = BOOKING_STATUSES.find((s) => s === value)
  if (!status) throw new Error(`booking has an unknown status: ${value}`)
  return status
}

function addressOf(json: string | null): ShipmentAddress | null {
  return json === null ? null : (JSON.parse(json) as ShipmentAddress)
}

/** An order's item with what tells it apart: a lot's number and special, a product number, grade. */
export function toPickItem(row: PickItemRow): PickItem {
  const lot = row.kind === 'auction'
  const grade = lot ? row.lot_grade : row.mall_grade
  return {
    orderId: row.order_id,
    title: (lot ? row.lot_title : row.mall_title) ?? '',
    lotId: lot ? row.lot_id : null,
    lotNo: lot ? row.lot_no : null,
    specialTitle: lot ? row.special_title : null,
    productNo: lot ? null : row.product_no,
    quantity: Math.max(1, row.quantity),
    grade: hasGrade(grade) ? gradeName(grade) : '',
    gradingService: (lot ? row.lot_grading_service : row.mall_grading_service) ?? null,
    certNo: ((lot ? row.lot_cert_no : row.mall_cert_no) ?? '') || null,
    image: parseImages((lot ? row.lot_images : row.mall_images) ?? '[]')[0] ?? '',
  }
}

function itemsBy(rows: readonly PickItemRow[]): Map<number, PickItem[]> {
  const byOwner = new Map<number, PickItem[]>()
  for (const row of rows) {
    const items = byOwner.get(row.owner_id) ?? []
    items.push(toPickItem(row))
    byOwner.set(row.owner_id, items)
  }
  return byOwner
}

const buyerOf = (row: { user_id: number; display: string; mobile: string }) => ({
  userId: row.user_id,
  display: row.display,
  mobile: row.mobile,
})

/** The weekday (0 Sunday) of a `YYYY-MM-DD` date. */
const weekdayOf = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay()

/**
 * The console's fulfilment reads (issue 12): express shipments with their items to pack, the
 * counter's day slot by slot — places taken as the slot counts keep them (pickups and cash
 * bookings together), each pickup and booking with its buyer and items — and pick lists, one sheet
 * per shipment or booking. Changes stay with DeliveryService (ship, hand over) and BookingService
 * (close, cancel).
 */
export class FulfilmentService {
  private readonly rules: PickupRules
  private readonly house: string

  constructor(private readonly deps: FulfilmentDeps) {
    this.rules = deps.rules ?? DEFAULT_PICKUP_RULES
    this.house = deps.house ?? DEFAULT_HOUSE_NAME
  }

  /** Staff `GET /admin/fulfilment/shipments?status=applied|shipped` (express). */
  async shipments(query: FulfilmentShipmentsQuery): Promise<FulfilmentShipment[]> {
    const { repo } = this.deps
    const rows = await repo.expressShipments(query.status, LIST_LIMIT)
    const items = itemsBy(await repo.shipmentItems(rows.map((r) => r.id)))
    return rows.map((row) => ({
      id: row.id,
      status: shipmentStatusOf(row.status),
      buyer: buyerOf(row),
      address: addressOf(row.address),
      items: items.get(row.id) ?? [],
      insured: row.insured === 1,
      declaredValue: row.declared_value,
      carrier: row.carrier,
      trackingNo: row.tracking_no,
      appliedAt: new Date(row.applied_at).toISOString(),
      shippedAt: iso(row.shipped_at),
    }))
  }

  /** Staff `GET /admin/fulfilment/pickups?date=`: the counter's day, slot by slot. */
  async counterDay(date: string): Promise<CounterDay> {
    const { repo } = this.deps
    const [pickups, bookings, counts] = await Promise.all([
      repo.pickupsOn(date),
      repo.bookingsOn(date),
      repo.slotCounts(date),
    ])
    const [pickupItems, bookingItems] = await Promise.all([
      repo.shipmentItems(pickups.map((p) => p.id)).then(itemsBy),
      repo.bookingItems(bookings.map((b) => b.id)).then(itemsBy),
    ])
    return {
      date,
      closed:
        this.rules.closedWeekdays.includes(weekdayOf(date)) ||
        this.rules.closedDates.includes(date),
      slots: PICKUP_SLOTS.map((slot) => ({
        slot,
        capacity: this.rules.capacityPerSlot,
        booked: counts.get(slot) ?? 0,
        pickups: pickups
          .filter((p) => p.pickup_slot === slot)
          .map((p) => ({
            shipmentId: p.id,
            status: shipmentStatusOf(p.status),
            buyer: buyerOf(p),
            items: pickupItems.get(p.id) ?? [],
            completedAt: iso(p.completed_at),
          })),
        bookings: bookings
          .filter((b) => b.slot === slot)
          .map((b) => ({
            bookingId: b.id,
            status: bookingStatusOf(b.status),
            buyer: buyerOf(b),
            items: bookingItems.get(b.id) ?? [],
            total: b.total,
          })),
      })),
    }
  }

  /**
   * Staff `GET /admin/fulfilment/pick-lists`: for a day (and slot), the pickups still to hand over
   * and the cash bookings still open, slot by slot; or the named shipments (NOT_FOUND names those
   * that do not exist).
   */
  async pickList(query: PickListQuery): Promise<PickList> {
    const { repo, clock } = this.deps
    const now = clock.now()
    const base = { house: this.house, generatedAt: new Date(now).toISOString() }
    if (query.shipmentIds !== undefined) {
      const rows = await repo.shipments(query.shipmentIds)
      const missing = query.shipmentIds.filter((id) => !rows.some((r) => r.id === id))
      if (missing.length > 0) throw new AppError('NOT_FOUND', { shipmentIds: missing })
      const items = itemsBy(await repo.shipmentItems(rows.map((r) => r.id)))
      return {
        ...base,
        date: chinaDate(now),
        slot: null,
        sheets: rows.map((row) => shipmentSheet(row, items.get(row.id) ?? [])),
      }
    }
    const date = query.date!
    const inSlot = (slot: string | null) => query.slot === undefined || slot === query.slot
    const [pickups, bookings] = await Promise.all([repo.pickupsOn(date), repo.bookingsOn(date)])
    const open = pickups.filter((p) => p.status === 'applied' && inSlot(p.pickup_slot))
    const booked = bookings.filter((b) => b.status === 'booked' && inSlot(b.slot))
    const [pickupItems, bookingItems] = await Promise.all([
      repo.shipmentItems(open.map((p) => p.id)).then(itemsBy),
      repo.bookingItems(booked.map((b) => b.id)).then(itemsBy),
    ])
    const sheets = PICKUP_SLOTS.flatMap((slot) => [
      ...open
        .filter((p) => p.pickup_slot === slot)
        .map((p) => shipmentSheet(p, pickupItems.get(p.id) ?? [])),
      ...booked
        .filter((b) => b.slot === slot)
        .map((b) => bookingSheet(b, bookingItems.get(b.id) ?? [])),
    ])
    return { ...base, date, slot: query.slot ?? null, sheets }
  }
}

function shipmentSheet(row: FulfilmentShipmentRow, items: PickItem[]): PickSheet {
  const address = addressOf(row.address)
  const express = row.method === 'express'
  return {
    kind: express ? 'express' : 'pickup',
    id: row.id,
    buyerDisplay: row.display,
    buyerMobile: maskMobile(row.mobile),
    address: address && { ...address, mobile: maskMobile(address.mobile) },
    insured: row.insured === 1,
    declaredValue: row.declared_value,
    date: express ? null : row.pickup_date,
    slot: express ? null : slotOf(row.pickup_slot),
    cash: null,
    items,
  }
}

function bookingSheet(row: FulfilmentBookingRow, items: PickItem[]): PickSheet {
  return {
    kind: 'booking',
    id: row.id,
    buyerDisplay: row.display,
    buyerMobile: maskMobile(row.mobile),
    address: null,
    insured: false,
    declaredValue: null,
    date: row.date,
    slot: slotOf(row.slot),
    cash: row.total,
    items,
  }
}
