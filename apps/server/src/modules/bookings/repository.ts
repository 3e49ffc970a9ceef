import type { Kysely } from 'kysely'
import type { Dialect } from '../../platform/db'
import type { BookingsTable, DB } from '../../platform/schema'
import type { Tx } from '../../platform/transactions'

/** An order as booking judges it, read under its row lock. */
export interface BookableOrderRow {
  id: number
  user_id: number
  kind: string
  status: string
  due_at: number | null
  pay_method: string | null
  total: number
}

export type BookingRow = Omit<BookingsTable, 'id'> & { id: number }

/** A booking's order with what it is for, to show the booking's items. */
export interface BookingOrderItemRow {
  booking_id: number
  order_id: number
  kind: string
  lot_id: number | null
  quantity: number
  amount: number
  lot_title: string | null
  lot_images: string | null
  product_no: string | null
  mall_title: string | null
  mall_images: string | null
}

export interface NewBooking {
  userId: number
  date: string
  slot: string
  total: number
  orderIds: readonly number[]
  now: number
}

const BOOKING_COLUMNS = [
  'id',
  'user_id',
  'date',
  'slot',
  'status',
  'total',
  'transfer_id',
  'created_at',
  'completed_at',
] as const

/**
 * The SQL of counter cash bookings. Methods taking `tx` run in the caller's write transaction; on
 * PostgreSQL the row locks they take (the orders a booking names, the booking itself) are what
 * make a booking, a close or a cancel happen exactly once. The others are reads outside any.
 */
