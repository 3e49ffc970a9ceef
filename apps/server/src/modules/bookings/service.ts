import type {
  BookingApplied,
  BookingApply,
  Booking,
  BookingCompleted,
  BookingsPage,
  StaffBooking,
  StaffBookingsQuery,
} from '@numisma/contracts/delivery'
import { ORDER_KINDS, ORDER_STATUSES } from '@numisma/contracts/orders'
import {
  chinaDate,
  DEFAULT_PICKUP_RULES,
  type PickupRules,
  slotRefusal,
} from '@numisma/domain/delivery'
import { type OrderEvent, type OrderFacts, transition } from '@numisma/domain/order-status'
import { creditBalance, type Leg } from '@numisma/domain/postings'
import type { Clock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import { type IdempotencyStore, requestHash } from '../../platform/idempotency'
import type { Transact, Tx } from '../../platform/transactions'
import type { OrderSettlement } from '../payments/ports'
import { ordersBookedAtCounter } from './booked-orders'
import { toBooking, toStaffBooking } from './mappers'
import type { BookableOrderRow, BookingRow, BookingsRepository } from './repository'

/**
 * The counter's appointment places, shared with self-pickups (modules/delivery's slot counts,
 * passed in through app.ts): `claim` takes one in the caller's transaction when fewer than
 * `capacity` are taken (false: full), `release` gives one back.
 */
export interface SlotPlaces {
  claim(tx: Tx, date: string, slot: string, capacity: number): Promise<boolean>
  release(tx: Tx, date: string, slot: string): Promise<void>
}

/** Which of these orders a remittance notice waiting for staff names (modules/finance). */
export type AwaitingRemittance = (tx: Tx, orderIds: readonly number[]) => Promise<Set<number>>

/**
 * Which of these orders wait for a messaging-app payment their buyer may still pay at the platform
 * (modules/payments' `ordersWithOpenWechatPayment`, through app.ts). Called under the orders'
 * locks with the clock read after them.
 */
export type OpenOnlinePayments = (
  tx: Tx,
  orderIds: readonly number[],
  now: number,
) => Promise<Set<number>>

export interface BookingDeps {
  transact: Transact
  clock: Clock
  bookings: BookingsRepository
  ledger: {
    post(
      tx: Tx,
      userId: number,
      transfer: { kind: string; memo: string; now: number },
      legs: readonly Leg[],
    ): Promise<number>
  }
  /** Pays orders from the balance inside our transaction (payments' own path). */
  settlement: OrderSettlement
  slots: SlotPlaces
  awaitingRemittance: AwaitingRemittance
  /** Cash at the counter for an order its buyer may still pay online would pay it twice. */
  paymentOpen: OpenOnlinePayments
  idempotency: Pick<IdempotencyStore, 'claim' | 'complete'>
  /** The counter's days, slots and capacity (operator settings; the defaults otherwise). */
  rules?: PickupRules
}

/** Who asks for a staff decision: staff keys live apart from users' (negative owner ids). */
export interface StaffActor {
  idempotencyOwner: number
  idempotencyKey?: string
}

/**
 * How many open bookings one buyer may hold: one visit a day, three days in all. A booking takes
 * a place the self-pickups share, and an unpaid order costs nothing to hold, so without a cap one
 * account could fill every slot of the two weeks.
 */
export const MAX_OPEN_BOOKINGS = 3
export const MAX_OPEN_BOOKINGS_PER_DAY = 1

/** The most bookings the counter's list answers with at once. */
const STAFF_LIST_LIMIT = 500

/** An order row as the state machine sees it; null when its kind or status is not one we know. */
function factsOf(order: BookableOrderRow, paidOffline: boolean): OrderFacts | null {
  const kind = ORDER_KINDS.find((k) => k === order.kind)
  const status = ORDER_STATUSES.find((s) => s === order.status)
  if (!kind || !status) return null
  return { kind, status, dueAt: order.due_at, shippedAt: null, deliveryMethod: null, paidOffline }
}

const allowed = (order: BookableOrderRow, event: OrderEvent, paidOffline: boolean, now: number) => {
  const facts = factsOf(order, paidOffline)
  return facts !== null && transition(facts, event, now).ok
}

const totalOf = (orders: readonly { total: number }[]) => orders.reduce((s, o) => s + o.total, 0)

/**
 * Counter cash bookings (DESIGN §6 "pay cash at the counter, then pick up"; spec §7
 * `bookingApply`, `queryBookingList`). A buyer books a day and slot at the counter for their unpaid
 * orders; the orders keep their status, and while the booking is open they count as paid offline
 * (`ordersBookedAtCounter`), so no job expires, marks or forfeits them. Staff close it when the
 * buyer pays and takes the goods: the cash goes onto the buyer's balance from the clearing account
 * and pays the orders through payments' own settlement, and the goods are handed over — one
 * transaction. Every write locks its rows first (orders in id order, or the booking then its
 * orders), reads the clock after, and claims an `Idempotency-Key` after that.
 */
export class BookingService {
  private readonly rules: PickupRules

  constructor(private readonly deps: BookingDeps) {
    this.rules = deps.rules ?? DEFAULT_PICKUP_RULES
  }

  /** `POST /user/booking/bookingApply`. */
  apply(
    userId: number,
    request: BookingApply,
    options: { idempotencyKey?: string | undefined },
  ): Promise<BookingApplied> {
    const { transact, clock, bookings, idempotency } = this.deps
    const key = options.idempotencyKey
    return transact(async (tx) => {
      const orders = await bookings.lockOrders(tx, request.orderIds)
      // Then the buyer: their bookings are counted against the cap one at a time.
      await bookings.lockOwner(tx, userId)
      const now = clock.now()
      if (key) {
        const claim = await idempotency.claim<BookingApplied>(
          tx,
          userId,
          key,
          requestHash({ booking: request.orderIds, date: request.date, slot: request.slot }),
          now,
        )
        if (claim.kind === 'replay') return claim.result
      }
      const mine = new Set(orders.filter((o) => o.user_id === userId).map((o) => o.id))
      const unknown = request.orderIds.filter((id) => !mine.has(id))
      if (unknown.length > 0) throw new AppError('NOT_FOUND', { orderIds: unknown })
      // Under the orders' locks: a booking or a notice naming them commits before us or after.
      const booked = await ordersBookedAtCounter(tx, request.orderIds)
      const awaited = await this.deps.awaitingRemittance(tx, request.orderIds)
      // A payment sheet the buyer may still pay: cash at the counter would pay the order twice.
      const paying = await this.deps.paymentOpen(tx, request.orderIds, now)
      const refused = orders
        .filter(
          (o) =>
            booked.has(o.id) ||
            awaited.has(o.id) ||
            paying.has(o.id) ||
            !allowed(o, 'bookCounter', false, now),
        )
        .map((o) => o.id)
      if (refused.length > 0) throw new AppError('ORDER_NOT_BOOKABLE', { orderIds: refused })
      const unavailable = slotRefusal(request.date, request.slot, 0, now, this.rules)
      if (unavailable) throw new AppError(unavailable, { date: request.date, slot: request.slot })
      const open = await bookings.openCounts(tx, userId, request.date)
      if (open.all >= MAX_OPEN_BOOKINGS || open.onDay >= MAX_OPEN_BOOKINGS_PER_DAY) {
        throw new AppError('BOOKING_LIMIT', {
          open: open.all,
          openOnDay: open.onDay,
          max: MAX_OPEN_BOOKINGS,
          maxPerDay: MAX_OPEN_BOOKINGS_PER_DAY,
        })
      }
      const claimed = await this.deps.slots.claim(
        tx,
        request.date,
        request.slot,
        this.rules.capacityPerSlot,
      )
      if (!claimed) throw new AppError('SLOT_FULL', { date: request.date, slot: request.slot })
      const bookingId = await bookings.insertBooking(tx, {
        userId,
        date: request.date,
        slot: request.slot,
        total: totalOf(orders),
        orderIds: request.orderIds,
        now,
      })
      const result: BookingApplied = { bookingId }
      if (key) await idempotency.complete(tx, userId, key, result)
      return result
    })
  }

  /** `GET /user/booking/queryBookingList`: the caller's bookings, newest first. */
  async list(userId: number, page: { page: number; pageSize: number }): Promise<BookingsPage> {
    const { bookings } = this.deps
    const { rows, total } = await bookings.pageOf(userId, {
      offset: (page.page - 1) * page.pageSize,
      limit: page.pageSize,
    })
    const items = await bookings.itemsOf(
      bookings.reader,
      rows.map((r) => r.id),
    )
    return {
      data: rows.map((row) => toBooking(row, items)),
      page: page.page,
      pageSize: page.pageSize,
      total,
    }
  }

  /**
   * The buyer calls the visit off before its day: the slot's place and the orders are free again
   * (the orders' own clocks run on). On the day or after, the counter decides
   * (BOOKING_NOT_CANCELLABLE); another user's booking is NOT_FOUND.
   */
  cancel(userId: number, bookingId: number): Promise<Booking> {
    const { transact, clock, bookings } = this.deps
    return transact(async (tx) => {
      const booking = await bookings.lockBooking(tx, bookingId)
      if (!booking || booking.user_id !== userId) throw new AppError('NOT_FOUND', { bookingId })
      const now = clock.now()
      if (booking.status !== 'booked') throw new AppError('NOT_PENDING', { status: booking.status })
      if (chinaDate(now) >= booking.date) {
        throw new AppError('BOOKING_NOT_CANCELLABLE', { date: booking.date })
      }
      const cancelled = await this.cancelIn(tx, booking)
      return toBooking(cancelled, await bookings.itemsOf(tx, [bookingId]))
    })
  }

  /** Staff `GET /admin/bookings?date=&status=`: the counter's day. */
  async staffList(query: StaffBookingsQuery): Promise<StaffBooking[]> {
    const { bookings } = this.deps
    const rows = await bookings.staffList({ ...query, limit: STAFF_LIST_LIMIT })
    const items = await bookings.itemsOf(
      bookings.reader,
      rows.map((r) => r.id),
    )
    return rows.map((row) => toStaffBooking(row, items))
  }

  /** Staff: the buyer did not come (or asked the counter to cancel). NOT_PENDING once decided. */
  staffCancel(bookingId: number): Promise<StaffBooking> {
    const { transact, bookings } = this.deps
    return transact(async (tx) => {
      const booking = await bookings.lockBooking(tx, bookingId)
      if (!booking) throw new AppError('NOT_FOUND', { bookingId })
      if (booking.status !== 'booked') throw new AppError('NOT_PENDING', { status: booking.status })
      const cancelled = await this.cancelIn(tx, booking)
      return toStaffBooking(
        { ...cancelled, ...(await bookings.userOf(tx, booking.user_id)) },
        await bookings.itemsOf(tx, [bookingId]),
      )
    })
  }

  /**
   * Staff `POST /admin/bookings/{id}/complete`: the buyer paid cash for the booking's orders and
   * took the goods. The cash — what the orders come to now — is credited to the buyer's balance
   * from the clearing account, pays the orders as one payment through payments' settlement, and
   * the goods are handed over (`completed`), all in one transaction: net, the balance is as it
   * was. NOT_PENDING once closed or cancelled; ORDER_NOT_PAYABLE, and nothing moves, when one of
   * its orders was meanwhile paid or cancelled (staff then cancel the booking).
   */
  complete(bookingId: number, actor: StaffActor): Promise<BookingCompleted> {
    const { transact, clock, bookings, idempotency, ledger, settlement, paymentOpen } = this.deps
    return transact(async (tx) => {
      const booking = await bookings.lockBooking(tx, bookingId)
      if (!booking) throw new AppError('NOT_FOUND', { bookingId })
      const orderIds = await bookings.orderIdsOf(tx, bookingId)
      // The booking, then its orders (in id order), then the ledger: as paying takes them.
      const orders = await bookings.lockOrders(tx, orderIds)
      const now = clock.now()
      const key = actor.idempotencyKey
      if (key !== undefined) {
        const claim = await idempotency.claim<BookingCompleted>(
          tx,
          actor.idempotencyOwner,
          key,
          requestHash({ completeBooking: bookingId }),
          now,
        )
        if (claim.kind === 'replay') return claim.result
      }
      if (booking.status !== 'booked') throw new AppError('NOT_PENDING', { status: booking.status })
      const payable = new Set(
        orders
          .filter((o) => o.user_id === booking.user_id && allowed(o, 'settleAtCounter', true, now))
          .map((o) => o.id),
      )
      // An order whose payment sheet the buyer opened after booking may still be paid online:
      // taking the cash too would pay it twice. Staff wait for the sheet to close, or cancel.
      const paying = await paymentOpen(tx, orderIds, now)
      const unpayable = orderIds.filter((id) => !payable.has(id) || paying.has(id))
      if (unpayable.length > 0) throw new AppError('ORDER_NOT_PAYABLE', { orderIds: unpayable })
      const cash = totalOf(orders)
      const transferId =
        cash > 0
          ? await ledger.post(
              tx,
              booking.user_id,
              { kind: 'counter_cash', memo: `booking ${bookingId}`, now },
              creditBalance(cash),
            )
          : null
      const paymentId = await settlement.settleFromBalance(tx, booking.user_id, orderIds, now)
      // Settlement skips what it will not pay: anything short of all of them rolls the close back.
      if (paymentId === null || (await bookings.handOver(tx, orderIds)) !== orderIds.length) {
        throw new AppError('ORDER_NOT_PAYABLE', { orderIds })
      }
      if (
        !(await bookings.decide(tx, bookingId, {
          status: 'completed',
          transferId,
          total: cash,
          now,
        }))
      ) {
        throw new AppError('NOT_PENDING')
      }
      const result: BookingCompleted = { bookingId, status: 'completed', orderIds }
      if (key !== undefined) await idempotency.complete(tx, actor.idempotencyOwner, key, result)
      return result
    })
  }

  /** Cancels a locked open booking and gives its slot's place back. */
  private async cancelIn(tx: Tx, booking: BookingRow): Promise<BookingRow> {
    if (!(await this.deps.bookings.decide(tx, booking.id, { status: 'cancelled' }))) {
      throw new AppError('NOT_PENDING')
    }
    await this.deps.slots.release(tx, booking.date, booking.slot)
    return { ...booking, status: 'cancelled' }
  }
}
