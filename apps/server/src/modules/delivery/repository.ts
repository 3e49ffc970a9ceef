import type { Kysely } from 'kysely'
import type { Dialect } from '../../platform/db'
import type { DB } from '../../platform/schema'
import type { Tx } from '../../platform/transactions'
import { ORDER_ROW_COLUMNS } from '../orders/order-columns'

/** An order as applying for delivery judges it, read under its row lock. */
export interface LockedOrder {
  id: number
  userId: number
  kind: string
  status: string
  quantity: number
  total: number
  dueAt: number | null
  paidAt: number | null
}

export interface ShipmentRow {
  id: number
  user_id: number
  method: string
  status: string
  address: string | null
  country_id: string | null
  pickup_date: string | null
  pickup_slot: string | null
  insured: number
  declared_value: number
  shipping_fee: number
  insurance_fee: number
  storage_fee: number
  total: number
  transfer_id: number | null
  carrier: string | null
  tracking_no: string | null
  applied_at: number
  shipped_at: number | null
  completed_at: number | null
  auto_complete_at: number | null
}

export interface NewShipment {
  userId: number
  method: 'express' | 'pickup'
  address: string | null
  countryId: string | null
  pickupDate: string | null
  pickupSlot: string | null
  insured: boolean
  declaredValue: number
  shippingFee: number
  insuranceFee: number
  storageFee: number
  total: number
  transferId: number | null
  now: number
}

const SHIPMENT_COLUMNS = [
  'shipments.id',
  'shipments.user_id',
  'shipments.method',
  'shipments.status',
  'shipments.address',
  'shipments.country_id',
  'shipments.pickup_date',
  'shipments.pickup_slot',
  'shipments.insured',
  'shipments.declared_value',
  'shipments.shipping_fee',
  'shipments.insurance_fee',
  'shipments.storage_fee',
  'shipments.total',
  'shipments.transfer_id',
  'shipments.carrier',
  'shipments.tracking_no',
  'shipments.applied_at',
  'shipments.shipped_at',
  'shipments.completed_at',
  'shipments.auto_complete_at',
] as const

/**
 * The SQL of shipments and what they do to their orders. Methods taking `tx` run in the caller's
 * write transaction; on PostgreSQL the row locks they take (orders for an application, the
 * shipment for staff and the buyer, `SKIP LOCKED` for the completion job) are what serialise
 * concurrent callers, and every status change is conditional on the status read, so a shipment or
 * an order changes once however many ask. Locks are taken orders → ledger → slot for an
 * application and shipment → orders afterwards; an application never locks a shipment.
 */
