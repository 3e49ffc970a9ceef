import { PURCHASE_DETAILS } from '@numisma/contracts/mall'
import { OrderSchema } from '@numisma/contracts/orders'
import type { FastifyBaseLogger } from 'fastify'
import { CompiledQuery } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClosingSweeper } from '../src/modules/bidding/closing'
import { CouponHoldService, couponHoldsFor } from '../src/modules/coupons/holds'
import { CouponRepository } from '../src/modules/coupons/repository'
import { MallOrderExpiry } from '../src/modules/orders/expiry'
import { OrdersRepository } from '../src/modules/orders/repository'
import { transactor, type Tx } from '../src/platform/transactions'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { createLot, creditDeposit } from './helpers/auction'
import { testDatabases } from './helpers/databases'
import { buy, createMallItem, signInMany, type StaffCall, staffCaller } from './helpers/mall-orders'
import { doPay, fundBalance, PAY_PASSWORD, payer } from './helpers/payments'

/** Issue 8: buying from the mall, cancelling, expiry — on both databases, over HTTP. */
const databases = await testDatabases()
const YUAN = 100
const MINUTE = 60_000

describe.each(databases)('mall orders on $name', (kind) => {
  let t: TestApp
  let admin: StaffCall
  let alice: Session
  let bob: Session

  beforeAll(async () => {
    t = await createTestApp(kind)
    admin = await staffCaller(t)
    ;[alice, bob] = [await t.signIn(), await t.signIn()]
  })
  afterAll(() => t.close())

  const item = (id: number) =>
    t.database.db
      .selectFrom('mall_items')
      .select(['stock', 'sold'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  const ordersOf = (mallItemId: number) =>
    t.database.db
      .selectFrom('orders')
      .selectAll()
      .where('mall_item_id', '=', mallItemId)
      .orderBy('id')
      .execute()
  const cancel = (as: Session, orderId: number) =>
    t.call({ method: 'GET', path: `/user/3_3/order/cancel?orderId=${orderId}`, as })
  const pending = async (as: Session) =>
    (await t.call({ method: 'GET', path: '/user/3_3/order/query', as })).json().data as {
      id: number
    }[]
  const expiry = () => MallOrderExpiry.forDatabase(t.database, t.clock, couponHoldsFor(t.database))

  /** A coupon staff issue (valid from a minute ago for a day), received by `user`. */
  const receiveCoupon = async (user: Session, terms: object = {}) => {
    const created = await admin('POST', '/coupons', {
      title: '满100减20',
      kind: 'amount',
      threshold: 100 * YUAN,
      amount: 20 * YUAN,
      total: 100,
      perUser: 5,
      startsAt: new Date(t.clock.now() - MINUTE).toISOString(),
      endsAt: new Date(t.clock.now() + 24 * 60 * MINUTE).toISOString(),
      ...terms,
    })
    expect(created.statusCode, created.body).toBe(200)
    const received = await t.call({
      method: 'POST',
      path: `/api/user/receiveCoupon/${created.json().data.id}`,
      as: user,
    })
    expect(received.statusCode, received.body).toBe(200)
    return received.json().data.userCouponId as number
  }
  const userCoupon = (id: number) =>
    t.database.db
      .selectFrom('user_coupons')
      .select(['status', 'order_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()

  describe('buying', () => {
    it('places a pending order and answers each outcome with HTTP 200 in the caller’s language', async () => {
      const { id, productNo } = await createMallItem(admin, { price: 120 * YUAN, stock: 3 })
      const placed = await buy(t, alice, { productNo, quantity: 2 })
      expect(placed.statusCode).toBe(200)
      const { orderId } = placed.json().data
      expect(placed.json()).toEqual({
        data: { status: 'SUCCESS', detail: PURCHASE_DETAILS.SUCCESS.zh, orderId },
      })
      expect(await item(id)).toEqual({ stock: 1, sold: 0 })
      expect(await ordersOf(id)).toEqual([
        expect.objectContaining({
          id: orderId,
          user_id: Number(alice.userId),
          kind: 'mall',
          lot_id: null,
          quantity: 2,
          amount: 240 * YUAN,
          fee: 0,
          discount: 0,
          total: 240 * YUAN,
          status: 'pending_payment',
          due_at: t.clock.now() + 30 * MINUTE,
          user_coupon_id: null,
          pay_method: null,
          cancelled_at: null,
        }),
      ])

      const short = await buy(t, bob, { productNo, quantity: 2 }, { 'accept-language': 'en' })
      expect(short.statusCode).toBe(200)
      expect(short.json()).toEqual({
        data: { status: 'SOLD_OUT', detail: 'not enough stock left', left: 1 },
      })

      await t.database.db
        .updateTable('mall_items')
        .set({ on_sale: 0 })
        .where('id', '=', id)
        .execute()
      expect((await buy(t, bob, { productNo, quantity: 1 })).json()).toEqual({
        data: { status: 'OFF_SALE', detail: '商品已下架' },
      })
      expect(await item(id)).toEqual({ stock: 1, sold: 0 })
      expect(await ordersOf(id)).toHaveLength(1)
    })

    it('refuses an unknown item with 404, bad input with 400, a stranger with 401', async () => {
      const unknown = await buy(t, alice, { productNo: 'M999999', quantity: 1 })
      expect(unknown.statusCode).toBe(404)
      expect(unknown.json().code).toBe('NOT_FOUND')
      const { productNo } = await createMallItem(admin)
      for (const body of [
        { productNo, quantity: 0 },
        { productNo, quantity: 1.5 },
        { productNo: 'M 1', quantity: 1 },
        { productNo, quantity: 1, userCouponId: -1 },
      ]) {
        const res = await t.call({
          method: 'POST',
          path: '/mallorder/createOrder',
          as: alice,
          body,
        })
        expect(res.statusCode, JSON.stringify(body)).toBe(400)
        expect(res.json().code).toBe('VALIDATION_FAILED')
      }
      const anonymous = await t.call({
        method: 'POST',
        path: '/mallorder/createOrder',
        body: { productNo, quantity: 1 },
      })
      expect(anonymous.statusCode).toBe(401)
    })

    it('sells exactly the stock to 200 concurrent buyers', async () => {
      const { id, productNo } = await createMallItem(admin, { price: 50 * YUAN, stock: 10 })
      const buyers = await signInMany(t, 200)
      const results = await Promise.all(buyers.map((u) => buy(t, u, { productNo, quantity: 1 })))
      for (const res of results) expect(res.statusCode).toBe(200)
      const statuses = results.map((r) => r.json().data.status as string)
      expect(statuses.filter((s) => s === 'SUCCESS')).toHaveLength(10)
      expect(statuses.filter((s) => s === 'SOLD_OUT')).toHaveLength(190)
      for (const r of results.filter((r) => r.json().data.status === 'SOLD_OUT')) {
        expect(r.json().data.left).toBe(0)
      }
      const orders = await ordersOf(id)
      expect(orders).toHaveLength(10)
      expect(new Set(orders.map((o) => o.user_id)).size).toBe(10)
      expect(await item(id)).toEqual({ stock: 0, sold: 0 })
    })

    it('holds one buyer to the per-user limit under 20 concurrent requests', async () => {
      const { id, productNo } = await createMallItem(admin, { stock: 100, limitPerUser: 2 })
      const results = await Promise.all(
        Array.from({ length: 20 }, () => buy(t, alice, { productNo, quantity: 1 })),
      )
      const data = results.map((r) => r.json().data)
      expect(data.filter((d) => d.status === 'SUCCESS')).toHaveLength(2)
      expect(data.filter((d) => d.status === 'LIMIT_EXCEEDED')).toHaveLength(18)
      for (const d of data.filter((d) => d.status === 'LIMIT_EXCEEDED')) {
        expect(d).toMatchObject({ left: 0, detail: PURCHASE_DETAILS.LIMIT_EXCEEDED.zh })
      }
      const orders = await ordersOf(id)
      expect(orders.reduce((sum, o) => sum + o.quantity, 0)).toBe(2)
      expect(await item(id)).toEqual({ stock: 98, sold: 0 })

      // A cancelled order's units no longer count; another buyer has their own limit.
      expect((await cancel(alice, orders[0]!.id)).statusCode).toBe(200)
      expect((await buy(t, alice, { productNo, quantity: 2 })).json().data).toMatchObject({
        status: 'LIMIT_EXCEEDED',
        left: 1,
      })
      expect((await buy(t, bob, { productNo, quantity: 2 })).json().data.status).toBe('SUCCESS')
    })

    it('lets one coupon into only one of two concurrent orders', async () => {
      // Two items, so the orders do not queue on one item's lock: the coupon alone decides.
      const items = [
        await createMallItem(admin, { price: 150 * YUAN }),
        await createMallItem(admin, { price: 150 * YUAN }),
      ]
      const userCouponId = await receiveCoupon(alice)
      for (let round = 0; round < 2; round++) {
        const results = await Promise.all(
          items.map((i) => buy(t, alice, { productNo: i.productNo, quantity: 1, userCouponId })),
        )
        const statuses = results.map((r) => r.json().data.status)
        expect([...statuses].sort()).toEqual(
          round === 0 ? ['COUPON_INVALID', 'SUCCESS'] : ['COUPON_INVALID', 'COUPON_INVALID'],
        )
      }
      const orders = [...(await ordersOf(items[0]!.id)), ...(await ordersOf(items[1]!.id))]
      expect(orders).toHaveLength(1)
      expect(orders[0]).toMatchObject({
        amount: 150 * YUAN,
        discount: 20 * YUAN,
        total: 130 * YUAN,
        user_coupon_id: userCouponId,
      })
      expect(await userCoupon(userCouponId)).toEqual({ status: 'locked', order_id: orders[0]!.id })
      const shelves = await Promise.all(items.map((i) => item(i.id)))
      expect(shelves.map((s) => s.stock).sort((a, b) => a - b)).toEqual([9, 10])
      const { productNo } = items[0]!

      // Below the coupon's threshold: refused, and nothing is written.
      const other = await receiveCoupon(alice)
      const cheap = await createMallItem(admin, { price: 50 * YUAN })
      expect(
        (
          await buy(t, alice, { productNo: cheap.productNo, quantity: 1, userCouponId: other })
        ).json().data.status,
      ).toBe('COUPON_INVALID')
      expect(await userCoupon(other)).toEqual({ status: 'usable', order_id: null })
      expect(await item(cheap.id)).toEqual({ stock: 10, sold: 0 })
      // Another buyer cannot spend it.
      expect(
        (await buy(t, bob, { productNo, quantity: 1, userCouponId: other })).json().data.status,
      ).toBe('COUPON_INVALID')
    })
  })

  describe('a coupon never makes an order free (ADR 011)', () => {
    it('leaves one fen to pay, and is not usable on goods of one fen', async () => {
      const { productNo } = await createMallItem(admin, { price: 50 * YUAN })
      const big = await receiveCoupon(bob, { threshold: 0, amount: 1_000 * YUAN })
      const placed = await buy(t, bob, { productNo, quantity: 1, userCouponId: big })
      expect(placed.json().data.status).toBe('SUCCESS')
      const order = await t.call({
        method: 'GET',
        path: `/user/order/${placed.json().data.orderId}`,
        as: bob,
      })
      expect(order.json().data).toMatchObject({
        goods: 50 * YUAN,
        discount: 50 * YUAN - 1,
        total: 1,
      })

      const penny = await createMallItem(admin, { price: 1 })
      const other = await receiveCoupon(bob, { threshold: 0, amount: 5 * YUAN })
      const offered = await t.call({
        method: 'GET',
        path: `/user/3_3/pay/getUserCoupons?productNo=${penny.productNo}&quantity=1`,
        as: bob,
      })
      expect(offered.json().data).toEqual([])
      const refused = await buy(t, bob, {
        productNo: penny.productNo,
        quantity: 1,
        userCouponId: other,
      })
      expect(refused.json().data.status).toBe('COUPON_INVALID')
      expect(await userCoupon(other)).toEqual({ status: 'usable', order_id: null })
      expect(await item(penny.id)).toEqual({ stock: 10, sold: 0 })
    })
  })

  describe('a flash sale', () => {
    /** A purchase of the item in flight: its row lock held until `release` is called. */
    const holdItem = async (productNo: string) => {
      const orders = new OrdersRepository(t.database.db, t.database.dialect)
      let release!: () => void
      const held = new Promise<void>((resolve) => (release = resolve))
      let locked!: () => void
      const isLocked = new Promise<void>((resolve) => (locked = resolve))
      const done = transactor(t.database)(async (tx) => {
        await orders.lockMallItem(tx, productNo)
        locked()
        await held
      })
      await isLocked
      return async () => {
        release()
        await done
      }
    }
    const within = <T>(ms: number, work: Promise<T>) =>
      Promise.race([work, new Promise<'stalled'>((r) => setTimeout(() => r('stalled'), ms))])

    // PostgreSQL only: SQLite has one connection, so nothing runs beside a write transaction.
    it.skipIf(kind.name !== 'postgres')(
      'answers buyers of a sold-out item at once while a purchase holds it, and stalls no one else',
      async () => {
        const { productNo } = await createMallItem(admin, { stock: 0 })
        // More buyers than the pool has connections (12 in tests, 10 by default).
        const buyers = await signInMany(t, 15)
        const release = await holdItem(productNo)
        try {
          const answers = await within(
            3_000,
            Promise.all(buyers.map((u) => buy(t, u, { productNo, quantity: 1 }))),
          )
          const other = await within(
            3_000,
            t.call({ method: 'GET', path: '/user/order/all', as: alice }),
          )
          expect(answers === 'stalled' ? answers : answers.map((r) => r.json().data)).toEqual(
            buyers.map(() => ({
              status: 'SOLD_OUT',
              detail: PURCHASE_DETAILS.SOLD_OUT.zh,
              left: 0,
            })),
          )
          expect(other === 'stalled' ? other : other.statusCode).toBe(200)
        } finally {
          await release()
        }
      },
    )

    it('replays a committed result under its key though the item sold out since; keeps no quick refusal', async () => {
      const { id, productNo } = await createMallItem(admin, { stock: 1 })
      const first = await buy(
        t,
        alice,
        { productNo, quantity: 1 },
        { 'idempotency-key': `flash-${id}-a` },
      )
      expect(first.json().data.status).toBe('SUCCESS')
      const again = await buy(
        t,
        alice,
        { productNo, quantity: 1 },
        { 'idempotency-key': `flash-${id}-a` },
      )
      expect(again.body).toBe(first.body)

      // Bob is refused from the committed stock; the refusal is not kept under his key, so his
      // retry once Alice's units are back buys them.
      const bobKey = { 'idempotency-key': `flash-${id}-b` }
      expect((await buy(t, bob, { productNo, quantity: 1 }, bobKey)).json().data).toMatchObject({
        status: 'SOLD_OUT',
        left: 0,
      })
      expect((await cancel(alice, first.json().data.orderId)).statusCode).toBe(200)
      expect((await buy(t, bob, { productNo, quantity: 1 }, bobKey)).json().data.status).toBe(
        'SUCCESS',
      )
      expect(await item(id)).toEqual({ stock: 0, sold: 0 })
      expect((await ordersOf(id)).map((o) => [o.user_id, o.status])).toEqual([
        [Number(alice.userId), 'cancelled'],
        [Number(bob.userId), 'pending_payment'],
      ])
    })
  })

  describe('Idempotency-Key', () => {
    it('replays a retry, sequential or concurrent, and buys once', async () => {
      const { id, productNo } = await createMallItem(admin)
      const key = { 'idempotency-key': `buy-${id}-once` }
      const first = await buy(t, alice, { productNo, quantity: 1 }, key)
      const again = await buy(t, alice, { productNo, quantity: 1 }, key)
      expect(again.body).toBe(first.body)
      expect(await ordersOf(id)).toHaveLength(1)

      const concurrentKey = { 'idempotency-key': `buy-${id}-concurrent` }
      const results = await Promise.all(
        [1, 2, 3, 4, 5].map(() => buy(t, bob, { productNo, quantity: 2 }, concurrentKey)),
      )
      for (const res of results) expect(res.statusCode).toBe(200)
      expect(new Set(results.map((r) => r.body)).size).toBe(1)
      expect(results[0]!.json().data.status).toBe('SUCCESS')
      expect(await ordersOf(id)).toHaveLength(2)
      expect(await item(id)).toEqual({ stock: 7, sold: 0 })

      const reused = await buy(t, alice, { productNo, quantity: 2 }, key)
      expect(reused.statusCode).toBe(422)
      expect(reused.json().code).toBe('IDEMPOTENCY_KEY_REUSED')
      expect(await ordersOf(id)).toHaveLength(2)
    })
  })

  describe('cancelling by hand', () => {
    it('cancels my unpaid mall order once, returning stock and coupon', async () => {
      const { id, productNo } = await createMallItem(admin, { price: 200 * YUAN })
      const userCouponId = await receiveCoupon(alice)
      const { orderId } = (await buy(t, alice, { productNo, quantity: 3, userCouponId })).json()
        .data
      expect(await item(id)).toEqual({ stock: 7, sold: 0 })

      expect((await cancel(bob, orderId)).statusCode).toBe(404)
      expect((await cancel(alice, 999_999)).statusCode).toBe(404)
      const done = await cancel(alice, orderId)
      expect(done.statusCode).toBe(200)
      expect(done.json()).toEqual({ data: { orderId, status: 'cancelled' } })
      expect(await item(id)).toEqual({ stock: 10, sold: 0 })
      expect(await userCoupon(userCouponId)).toEqual({ status: 'usable', order_id: null })
      expect((await ordersOf(id))[0]).toMatchObject({
        status: 'cancelled',
        cancelled_at: t.clock.now(),
      })

      const twice = await cancel(alice, orderId)
      expect(twice.statusCode).toBe(409)
      expect(twice.json().code).toBe('ORDER_NOT_CANCELLABLE')
      expect(await item(id)).toEqual({ stock: 10, sold: 0 })
      // The coupon is usable again, for a new order.
      expect(
        (await buy(t, alice, { productNo, quantity: 1, userCouponId })).json().data.status,
      ).toBe('SUCCESS')
    })

    it('refuses a paid order and an auction order', async () => {
      const { productNo } = await createMallItem(admin)
      const { orderId } = (await buy(t, alice, { productNo, quantity: 1 })).json().data
      await t.database.db
        .updateTable('orders')
        .set({ status: 'paid', paid_at: t.clock.now() })
        .where('id', '=', orderId)
        .execute()
      expect((await cancel(alice, orderId)).json().code).toBe('ORDER_NOT_CANCELLABLE')

      const auctionOrderId = await winLot(alice)
      const res = await cancel(alice, auctionOrderId)
      expect(res.statusCode).toBe(409)
      expect(res.json().code).toBe('ORDER_NOT_CANCELLABLE')
    })
  })

  /** Alice wins a lot through the real bid and closing path; returns her auction order's id. */
  const winLot = async (winner: Session) => {
    await creditDeposit(t, winner.userId, 10_000 * YUAN)
    const lotId = await createLot(t, { startPrice: 100 * YUAN, endsAt: t.clock.now() + MINUTE })
    const bid = await t.call({
      method: 'POST',
      path: '/bidding/bid',
      as: winner,
      body: { lotId, amount: 100 * YUAN, proxy: false },
    })
    expect(bid.statusCode, bid.body).toBe(200)
    // Past the end, soft close included (a bid in the last 5 minutes extends it).
    t.clock.advance(10 * MINUTE)
    await ClosingSweeper.forDatabase(t.database, t.clock, t.app.bus).sweep()
    const order = await t.database.db
      .selectFrom('orders')
      .select('id')
      .where('lot_id', '=', lotId)
      .executeTakeFirstOrThrow()
    return order.id
  }

  describe('expiry', () => {
    it('cancels an unpaid order after 30 minutes with stock and coupon back, exactly once', async () => {
      const { id, productNo } = await createMallItem(admin, { price: 150 * YUAN })
      const userCouponId = await receiveCoupon(alice)
      const { orderId } = (await buy(t, alice, { productNo, quantity: 2, userCouponId })).json()
        .data
      t.clock.advance(29 * MINUTE)
      expect((await expiry().sweep()).includes(orderId)).toBe(false)
      expect(await item(id)).toEqual({ stock: 8, sold: 0 })

      t.clock.advance(2 * MINUTE)
      expect(await expiry().sweep()).toContain(orderId)
      expect(await item(id)).toEqual({ stock: 10, sold: 0 })
      expect(await userCoupon(userCouponId)).toEqual({ status: 'usable', order_id: null })
      expect((await ordersOf(id))[0]).toMatchObject({ status: 'cancelled' })

      expect(await expiry().sweep()).toEqual([])
      const both = await Promise.all([expiry().sweep(), expiry().sweep()])
      expect(both.flat()).toEqual([])
      expect(await item(id)).toEqual({ stock: 10, sold: 0 })
      expect((await cancel(alice, orderId)).json().code).toBe('ORDER_NOT_CANCELLABLE')
    })

    it('expires each of many orders once with two job instances at once', async () => {
      const { id, productNo } = await createMallItem(admin, { price: 150 * YUAN, stock: 40 })
      const buyers = await signInMany(t, 12)
      const coupons = await Promise.all(buyers.map((u) => receiveCoupon(u)))
      const placed: number[] = []
      for (const [i, u] of buyers.entries()) {
        const res = await buy(t, u, { productNo, quantity: 3, userCouponId: coupons[i] })
        expect(res.json().data.status).toBe('SUCCESS')
        placed.push(res.json().data.orderId)
      }
      expect(await item(id)).toEqual({ stock: 4, sold: 0 })
      t.clock.advance(31 * MINUTE)

      const [first, second] = await Promise.all([expiry().sweep(), expiry().sweep()])
      // Orders earlier tests left unpaid may expire in the same runs; each id at most once.
      const expired = [...first, ...second]
      expect(new Set(expired).size).toBe(expired.length)
      expect(expired.filter((o) => placed.includes(o)).sort((a, b) => a - b)).toEqual(
        placed.sort((a, b) => a - b),
      )
      expect(await item(id)).toEqual({ stock: 40, sold: 0 })
      for (const c of coupons)
        expect(await userCoupon(c)).toEqual({ status: 'usable', order_id: null })
      expect(await Promise.all([expiry().sweep(), expiry().sweep()])).toEqual([[], []])
    })

    it('finds due orders through the partial index of unpaid mall orders, already in order', async () => {
      const due = new OrdersRepository(t.database.db, t.database.dialect)
        .dueMallOrdersQuery(t.clock.now(), 100)
        .compile()
      const plan = await t.database.db.connection().execute(async (conn) => {
        if (t.database.dialect === 'sqlite') {
          const rows = await conn.executeQuery<{ detail: string }>(
            CompiledQuery.raw(`explain query plan ${due.sql}`, [...due.parameters]),
          )
          return rows.rows.map((r) => r.detail).join('\n')
        }
        // The test table is small enough for a sequential scan; the question is which index fits.
        await conn.executeQuery(CompiledQuery.raw('set enable_seqscan = off'))
        try {
          const rows = await conn.executeQuery<{ 'QUERY PLAN': string }>(
            CompiledQuery.raw(`explain ${due.sql}`, [...due.parameters]),
          )
          return rows.rows.map((r) => r['QUERY PLAN']).join('\n')
        } finally {
          await conn.executeQuery(CompiledQuery.raw('reset enable_seqscan'))
        }
      })
      expect(plan).toContain('orders_mall_due')
      // The index's order is the job's order: no sort of every unpaid order on each run.
      expect(plan).not.toMatch(/sort|temp b-tree/i)
    })

    it('expires the other orders when one cannot be cancelled, and that one later', async () => {
      const { id, productNo } = await createMallItem(admin, { price: 150 * YUAN })
      const poisonedCoupon = await receiveCoupon(alice)
      const poisoned = (
        await buy(t, alice, { productNo, quantity: 2, userCouponId: poisonedCoupon })
      ).json().data.orderId as number
      t.clock.advance(1000)
      const later = [
        (await buy(t, bob, { productNo, quantity: 1 })).json().data.orderId as number,
        (await buy(t, bob, { productNo, quantity: 1 })).json().data.orderId as number,
      ]
      t.clock.advance(31 * MINUTE)
      let broken = true
      /** The real holds, but releasing that one coupon fails (an injected fault). */
      class FaultyHolds extends CouponHoldService {
        override release(tx: Tx, userCouponId: number, orderId: number) {
          if (broken && userCouponId === poisonedCoupon) {
            return Promise.reject(new Error('injected: coupon release failed'))
          }
          return super.release(tx, userCouponId, orderId)
        }
      }
      const logged: unknown[] = []
      const log = {
        error: (fields: unknown) => logged.push(fields),
      } as unknown as FastifyBaseLogger
      const job = MallOrderExpiry.forDatabase(
        t.database,
        t.clock,
        new FaultyHolds(new CouponRepository(t.database.db, t.database.dialect)),
        { log },
      )

      const swept = await job.sweep()
      expect(swept).toEqual(expect.arrayContaining(later))
      expect(swept).not.toContain(poisoned)
      expect(logged).toEqual([expect.objectContaining({ orderId: poisoned })])
      // Its transaction rolled back whole: still unpaid, its units and coupon still held.
      expect((await ordersOf(id)).map((o) => [o.id, o.status])).toEqual([
        [poisoned, 'pending_payment'],
        [later[0], 'cancelled'],
        [later[1], 'cancelled'],
      ])
      expect(await item(id)).toEqual({ stock: 8, sold: 0 })
      expect(await userCoupon(poisonedCoupon)).toEqual({ status: 'locked', order_id: poisoned })

      broken = false
      t.clock.advance(5 * MINUTE)
      expect(await job.sweep()).toContain(poisoned)
      expect(await item(id)).toEqual({ stock: 10, sold: 0 })
      expect(await userCoupon(poisonedCoupon)).toEqual({ status: 'usable', order_id: null })
    })

    it('leaves an order whose buyer chose bank remittance', async () => {
      const { id, productNo } = await createMallItem(admin)
      const { orderId } = (await buy(t, bob, { productNo, quantity: 1 })).json().data
      // Set in the database: choosing how to pay comes with the money issue (doPay); a
      // remittance order waits for the operator, not for our 30-minute clock.
      await t.database.db
        .updateTable('orders')
        .set({ pay_method: 'remittance' })
        .where('id', '=', orderId)
        .execute()
      t.clock.advance(2 * 60 * MINUTE)
      expect(await expiry().sweep()).not.toContain(orderId)
      expect((await ordersOf(id))[0]).toMatchObject({ status: 'pending_payment' })
      expect(await item(id)).toEqual({ stock: 9, sold: 0 })
    })
  })

  describe('reads', () => {
    it('lists my orders pending payment, auction and mall, newest first, in the order shape', async () => {
      const carol = await t.signIn()
      const auctionOrderId = await winLot(carol)
      t.clock.advance(MINUTE)
      const { productNo } = await createMallItem(admin, {
        title: '熊猫金币收藏册',
        price: 66 * YUAN,
      })
      const { orderId } = (await buy(t, carol, { productNo, quantity: 2 })).json().data
      const res = await t.call({ method: 'GET', path: '/user/3_3/order/query', as: carol })
      expect(res.statusCode).toBe(200)
      const orders = res.json().data
      for (const o of orders) OrderSchema.parse(o)
      expect(orders.map((o: { id: number }) => o.id)).toEqual([orderId, auctionOrderId])
      expect(orders[0]).toEqual({
        id: orderId,
        kind: 'mall',
        status: 'pending_payment',
        items: [{ title: '熊猫金币收藏册', productNo, quantity: 2, price: 66 * YUAN, image: '' }],
        goods: 132 * YUAN,
        fee: 0,
        discount: 0,
        total: 132 * YUAN,
        userCouponId: null,
        payMethod: null,
        createdAt: new Date(t.clock.now()).toISOString(),
        dueAt: new Date(t.clock.now() + 30 * MINUTE).toISOString(),
        paidAt: null,
        cancelledAt: null,
      })
      expect(orders[1]).toMatchObject({
        kind: 'auction',
        items: [{ lotId: expect.any(Number), quantity: 1, price: 100 * YUAN }],
        goods: 100 * YUAN,
        fee: 10 * YUAN,
        total: 110 * YUAN,
      })

      // One order: mine, or a 404 like a missing one.
      const one = await t.call({ method: 'GET', path: `/user/order/${orderId}`, as: carol })
      expect(one.json().data).toEqual(orders[0])
      expect(
        (await t.call({ method: 'GET', path: `/user/order/${orderId}`, as: bob })).statusCode,
      ).toBe(404)

      await cancel(carol, orderId)
      expect((await pending(carol)).map((o) => o.id)).toEqual([auctionOrderId])
      expect((await pending(bob)).map((o) => o.id)).not.toContain(orderId)

      // Every order, whatever its status: the cancelled one stays, with when it was cancelled.
      const all = (await t.call({ method: 'GET', path: '/user/order/all', as: carol })).json().data
      expect(all.map((o: { id: number; status: string }) => [o.id, o.status])).toEqual([
        [orderId, 'cancelled'],
        [auctionOrderId, 'pending_payment'],
      ])
      expect(all[0].cancelledAt).toBe(new Date(t.clock.now()).toISOString())
      const bobs = (await t.call({ method: 'GET', path: '/user/order/all', as: bob })).json().data
      expect(bobs.map((o: { id: number }) => o.id)).not.toContain(orderId)
      expect((await t.call({ method: 'GET', path: '/user/order/all' })).statusCode).toBe(401)
    })

    it('counts pending payment in the user centre as orders come and go', async () => {
      const dave = await t.signIn()
      const count = async () =>
        (await t.call({ method: 'GET', path: '/user/@statistics', as: dave })).json().data.counts
          .pendingPayment as number
      expect(await count()).toBe(0)
      const { productNo } = await createMallItem(admin)
      const a = (await buy(t, dave, { productNo, quantity: 1 })).json().data.orderId
      await buy(t, dave, { productNo, quantity: 1 })
      expect(await count()).toBe(2)
      await cancel(dave, a)
      expect(await count()).toBe(1)
      t.clock.advance(31 * MINUTE)
      await expiry().sweep()
      expect(await count()).toBe(0)
    })

    it('shows an item’s deals (paid purchases) newest first, buyers masked but for me; 已售 counts paid units', async () => {
      const { id, productNo } = await createMallItem(admin, { stock: 50 })
      const [erin, frank] = [await payer(t), await payer(t)]
      const payFor = async (as: Session, orderId: number) => {
        await fundBalance(t, as.userId, 1_000_000 * YUAN)
        const paid = await doPay(t, as, {
          orderIds: [orderId],
          method: 'balance',
          payPassword: PAY_PASSWORD,
        })
        expect(paid.json().data.status, paid.body).toBe('PAID')
      }
      const displayOf = async (u: Session) =>
        (
          await t.database.db
            .selectFrom('users')
            .select('display')
            .where('id', '=', Number(u.userId))
            .executeTakeFirstOrThrow()
        ).display
      await payFor(erin, (await buy(t, erin, { productNo, quantity: 2 })).json().data.orderId)
      t.clock.advance(1000)
      const dropped = (await buy(t, frank, { productNo, quantity: 5 })).json().data.orderId
      await cancel(frank, dropped)
      // Unpaid: not a deal yet, and not sold.
      await buy(t, erin, { productNo, quantity: 3 })
      t.clock.advance(1000)
      await payFor(frank, (await buy(t, frank, { productNo, quantity: 1 })).json().data.orderId)
      expect(await item(id)).toEqual({ stock: 44, sold: 3 })

      const records = async (query = '', as?: Session) =>
        (
          await t.call({ method: 'GET', path: `/mallorder/records/${productNo}${query}`, as })
        ).json()
      const mine = await records('', erin)
      expect(mine).toMatchObject({ page: 1, pageSize: 20, total: 2 })
      const frankName = await displayOf(frank)
      const erinName = await displayOf(erin)
      expect(mine.data).toEqual([
        {
          buyer: `${frankName[0]}***${frankName.at(-1)}`,
          quantity: 1,
          at: new Date(t.clock.now()).toISOString(),
          mine: false,
        },
        {
          buyer: erinName,
          quantity: 2,
          at: new Date(t.clock.now() - 2000).toISOString(),
          mine: true,
        },
      ])
      const anonymous = await records()
      expect(anonymous.data.map((r: { mine: boolean }) => r.mine)).toEqual([false, false])
      expect(anonymous.data[1].buyer).toBe(`${erinName[0]}***${erinName.at(-1)}`)
      expect((await records('?page=2&pageSize=1')).data).toHaveLength(1)
      expect((await records('?pageSize=51')).code).toBe('VALIDATION_FAILED')
      const unknown = await t.call({ method: 'GET', path: '/mallorder/records/M999999' })
      expect(unknown.statusCode).toBe(404)
    })
  })
})