export class BookingsRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Locks the orders among `orderIds` (in id order, as paying takes them, so the two cannot
   * deadlock); ids that do not exist are absent. Whose they are is the caller's check.
   */
  async lockOrders(tx: Tx, orderIds: readonly number[]): Promise<BookableOrderRow[]> {
    if (orderIds.length === 0) return []
    let query = tx
      .selectFrom('orders')
      .select(['id', 'user_id', 'kind', 'status', 'due_at', 'pay_method', 'total'])
      .where('id', 'in', [...orderIds])
      .orderBy('id')
    if (this.dialect === 'postgres') query = query.forUpdate()
    return query.execute()
  }

  /**
   * Serialises one buyer's bookings on PostgreSQL (SQLite's BEGIN IMMEDIATE already does), so two
   * bookings made at once cannot each see the other's place under the cap still free. FOR NO KEY
   * UPDATE leaves inserts that merely reference the user unblocked. Taken after the orders' locks.
   */
  async lockOwner(tx: Tx, userId: number): Promise<void> {
    if (this.dialect !== 'postgres') return
    await tx.selectFrom('users').select('id').where('id', '=', userId).forNoKeyUpdate().execute()
  }

  /** How many open bookings the user holds, and how many of them are for `date`. */
  async openCounts(tx: Tx, userId: number, date: string): Promise<{ all: number; onDay: number }> {
    const rows = await tx
      .selectFrom('bookings')
      .select('date')
      .where('user_id', '=', userId)
      .where('status', '=', 'booked')
      .execute()
    return { all: rows.length, onDay: rows.filter((r) => r.date === date).length }
  }

  async insertBooking(tx: Tx, booking: NewBooking): Promise<number> {
    const { id } = await tx
      .insertInto('bookings')
      .values({
        user_id: booking.userId,
        date: booking.date,
        slot: booking.slot,
        status: 'booked',
        total: booking.total,
        transfer_id: null,
        created_at: booking.now,
        completed_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await tx
      .insertInto('booking_orders')
      .values(booking.orderIds.map((orderId) => ({ booking_id: id, order_id: orderId })))
      .execute()
    return id
  }

  /**
   * Locks up to `limit` open bookings whose day ended before `today` (China time), oldest first;
   * on PostgreSQL one another instance (or staff) holds is passed by (`SKIP LOCKED`).
   */
  async lockEnded(tx: Tx, today: string, limit: number): Promise<BookingRow[]> {
    let query = tx
      .selectFrom('bookings')
      .select(BOOKING_COLUMNS)
      .where('status', '=', 'booked')
      .where('date', '<', today)
      .orderBy('id')
      .limit(limit)
    if (this.dialect === 'postgres') query = query.forUpdate().skipLocked()
    return query.execute()
  }

  /** Locks one booking for a close or a cancel. */
  async lockBooking(tx: Tx, id: number): Promise<BookingRow | undefined> {
    let query = tx.selectFrom('bookings').select(BOOKING_COLUMNS).where('id', '=', id)
    if (this.dialect === 'postgres') query = query.forUpdate()
    return query.executeTakeFirst()
  }

  async orderIdsOf(tx: Tx, bookingId: number): Promise<number[]> {
    const rows = await tx
      .selectFrom('booking_orders')
      .select('order_id')
      .where('booking_id', '=', bookingId)
      .orderBy('order_id')
      .execute()
    return rows.map((r) => r.order_id)
  }

  /**
   * Closes an open booking: `completed` with the cash's transfer and the amount taken, or
   * `cancelled`. False when it was no longer open (nothing changed).
   */
  async decide(
    tx: Tx,
    id: number,
    decision:
      | { status: 'completed'; transferId: number | null; total: number; now: number }
      | { status: 'cancelled' },
  ): Promise<boolean> {
    const result = await tx
      .updateTable('bookings')
      .set(
        decision.status === 'completed'
          ? {
              status: 'completed',
              transfer_id: decision.transferId,
              total: decision.total,
              completed_at: decision.now,
            }
          : { status: 'cancelled' },
      )
      .where('id', '=', id)
      .where('status', '=', 'booked')
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }

  /**
   * The goods of orders just paid at the counter are handed over: `paid` → `completed`. Returns
   * how many moved.
   */
  async handOver(tx: Tx, orderIds: readonly number[]): Promise<number> {
    if (orderIds.length === 0) return 0
    const result = await tx
      .updateTable('orders')
      .set({ status: 'completed' })
      .where('id', 'in', [...orderIds])
      .where('status', '=', 'paid')
      .executeTakeFirst()
    return Number(result.numUpdatedRows)
  }

  async booking(tx: Tx, id: number): Promise<BookingRow | undefined> {
    return tx.selectFrom('bookings').select(BOOKING_COLUMNS).where('id', '=', id).executeTakeFirst()
  }

  /** One page of the user's bookings, newest first, and how many they have. */
  async pageOf(
    userId: number,
    page: { offset: number; limit: number },
  ): Promise<{ rows: BookingRow[]; total: number }> {
    const mine = this.db.selectFrom('bookings').where('user_id', '=', userId)
    const [rows, count] = await Promise.all([
      mine
        .select(BOOKING_COLUMNS)
        .orderBy('id', 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute(),
      mine.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst(),
    ])
    return { rows, total: Number(count?.n ?? 0) }
  }

  /** The counter's list: bookings on a day (and of a status), soonest slot first, with whose. */
  staffList(filter: { date?: string; status?: string; limit: number }) {
    let query = this.db
      .selectFrom('bookings')
      .innerJoin('users', 'users.id', 'bookings.user_id')
      .select([
        'bookings.id',
        'bookings.user_id',
        'bookings.date',
        'bookings.slot',
        'bookings.status',
        'bookings.total',
        'bookings.transfer_id',
        'bookings.created_at',
        'bookings.completed_at',
        'users.display',
        'users.mobile',
      ])
    if (filter.date !== undefined) query = query.where('bookings.date', '=', filter.date)
    if (filter.status !== undefined) query = query.where('bookings.status', '=', filter.status)
    return query
      .orderBy('bookings.date')
      .orderBy('bookings.slot')
      .orderBy('bookings.id')
      .limit(filter.limit)
      .execute()
  }

  /** Who a booking is for, for the counter's answer. */
  async userOf(tx: Tx, userId: number): Promise<{ display: string; mobile: string }> {
    return tx
      .selectFrom('users')
      .select(['display', 'mobile'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow()
  }

  /** The orders of these bookings with what each is for, in order id order. */
  async itemsOf(tx: Tx, bookingIds: readonly number[]): Promise<BookingOrderItemRow[]> {
    if (bookingIds.length === 0) return []
    return tx
      .selectFrom('booking_orders')
      .innerJoin('orders', 'orders.id', 'booking_orders.order_id')
      .leftJoin('lots', 'lots.id', 'orders.lot_id')
      .leftJoin('mall_items', 'mall_items.id', 'orders.mall_item_id')
      .select([
        'booking_orders.booking_id',
        'booking_orders.order_id',
        'orders.kind',
        'orders.lot_id',
        'orders.quantity',
        'orders.amount',
        'lots.title as lot_title',
        'lots.images as lot_images',
        'mall_items.product_no',
        'mall_items.title as mall_title',
        'mall_items.images as mall_images',
      ])
      .where('booking_orders.booking_id', 'in', [...bookingIds])
      .orderBy('booking_orders.order_id')
      .execute()
  }

  /** The reads' connection, for reads outside a transaction. */
  get reader(): Tx {
    return this.db
  }
}