export class DeliveryRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  /** The orders, locked for update in id order (the order payments lock them in). */
  async lockOrders(tx: Tx, orderIds: readonly number[]): Promise<LockedOrder[]> {
    if (orderIds.length === 0) return []
    let query = tx
      .selectFrom('orders')
      .select(['id', 'user_id', 'kind', 'status', 'quantity', 'total', 'due_at', 'paid_at'])
      .where('id', 'in', [...orderIds])
      .orderBy('id')
    if (this.dialect === 'postgres') query = query.forUpdate()
    const rows = await query.execute()
    return rows.map((r) => ({
      id: r.id,
      userId: r.user_id,
      kind: r.kind,
      status: r.status,
      quantity: r.quantity,
      total: r.total,
      dueAt: r.due_at,
      paidAt: r.paid_at,
    }))
  }

  /** The orders holding an item that may not leave the mainland (lots' and mall items' flag). */
  async exportBanned(tx: Tx, orderIds: readonly number[]): Promise<Set<number>> {
    if (orderIds.length === 0) return new Set()
    const rows = await tx
      .selectFrom('orders')
      .leftJoin('lots', 'lots.id', 'orders.lot_id')
      .leftJoin('mall_items', 'mall_items.id', 'orders.mall_item_id')
      .select('orders.id')
      .where('orders.id', 'in', [...orderIds])
      .where((eb) =>
        eb.or([eb('lots.export_banned', '=', 1), eb('mall_items.export_banned', '=', 1)]),
      )
      .execute()
    return new Set(rows.map((r) => r.id))
  }

  /** Moves the orders from `from` to `to`; returns how many moved (the caller checks all did). */
  async setOrderStatus(
    tx: Tx,
    orderIds: readonly number[],
    from: string,
    to: string,
  ): Promise<number> {
    if (orderIds.length === 0) return 0
    const updated = await tx
      .updateTable('orders')
      .set({ status: to })
      .where('id', 'in', [...orderIds])
      .where('status', '=', from)
      .executeTakeFirst()
    return Number(updated.numUpdatedRows)
  }

  async insertShipment(tx: Tx, shipment: NewShipment, orderIds: readonly number[]) {
    const { id } = await tx
      .insertInto('shipments')
      .values({
        user_id: shipment.userId,
        method: shipment.method,
        status: 'applied',
        address: shipment.address,
        country_id: shipment.countryId,
        pickup_date: shipment.pickupDate,
        pickup_slot: shipment.pickupSlot,
        insured: shipment.insured ? 1 : 0,
        declared_value: shipment.declaredValue,
        shipping_fee: shipment.shippingFee,
        insurance_fee: shipment.insuranceFee,
        storage_fee: shipment.storageFee,
        total: shipment.total,
        transfer_id: shipment.transferId,
        carrier: null,
        tracking_no: null,
        applied_at: shipment.now,
        shipped_at: null,
        completed_at: null,
        auto_complete_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await tx
      .insertInto('shipment_orders')
      .values(orderIds.map((orderId) => ({ shipment_id: id, order_id: orderId })))
      .execute()
    return id
  }

  async setTransfer(tx: Tx, shipmentId: number, transferId: number): Promise<void> {
    await tx
      .updateTable('shipments')
      .set({ transfer_id: transferId })
      .where('id', '=', shipmentId)
      .execute()
  }

  /** A shipment read for update (staff and the buyer serialise on it). */
  async lockShipment(tx: Tx, shipmentId: number): Promise<ShipmentRow | undefined> {
    let query = tx.selectFrom('shipments').select(SHIPMENT_COLUMNS).where('id', '=', shipmentId)
    if (this.dialect === 'postgres') query = query.forUpdate()
    return query.executeTakeFirst()
  }

  /**
   * Shipped shipments past their completion time, locked; `SKIP LOCKED` on PostgreSQL lets another
   * instance's run, or a buyer confirming, pass by.
   */
  async lockDue(tx: Tx, now: number, limit: number): Promise<ShipmentRow[]> {
    let query = tx
      .selectFrom('shipments')
      .select(SHIPMENT_COLUMNS)
      .where('status', '=', 'shipped')
      .where('auto_complete_at', '<=', now)
      .orderBy('auto_complete_at')
      .orderBy('id')
      .limit(limit)
    if (this.dialect === 'postgres') query = query.forUpdate().skipLocked()
    return query.execute()
  }

  /** Express `applied` → `shipped` with the courier's details; false when it was not applied. */
  async markShipped(
    tx: Tx,
    shipmentId: number,
    shipped: { carrier: string; trackingNo: string; now: number; autoCompleteAt: number },
  ): Promise<boolean> {
    const updated = await tx
      .updateTable('shipments')
      .set({
        status: 'shipped',
        carrier: shipped.carrier,
        tracking_no: shipped.trackingNo,
        shipped_at: shipped.now,
        auto_complete_at: shipped.autoCompleteAt,
      })
      .where('id', '=', shipmentId)
      .where('status', '=', 'applied')
      .where('method', '=', 'express')
      .executeTakeFirst()
    return updated.numUpdatedRows === 1n
  }

  /** `from` → `completed`; false when the shipment was no longer `from`. */
  async markCompleted(tx: Tx, shipmentId: number, from: string, now: number): Promise<boolean> {
    const updated = await tx
      .updateTable('shipments')
      .set({ status: 'completed', completed_at: now })
      .where('id', '=', shipmentId)
      .where('status', '=', from)
      .executeTakeFirst()
    return updated.numUpdatedRows === 1n
  }

  async orderIdsOf(tx: Tx, shipmentIds: readonly number[]): Promise<Map<number, number[]>> {
    const byShipment = new Map<number, number[]>()
    if (shipmentIds.length === 0) return byShipment
    const rows = await tx
      .selectFrom('shipment_orders')
      .select(['shipment_id', 'order_id'])
      .where('shipment_id', 'in', [...shipmentIds])
      .orderBy('order_id')
      .execute()
    for (const row of rows) {
      const ids = byShipment.get(row.shipment_id) ?? []
      ids.push(row.order_id)
      byShipment.set(row.shipment_id, ids)
    }
    return byShipment
  }

  // Reads outside the write transactions.

  shipment(shipmentId: number): Promise<ShipmentRow | undefined> {
    return this.db
      .selectFrom('shipments')
      .select(SHIPMENT_COLUMNS)
      .where('id', '=', shipmentId)
      .executeTakeFirst()
  }

  /** One page of the user's shipments in these statuses, newest first, and how many in all. */
  async shipmentsOf(
    userId: number,
    statuses: readonly string[],
    page: { offset: number; limit: number },
  ): Promise<{ rows: ShipmentRow[]; total: number }> {
    const mine = this.db
      .selectFrom('shipments')
      .where('user_id', '=', userId)
      .where('status', 'in', [...statuses])
    const [rows, total] = await Promise.all([
      mine
        .select(SHIPMENT_COLUMNS)
        .orderBy('applied_at', 'desc')
        .orderBy('id', 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute(),
      mine.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst(),
    ])
    return { rows, total: Number(total?.n ?? 0) }
  }

  /** Shipments for staff, oldest application first (at most `limit`), with their buyers. */
  staffShipments(filter: { status?: string; method?: string }, limit: number) {
    let query = this.db
      .selectFrom('shipments')
      .innerJoin('users', 'users.id', 'shipments.user_id')
      .select([...SHIPMENT_COLUMNS, 'users.display', 'users.mobile'])
      .orderBy('shipments.applied_at')
      .orderBy('shipments.id')
      .limit(limit)
    if (filter.status !== undefined) query = query.where('shipments.status', '=', filter.status)
    if (filter.method !== undefined) query = query.where('shipments.method', '=', filter.method)
    return query.execute()
  }

  /** The user's paid orders in storage (status `paid`), oldest payment first. */
  async storedOrderIds(userId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('orders')
      .select('id')
      .where('user_id', '=', userId)
      .where('status', '=', 'paid')
      .orderBy('paid_at')
      .orderBy('id')
      .execute()
    return rows.map((r) => r.id)
  }

  /** Orders with what they are for, in the shape modules/orders' `toOrder` maps. */
  async orderRows(orderIds: readonly number[]) {
    if (orderIds.length === 0) return []
    return this.db
      .selectFrom('orders')
      .leftJoin('lots', 'lots.id', 'orders.lot_id')
      .leftJoin('mall_items', 'mall_items.id', 'orders.mall_item_id')
      .select([
        ...ORDER_ROW_COLUMNS,
        'lots.export_banned as lot_export_banned',
        'mall_items.export_banned as mall_export_banned',
      ])
      .where('orders.id', 'in', [...orderIds])
      .orderBy('orders.id')
      .execute()
  }
}

export type DeliveryOrderRow = Awaited<ReturnType<DeliveryRepository['orderRows']>>[number]
