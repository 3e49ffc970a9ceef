import type { Booking, BookingsPage, StaffBooking } from '@numisma/contracts/delivery'
import { AUCTION_PAYMENT_DAYS } from '@numisma/domain/fees'
import { bookableDates, chinaDate } from '@numisma/domain/delivery'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { bookingExpiryFor, mallOrderExpiryFor, overdueJobFor } from '../src/app'
import { PREPAY_WINDOW_MS } from '../src/modules/payments/rules'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { expectLedgerSound } from './helpers/ledger'
import { buy, createMallItem, type StaffCall, staffCaller } from './helpers/mall-orders'
import {
  balanceOf,
  confirmAtCashier,
  doPay,
  fundBalance,
  injectedWechatPay,
  winLot,
} from './helpers/payments'

/**
 * Issue 10, DESIGN §6 and §9 "Delivery": counter cash bookings — the buyer books a visit to pay
 * cash for unpaid orders, staff close it when the cash is taken and the goods handed over. On both
 * databases, over HTTP, with a fake clock.
 */
const databases = await testDatabases()
const YUAN = 100
const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE
const SLOT = '10:00-12:00'

describe.each(databases)('counter cash bookings on $name', (kind) => {
  let t: TestApp
  let admin: StaffCall

  beforeAll(async () => {
    t = await createTestApp(kind)
  })
  afterAll(() => t.close())
  afterEach(() => expectLedgerSound(t.database))

  /** Staff sign in afresh: a staff session lasts 12 hours, and the clock moves by days here. */
  const staff = async () => {
    admin = await staffCaller(t)
    return admin
  }
  const statusOf = async (orderId: number) =>
    (
      await t.database.db
        .selectFrom('orders')
        .select('status')
        .where('id', '=', orderId)
        .executeTakeFirstOrThrow()
    ).status
  /** The first bookable day from now (tomorrow, or the next open one), China time. */
  const firstDate = () => bookableDates(t.clock.now())[0]!
  const apply = (as: Session, body: object, headers?: Record<string, string>) =>
    t.call({ method: 'POST', path: '/user/booking/bookingApply', as, body, headers })
  const booked = async (as: Session, orderIds: number[], date = firstDate(), slot = SLOT) => {
    const res = await apply(as, { orderIds, date, slot })
    expect(res.statusCode, res.body).toBe(200)
    return res.json<{ data: { bookingId: number } }>().data.bookingId
  }
  const list = async (as: Session, query = '') => {
    const res = await t.call({ method: 'GET', path: `/user/booking/queryBookingList${query}`, as })
    expect(res.statusCode, res.body).toBe(200)
    return res.json<BookingsPage>()
  }
  const mallOrder = async (as: Session, price = 880 * YUAN) => {
    const item = await createMallItem(await staff(), { price, stock: 5 })
    const res = await buy(t, as, { productNo: item.productNo, quantity: 1 })
    expect(res.json<{ data: { status: string } }>().data.status, res.body).toBe('SUCCESS')
    return res.json<{ data: { orderId: number } }>().data.orderId
  }
  const totalOf = async (orderIds: number[]) => {
    const rows = await t.database.db
      .selectFrom('orders')
      .select('total')
      .where('id', 'in', orderIds)
      .execute()
    return rows.reduce((sum, r) => sum + r.total, 0)
  }
  const placesTaken = async (date: string, slot = SLOT) =>
    (
      await t.database.db
        .selectFrom('slot_counts')
        .select('booked')
        .where('date', '=', date)
        .where('slot', '=', slot)
        .executeTakeFirst()
    )?.booked ?? 0
  const bookingTransfers = (bookingId: number) =>
    t.database.db
      .selectFrom('ledger_transfers')
      .select('id')
      .where('memo', '=', `booking ${bookingId}`)
      .execute()

  it('books unpaid auction and mall orders for a slot; the orders keep their status', async () => {
    const alice = await t.signIn()
    const won = await winLot(t, alice, 1_000 * YUAN)
    const bought = await mallOrder(alice)
    const date = firstDate()
    const before = await placesTaken(date)
    const bookingId = await booked(alice, [won, bought], date)
    expect(await statusOf(won)).toBe('pending_payment')
    expect(await statusOf(bought)).toBe('pending_payment')
    expect(await placesTaken(date)).toBe(before + 1)

    const page = await list(alice)
    expect(page.total).toBe(1)
    const [booking] = page.data
    expect(booking).toMatchObject({
      id: bookingId,
      status: 'booked',
      date,
      slot: SLOT,
      total: await totalOf([won, bought]),
      completedAt: null,
    })
    expect([...booking!.orderIds].sort((a, b) => a - b)).toEqual(
      [won, bought].sort((a, b) => a - b),
    )
    expect(booking!.items.map((i) => i.title).sort()).toEqual(
      ['中国人民银行发行钱币收藏册', '民国三年袁世凯像壹圆'].sort(),
    )
  })

  it('refuses orders that are not the caller’s unpaid ones, and days and slots the counter does not open', async () => {
    const alice = await t.signIn()
    const bob = await t.signIn()
    const bobs = await mallOrder(bob)
    const mine = await mallOrder(alice)
    // Another user's order is not found, and nothing is booked.
    const foreign = await apply(alice, { orderIds: [mine, bobs], date: firstDate(), slot: SLOT })
    expect(foreign.statusCode).toBe(404)
    expect((await list(alice)).total).toBe(0)
    // Today, past the window, and an unknown slot.
    const today = chinaDate(t.clock.now())
    const late = chinaDate(t.clock.now() + 30 * DAY)
    for (const date of [today, late]) {
      const res = await apply(alice, { orderIds: [mine], date, slot: SLOT })
      expect(res.statusCode, date).toBe(400)
      expect(res.json().code).toBe('SLOT_UNAVAILABLE')
    }
    const sunday = bookableDates(t.clock.now(), {
      capacityPerSlot: 10,
      daysAhead: 14,
      closedWeekdays: [],
      closedDates: [],
    }).find((d) => new Date(`${d}T00:00:00Z`).getUTCDay() === 0)!
    const closed = await apply(alice, { orderIds: [mine], date: sunday, slot: SLOT })
    expect(closed.json().code).toBe('SLOT_UNAVAILABLE')
    const badSlot = await apply(alice, { orderIds: [mine], date: firstDate(), slot: '09:00-10:00' })
    expect(badSlot.statusCode).toBe(400)
    expect(badSlot.json().code).toBe('VALIDATION_FAILED')
    // Booked once, not twice.
    await booked(alice, [mine])
    const twice = await apply(alice, { orderIds: [mine], date: firstDate(), slot: '13:30-15:30' })
    expect(twice.statusCode).toBe(409)
    expect(twice.json().code).toBe('ORDER_NOT_BOOKABLE')
    // A paid order is not bookable.
    const paid = await mallOrder(alice)
    await t.database.db
      .updateTable('orders')
      .set({ status: 'paid' })
      .where('id', '=', paid)
      .execute()
    const paidRes = await apply(alice, { orderIds: [paid], date: firstDate(), slot: SLOT })
    expect(paidRes.json().code).toBe('ORDER_NOT_BOOKABLE')
    // A mall order past its 30 minutes is as good as expired.
    const lapsed = await mallOrder(alice)
    t.clock.advance(31 * MINUTE)
    const lapsedRes = await apply(alice, { orderIds: [lapsed], date: firstDate(), slot: SLOT })
    expect(lapsedRes.json().code).toBe('ORDER_NOT_BOOKABLE')
    // Signed-out callers are turned away.
    const anonymous = await t.call({ method: 'GET', path: '/user/booking/queryBookingList' })
    expect(anonymous.statusCode).toBe(401)
  })

  it('replays a retry under the same Idempotency-Key and refuses the key for another booking', async () => {
    const alice = await t.signIn()
    const order = await mallOrder(alice)
    const other = await mallOrder(alice)
    const key = { 'idempotency-key': 'booking-retry-1' }
    const body = { orderIds: [order], date: firstDate(), slot: SLOT }
    const [first, second] = await Promise.all([apply(alice, body, key), apply(alice, body, key)])
    expect(first.statusCode, first.body).toBe(200)
    expect(second.json()).toEqual(first.json())
    expect((await list(alice)).total).toBe(1)
    const reused = await apply(alice, { ...body, orderIds: [other] }, key)
    expect(reused.statusCode).toBe(422)
  })

  it('gives 30 concurrent bookings for one slot exactly its 10 places', async () => {
    const item = await createMallItem(await staff(), { price: 10 * YUAN, stock: 30 })
    // Thirty buyers: one buyer has at most one open booking a day.
    const orders: { buyer: Session; id: number }[] = []
    for (let i = 0; i < 30; i++) {
      const buyer = await t.signIn()
      const res = await buy(t, buyer, { productNo: item.productNo, quantity: 1 })
      orders.push({ buyer, id: res.json<{ data: { orderId: number } }>().data.orderId })
    }
    // A day nobody else in this suite books.
    const date = bookableDates(t.clock.now()).at(-1)!
    const results = await Promise.all(
      orders.map(({ buyer, id }) => apply(buyer, { orderIds: [id], date, slot: '15:30-17:30' })),
    )
    const codes = results.map((r) => (r.statusCode === 200 ? 'OK' : r.json().code))
    expect(codes.filter((c) => c === 'OK')).toHaveLength(10)
    expect(codes.filter((c) => c === 'SLOT_FULL')).toHaveLength(20)
    expect(await placesTaken(date, '15:30-17:30')).toBe(10)
  })

  it('a booked mall order is not expired after 30 minutes; an unbooked one is', async () => {
    const alice = await t.signIn()
    const kept = await mallOrder(alice)
    const dropped = await mallOrder(alice)
    await booked(alice, [kept])
    t.clock.advance(31 * MINUTE)
    const expired = await mallOrderExpiryFor(t.database, t.clock).sweep()
    expect(expired).toContain(dropped)
    expect(expired).not.toContain(kept)
    expect(await statusOf(kept)).toBe('pending_payment')
    expect(await statusOf(dropped)).toBe('cancelled')
  })

  it('a booked won lot is not marked overdue nor forfeited; cancelled by staff, it is', async () => {
    const alice = await t.signIn()
    const kept = await winLot(t, alice, 300 * YUAN)
    const marked = await winLot(t, alice, 300 * YUAN)
    const bookingId = await booked(alice, [kept], bookableDates(t.clock.now()).at(-1))
    t.clock.advance(AUCTION_PAYMENT_DAYS * DAY + MINUTE)
    const overdue = await overdueJobFor(t.database, t.clock).sweep()
    expect(overdue).toContain(marked)
    expect(overdue).not.toContain(kept)
    expect(await statusOf(kept)).toBe('pending_payment')

    // An overdue order booked afterwards is not forfeited while the booking is open.
    // (Another winner: an overdue one may not bid.)
    const carol = await t.signIn()
    const late = await winLot(t, carol, 300 * YUAN)
    t.clock.advance(AUCTION_PAYMENT_DAYS * DAY + MINUTE)
    await overdueJobFor(t.database, t.clock).sweep()
    expect(await statusOf(late)).toBe('overdue')
    await booked(carol, [late])
    const forfeit = await (await staff())('POST', `/orders/${late}/forfeit`)
    expect(forfeit.statusCode).toBe(409)
    expect(forfeit.json().code).toBe('ORDER_PAID_OFFLINE')
    expect(await statusOf(late)).toBe('overdue')

    // The buyer did not come: staff cancel the booking, and the order's clock runs again.
    const cancelled = await (await staff())('POST', `/bookings/${bookingId}/cancel`)
    expect(cancelled.statusCode, cancelled.body).toBe(200)
    expect(cancelled.json().data).toMatchObject({ id: bookingId, status: 'cancelled' })
    expect(await overdueJobFor(t.database, t.clock).sweep()).toContain(kept)
  })

  it('staff complete a booking: cash in pays the orders, which are handed over; balance unchanged net', async () => {
    const alice = await t.signIn()
    await fundBalance(t, alice.userId, 123 * YUAN)
    const won = await winLot(t, alice, 2_000 * YUAN)
    const bought = await mallOrder(alice, 450 * YUAN)
    const bookingId = await booked(alice, [won, bought])
    // The visit is tomorrow: the mall order is long past its 30 minutes by then.
    t.clock.advance(DAY)
    const balance = await balanceOf(t, alice.userId)
    const cash = await totalOf([won, bought])

    const res = await (await staff())('POST', `/bookings/${bookingId}/complete`)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().data.bookingId).toBe(bookingId)
    expect(res.json().data.status).toBe('completed')
    expect([...res.json().data.orderIds].sort((a: number, b: number) => a - b)).toEqual(
      [won, bought].sort((a, b) => a - b),
    )
    expect(await statusOf(won)).toBe('completed')
    expect(await statusOf(bought)).toBe('completed')
    expect(await balanceOf(t, alice.userId)).toBe(balance)
    // The cash came from the clearing account, once, for exactly what the orders cost.
    const transfers = await bookingTransfers(bookingId)
    expect(transfers).toHaveLength(1)
    const legs = await t.database.db
      .selectFrom('ledger_postings')
      .select('amount')
      .where('transfer_id', '=', transfers[0]!.id)
      .execute()
    expect(legs.map((l) => Math.abs(l.amount))).toEqual([cash, cash])
    const [listed] = (await list(alice)).data
    expect(listed).toMatchObject({ id: bookingId, status: 'completed', total: cash })
    expect(listed!.completedAt).not.toBeNull()

    // Completing again is a coded conflict and moves nothing.
    const again = await admin('POST', `/bookings/${bookingId}/complete`)
    expect(again.statusCode).toBe(409)
    expect(again.json().code).toBe('NOT_PENDING')
    expect(await bookingTransfers(bookingId)).toHaveLength(1)
    const cancel = await admin('POST', `/bookings/${bookingId}/cancel`)
    expect(cancel.json().code).toBe('NOT_PENDING')
  })

  it('two staff completing at once take the cash once', async () => {
    const alice = await t.signIn()
    const order = await mallOrder(alice)
    const bookingId = await booked(alice, [order])
    const desk = await staff()
    const results = await Promise.all([
      desk('POST', `/bookings/${bookingId}/complete`),
      desk('POST', `/bookings/${bookingId}/complete`),
    ])
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409])
    expect(await bookingTransfers(bookingId)).toHaveLength(1)
    expect(await statusOf(order)).toBe('completed')
  })

  it('a staff retry under the same Idempotency-Key replays the close', async () => {
    const alice = await t.signIn()
    const order = await mallOrder(alice)
    const bookingId = await booked(alice, [order])
    const password = 'staff-test-password'
    await staff()
    const login = await t.inject({
      method: 'POST',
      url: '/svc/main/admin/login',
      payload: { username: 'admin', password },
    })
    const cookie = login.cookies.find((c) => c.name === 'staff_sid')!.value
    const close = () =>
      t.inject({
        method: 'POST',
        url: `/svc/main/admin/bookings/${bookingId}/complete`,
        cookies: { staff_sid: cookie },
        headers: { 'idempotency-key': `booking-close-${bookingId}` },
      })
    const first = await close()
    expect(first.statusCode, first.body).toBe(200)
    const retry = await close()
    expect(retry.statusCode).toBe(200)
    expect(retry.json()).toEqual(first.json())
    expect(await bookingTransfers(bookingId)).toHaveLength(1)
  })

  it('a booking whose order was paid meanwhile is not completed', async () => {
    const alice = await t.signIn()
    const order = await mallOrder(alice)
    const bookingId = await booked(alice, [order])
    await t.database.db
      .updateTable('orders')
      .set({ status: 'paid' })
      .where('id', '=', order)
      .execute()
    const res = await (await staff())('POST', `/bookings/${bookingId}/complete`)
    expect(res.statusCode).toBe(409)
    expect(res.json().code).toBe('ORDER_NOT_PAYABLE')
    expect(await bookingTransfers(bookingId)).toHaveLength(0)
  })

  it('the buyer cancels before the day: the place and the orders are free again; on the day, not', async () => {
    const alice = await t.signIn()
    const bob = await t.signIn()
    const order = await mallOrder(alice)
    const date = firstDate()
    const bookingId = await booked(alice, [order], date)
    const taken = await placesTaken(date)

    // Another user's booking is not found.
    const foreign = await t.call({
      method: 'POST',
      path: `/user/booking/${bookingId}/cancel`,
      as: bob,
    })
    expect(foreign.statusCode).toBe(404)
    expect((await list(bob)).total).toBe(0)

    const res = await t.call({
      method: 'POST',
      path: `/user/booking/${bookingId}/cancel`,
      as: alice,
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json<{ data: Booking }>().data).toMatchObject({ id: bookingId, status: 'cancelled' })
    expect(await placesTaken(date)).toBe(taken - 1)
    const again = await t.call({
      method: 'POST',
      path: `/user/booking/${bookingId}/cancel`,
      as: alice,
    })
    expect(again.json().code).toBe('NOT_PENDING')
    // The order may be booked again; on the day itself the buyer can no longer cancel.
    const rebooked = await booked(alice, [order], date)
    const day = Date.parse(`${date}T02:00:00Z`) // 10:00 China time on the day
    t.clock.set(day)
    const onTheDay = await t.call({
      method: 'POST',
      path: `/user/booking/${rebooked}/cancel`,
      as: alice,
    })
    expect(onTheDay.statusCode).toBe(409)
    expect(onTheDay.json().code).toBe('BOOKING_NOT_CANCELLABLE')
    // Staff complete, or cancel, a booking that is not there: 404.
    expect((await (await staff())('POST', '/bookings/999999/complete')).statusCode).toBe(404)
    expect((await admin('POST', '/bookings/999999/cancel')).statusCode).toBe(404)
  })

  it("lists the counter's day for staff, by date and status, with whose each booking is", async () => {
    const alice = await t.signIn()
    const bob = await t.signIn()
    const date = bookableDates(t.clock.now())[1]!
    const a = await booked(alice, [await mallOrder(alice)], date, '13:30-15:30')
    const b = await booked(bob, [await mallOrder(bob)], date, SLOT)
    const carol = await t.signIn()
    const c = await booked(carol, [await mallOrder(carol)], date, SLOT)
    const desk = await staff()
    expect((await desk('POST', `/bookings/${c}/cancel`)).statusCode).toBe(200)
    const res = await desk('GET', `/bookings?date=${date}&status=booked`)
    expect(res.statusCode, res.body).toBe(200)
    const rows = res.json<{ data: StaffBooking[] }>().data
    expect(rows.map((r) => r.id)).toEqual([b, a])
    expect(rows[0]).toMatchObject({
      userId: Number(bob.userId),
      mobile: bob.mobile,
      date,
      slot: SLOT,
    })
    const all = await desk('GET', `/bookings?date=${date}`)
    expect(
      all
        .json<{ data: StaffBooking[] }>()
        .data.map((r) => r.id)
        .sort(),
    ).toEqual([a, b, c].sort())
    // Not a staff session: refused.
    const anonymous = await t.inject({
      method: 'GET',
      url: `/svc/main/admin/bookings?date=${date}`,
    })
    expect(anonymous.statusCode).toBe(401)
  })

  it('pages the buyer’s bookings newest first', async () => {
    const alice = await t.signIn()
    const ids: number[] = []
    const dates = bookableDates(t.clock.now())
    for (let i = 0; i < 3; i++) ids.push(await booked(alice, [await mallOrder(alice)], dates[i]))
    const first = await list(alice, '?page=1&pageSize=2')
    expect(first).toMatchObject({ page: 1, pageSize: 2, total: 3 })
    expect(first.data.map((b) => b.id)).toEqual([ids[2], ids[1]])
    const second = await list(alice, '?page=2&pageSize=2')
    expect(second.data.map((b) => b.id)).toEqual([ids[0]])
  })

  it('a mall order an open booking holds cannot be cancelled, so a booking never holds a place for nothing', async () => {
    const alice = await t.signIn()
    const order = await mallOrder(alice, 1 * YUAN)
    const date = firstDate()
    const bookingId = await booked(alice, [order], date)
    const taken = await placesTaken(date)
    const cancelOrder = () =>
      t.call({ method: 'GET', path: `/user/3_3/order/cancel?orderId=${order}`, as: alice })
    const refused = await cancelOrder()
    expect(refused.statusCode, refused.body).toBe(409)
    expect(refused.json().code).toBe('ORDER_NOT_CANCELLABLE')
    expect(await statusOf(order)).toBe('pending_payment')
    expect((await list(alice)).data[0]).toMatchObject({ id: bookingId, status: 'booked' })
    expect(await placesTaken(date)).toBe(taken)
    // Once the booking is called off, the order is the buyer's to cancel again.
    const off = await t.call({
      method: 'POST',
      path: `/user/booking/${bookingId}/cancel`,
      as: alice,
    })
    expect(off.statusCode, off.body).toBe(200)
    const cancelled = await cancelOrder()
    expect(cancelled.statusCode, cancelled.body).toBe(200)
    expect(await statusOf(order)).toBe('cancelled')
    expect(await placesTaken(date)).toBe(taken - 1)
  })

  it('caps a buyer’s open bookings: one a day and three in all; a closed one frees its share', async () => {
    const alice = await t.signIn()
    const dates = bookableDates(t.clock.now())
    const first = await booked(alice, [await mallOrder(alice, 1 * YUAN)], dates[3])
    // Another slot of the same day: the counter sees a buyer once a day.
    const sameDay = await apply(alice, {
      orderIds: [await mallOrder(alice, 1 * YUAN)],
      date: dates[3],
      slot: '13:30-15:30',
    })
    expect(sameDay.statusCode, sameDay.body).toBe(409)
    expect(sameDay.json().code).toBe('BOOKING_LIMIT')
    await booked(alice, [await mallOrder(alice, 1 * YUAN)], dates[4])
    await booked(alice, [await mallOrder(alice, 1 * YUAN)], dates[5])
    const taken = await placesTaken(dates[6]!)
    const fourth = await apply(alice, {
      orderIds: [await mallOrder(alice, 1 * YUAN)],
      date: dates[6],
      slot: SLOT,
    })
    expect(fourth.statusCode).toBe(409)
    expect(fourth.json().code).toBe('BOOKING_LIMIT')
    expect(await placesTaken(dates[6]!)).toBe(taken)
    // Called off, the booking no longer counts.
    const off = await t.call({ method: 'POST', path: `/user/booking/${first}/cancel`, as: alice })
    expect(off.statusCode, off.body).toBe(200)
    await booked(alice, [await mallOrder(alice, 1 * YUAN)], dates[6])

    // Concurrent bookings by one buyer: one a day, three in all, however they interleave.
    const bob = await t.signIn()
    const item = await createMallItem(await staff(), { price: 1 * YUAN, stock: 9 })
    const requests: { orderId: number; date: string; slot: string }[] = []
    // Two slots on each of four days: no slot's own row lock lines them up.
    for (const date of dates.slice(7, 11)) {
      for (const slot of ['13:30-15:30', '15:30-17:30']) {
        const res = await buy(t, bob, { productNo: item.productNo, quantity: 1 })
        const orderId = res.json<{ data: { orderId: number } }>().data.orderId
        requests.push({ orderId, date, slot })
      }
    }
    const results = await Promise.all(
      requests.map((r) => apply(bob, { orderIds: [r.orderId], date: r.date, slot: r.slot })),
    )
    const codes = results.map((r) => (r.statusCode === 200 ? 'OK' : r.json().code))
    expect(codes.filter((c) => c === 'OK')).toHaveLength(3)
    expect(codes.filter((c) => c === 'BOOKING_LIMIT')).toHaveLength(5)
    const open = (await list(bob)).data.filter((b) => b.status === 'booked')
    expect(open).toHaveLength(3)
    expect(new Set(open.map((b) => b.date)).size).toBe(3)
  })

  it('ends open bookings once their day is over, once across two racing jobs, giving the place back', async () => {
    const alice = await t.signIn()
    const won = await winLot(t, alice, 300 * YUAN)
    const date = firstDate()
    const bookingId = await booked(alice, [won], date)
    const taken = await placesTaken(date)
    const jobs = [bookingExpiryFor(t.database, t.clock), bookingExpiryFor(t.database, t.clock)]
    // 23:59 China time on the booked day: the counter is still waiting for the buyer.
    t.clock.set(Date.parse(`${date}T15:59:00Z`))
    expect(await jobs[0]!.sweep()).not.toContain(bookingId)
    expect((await list(alice)).data[0]).toMatchObject({ id: bookingId, status: 'booked' })
    // The day is over: two instances racing end the booking once.
    t.clock.set(Date.parse(`${date}T16:00:00Z`))
    const ended = (await Promise.all(jobs.map((job) => job.sweep()))).flat()
    expect(ended.filter((id) => id === bookingId)).toHaveLength(1)
    expect((await list(alice)).data[0]).toMatchObject({ id: bookingId, status: 'cancelled' })
    // Each ended booking gave its place back (earlier tests booked this day's slot too).
    const endedHere = await t.database.db
      .selectFrom('bookings')
      .select('id')
      .where('id', 'in', ended)
      .where('date', '=', date)
      .where('slot', '=', SLOT)
      .execute()
    expect(endedHere.map((b) => b.id)).toContain(bookingId)
    expect(await placesTaken(date)).toBe(taken - endedHere.length)
    expect(await jobs[1]!.sweep()).not.toContain(bookingId)
    // The order is no longer paid offline: its own clock runs again.
    t.clock.advance(AUCTION_PAYMENT_DAYS * DAY)
    expect(await overdueJobFor(t.database, t.clock).sweep()).toContain(won)
  })
})

