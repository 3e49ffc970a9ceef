import type { Kysely } from 'kysely'
import type { DB } from '../../platform/schema'

/** One order's item as the counter and the packing table need it, keyed by its shipment or booking. */
export interface PickItemRow {
  owner_id: number
  order_id: number
  kind: string
  quantity: number
  lot_id: number | null
  lot_no: number | null
  lot_title: string | null
  special_title: string | null
  product_no: string | null
  mall_title: string | null
  lot_grade: number | null
  lot_grading_service: string | null
  lot_cert_no: string | null
  mall_grade: number | null
  mall_grading_service: string | null
  mall_cert_no: string | null
  lot_images: string | null
  mall_images: string | null
}

export interface FulfilmentShipmentRow {
  id: number
  user_id: number
  status: string
  method: string
  address: string | null
  pickup_date: string | null
  pickup_slot: string | null
  insured: number
  declared_value: number
  carrier: string | null
  tracking_no: string | null
  applied_at: number
  shipped_at: number | null
  completed_at: number | null
  display: string
  mobile: string
}

export interface FulfilmentBookingRow {
  id: number
  user_id: number
  date: string
  slot: string
  status: string
  total: number
  display: string
  mobile: string
}

const SHIPMENT_COLUMNS = [
  'shipments.id',
  'shipments.user_id',
  'shipments.status',
  'shipments.method',
  'shipments.address',
  'shipments.pickup_date',
  'shipments.pickup_slot',
  'shipments.insured',
  'shipments.declared_value',
  'shipments.carrier',
  'shipments.tracking_no',
  'shipments.applied_at',
  'shipments.shipped_at',
  'shipments.completed_at',
  'users.display',
  'users.mobile',
] as const

const BOOKING_COLUMNS = [
  'bookings.id',
  'bookings.user_id',
  'bookings.date',
  'bookings.slot',
  'bookings.status',
  'bookings.total',
  'users.display',
  'users.mobile',
] as const

/**
 * The console's fulfilment reads (no writes: shipping and handing over are DeliveryService's,
 * closing and cancelling bookings BookingService's). Shipments and bookings with their buyers, and
 * every order's item with what tells it apart at the packing table — lot number, product number,
 * grade and certificate — read the same way on SQLite and PostgreSQL.
 */
export class FulfilmentRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Express shipments in a status, oldest application first (at most `limit`). */
  expressShipments(status: string, limit: number): Promise<FulfilmentShipmentRow[]> {
    return this.db
      .selectFrom('shipments')
      .innerJoin('users', 'users.id', 'shipments.user_id')
      .select(SHIPMENT_COLUMNS)
      .where('shipments.method', '=', 'express')
      .where('shipments.status', '=', status)
      .orderBy(status === 'shipped' ? 'shipments.shipped_at' : 'shipments.applied_at')
      .orderBy('shipments.id')
      .limit(limit)
      .execute()
  }

  /** Shipments by id (any method and status), in id order. */
  shipments(ids: readonly number[]): Promise<FulfilmentShipmentRow[]> {
    if (ids.length === 0) return Promise.resolve([])
    return this.db
      .selectFrom('shipments')
      .innerJoin('users', 'users.id', 'shipments.user_id')
      .select(SHIPMENT_COLUMNS)
      .where('shipments.id', 'in', [...ids])
      .orderBy('shipments.id')
      .execute()
  }

  /** The self-pickups booked for a day (every status), by slot then application. */
  pickupsOn(date: string): Promise<FulfilmentShipmentRow[]> {
    return this.db
      .selectFrom('shipments')
      .innerJoin('users', 'users.id', 'shipments.user_id')
      .select(SHIPMENT_COLUMNS)
      .where('shipments.method', '=', 'pickup')
      .where('shipments.pickup_date', '=', date)
      .orderBy('shipments.pickup_slot')
      .orderBy('shipments.applied_at')
      .orderBy('shipments.id')
      .execute()
  }

  /** The counter cash bookings for a day (every status), by slot then booking. */
  bookingsOn(date: string): Promise<FulfilmentBookingRow[]> {
    return this.db
      .selectFrom('bookings')
      .innerJoin('users', 'users.id', 'bookings.user_id')
      .select(BOOKING_COLUMNS)
      .where('bookings.date', '=', date)
      .orderBy('bookings.slot')
      .orderBy('bookings.id')
      .execute()
  }

  /** Places taken in each slot of a day, as the slot counts keep them. */
  async slotCounts(date: string): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('slot_counts')
      .select(['slot', 'booked'])
      .where('date', '=', date)
      .execute()
    return new Map(rows.map((r) => [r.slot, r.booked]))
  }

  /** The items of these shipments' orders (`owner_id` the shipment), in order id order. */
  shipmentItems(shipmentIds: readonly number[]): Promise<PickItemRow[]> {
    if (shipmentIds.length === 0) return Promise.resolve([])
    return this.itemQuery()
      .innerJoin('shipment_orders', 'shipment_orders.order_id', 'orders.id')
      .select('shipment_orders.shipment_id as owner_id')
      .where('shipment_orders.shipment_id', 'in', [...shipmentIds])
      .orderBy('orders.id')
      .execute()
  }

  /** The items of these bookings' orders (`owner_id` the booking), in order id order. */
  bookingItems(bookingIds: readonly number[]): Promise<PickItemRow[]> {
    if (bookingIds.length === 0) return Promise.resolve([])
    return this.itemQuery()
      .innerJoin('booking_orders', 'booking_orders.order_id', 'orders.id')
      .select('booking_orders.booking_id as owner_id')
      .where('booking_orders.booking_id', 'in', [...bookingIds])
      .orderBy('orders.id')
      .execute()
  }

  private itemQuery() {
    return this.db
      .selectFrom('orders')
      .leftJoin('lots', 'lots.id', 'orders.lot_id')
      .leftJoin('specials', 'specials.id', 'lots.special_id')
      .leftJoin('mall_items', 'mall_items.id', 'orders.mall_item_id')
      .select([
        'orders.id as order_id',
        'orders.kind',
        'orders.quantity',
        'orders.lot_id',
        'lots.lot_no',
        'lots.title as lot_title',
        'specials.title as special_title',
        'mall_items.product_no',
        'mall_items.title as mall_title',
        'lots.grade_code as lot_grade',
        'lots.grading_service as lot_grading_service',
        'lots.cert_no as lot_cert_no',
        'mall_items.grade_code as mall_grade',
        'mall_items.grading_service as mall_grading_service',
        'mall_items.cert_no as mall_cert_no',
        'lots.images as lot_images',
        'mall_items.images as mall_images',
      ])
  }
}