describe.each(databases)('counter cash bookings and messaging-app payments on $name', (kind) => {
  let t: TestApp
  const wx = injectedWechatPay()
  beforeAll(async () => {
    t = await createTestApp(kind, { wechatPay: wx.options })
    wx.attach(t.app)
  })
  afterAll(() => t.close())
  afterEach(() => expectLedgerSound(t.database))

  const apply = (as: Session, orderIds: number[]) =>
    t.call({
      method: 'POST',
      path: '/user/booking/bookingApply',
      as,
      body: { orderIds, date: bookableDates(t.clock.now())[0], slot: SLOT },
    })
  const statusOf = async (orderId: number) =>
    (
      await t.database.db
        .selectFrom('orders')
        .select('status')
        .where('id', '=', orderId)
        .executeTakeFirstOrThrow()
    ).status
  const payByWechat = async (as: Session, orderId: number) => {
    const pay = await doPay(t, as, { orderIds: [orderId], method: 'wechat' })
    expect(pay.statusCode, pay.body).toBe(200)
    return pay.json().data.payRequest.packages.replace(/^prepay_id=/, '') as string
  }

  it('refuses to book an order whose messaging-app payment may still be paid, so it is never paid twice', async () => {
    const alice = await t.signIn()
    const won = await winLot(t, alice, 500 * YUAN)
    const prepayId = await payByWechat(alice, won)
    const refused = await apply(alice, [won])
    expect(refused.statusCode, refused.body).toBe(409)
    expect(refused.json().code).toBe('ORDER_NOT_BOOKABLE')
    expect(refused.json().details).toMatchObject({ orderIds: [won] })
    // Paid on the sheet after all: once, and nothing lands on the balance.
    const before = await balanceOf(t, alice.userId)
    expect((await confirmAtCashier(t, prepayId)).statusCode).toBeLessThan(400)
    expect(await statusOf(won)).toBe('paid')
    expect(await balanceOf(t, alice.userId)).toBe(before)

    // A sheet left unpaid closes at the platform with its window; then the counter may take it.
    const bob = await t.signIn()
    const other = await winLot(t, bob, 500 * YUAN)
    await payByWechat(bob, other)
    t.clock.advance(PREPAY_WINDOW_MS - MINUTE)
    expect((await apply(bob, [other])).json().code).toBe('ORDER_NOT_BOOKABLE')
    t.clock.advance(MINUTE)
    const ok = await apply(bob, [other])
    expect(ok.statusCode, ok.body).toBe(200)
  })

  it('does not close a booking at the counter while a messaging-app payment for its orders may still be paid', async () => {
    const alice = await t.signIn()
    const won = await winLot(t, alice, 500 * YUAN)
    const res = await apply(alice, [won])
    expect(res.statusCode, res.body).toBe(200)
    const bookingId = res.json().data.bookingId as number
    // The buyer opens the payment sheet after booking.
    const prepayId = await payByWechat(alice, won)
    const desk = await staffCaller(t)
    const close = await desk('POST', `/bookings/${bookingId}/complete`)
    expect(close.statusCode, close.body).toBe(409)
    expect(close.json().code).toBe('ORDER_NOT_PAYABLE')
    const before = await balanceOf(t, alice.userId)
    expect((await confirmAtCashier(t, prepayId)).statusCode).toBeLessThan(400)
    // Paid once, online; the booking can no longer be closed, and nothing went to the balance.
    expect(await statusOf(won)).toBe('paid')
    expect(await balanceOf(t, alice.userId)).toBe(before)
    const again = await desk('POST', `/bookings/${bookingId}/complete`)
    expect(again.json().code).toBe('ORDER_NOT_PAYABLE')
  })
})
