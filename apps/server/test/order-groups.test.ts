import type { Order, OrdersPage } from '@numisma/contracts/orders'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { buy, createMallItem, type StaffCall, staffCaller } from './helpers/mall-orders'
import { doPay, fundBalance, PAY_PASSWORD, payer, winLot } from './helpers/payments'

/**
 * Issue 10, spec §4 and §7 "Orders": the order groups the web's /myOrder and /order/list tabs
 * show — won lots waiting to ship, mall orders waiting to ship, completed — each exactly the
 * caller's orders of its statuses, newest first, with a paid order's storage so far.
 */
const databases = await testDatabases()
const YUAN = 100
const DAY = 24 * 60 * 60_000

describe.each(databases)('order groups on $name', (kind) => {
  let t: TestApp
  let admin: StaffCall
  let alice: Session
  let bob: Session
  /** Alice's orders by what became of them. */
  const a = {} as Record<
    | 'auctionPending'
    | 'auctionPaid'
    | 'auctionApplied'
    | 'auctionShipped'
    | 'auctionCompleted'
    | 'mallPending'
    | 'mallPaid'
    | 'mallApplied'
    | 'mallCompleted'
    | 'mallCancelled',
    number
  >
  let bobPaid: number[]
  let paidAt: number

  const mallOrder = async (as: Session) => {
    const item = await createMallItem(admin, { price: 300 * YUAN, stock: 5 })
    const res = await buy(t, as, { productNo: item.productNo, quantity: 1 })
    return res.json<{ data: { orderId: number } }>().data.orderId
  }
  const pay = async (as: Session, orderIds: number[]) => {
    const res = await doPay(t, as, { orderIds, method: 'balance', payPassword: PAY_PASSWORD })
    expect(res.statusCode, res.body).toBe(200)
  }
  /** Where delivery would take them (the delivery module's calls do it in their own tests). */
  const setStatus = (id: number, status: string) =>
    t.database.db.updateTable('orders').set({ status }).where('id', '=', id).execute()
  const group = async (path: string, as: Session = alice, query = '') => {
    const res = await t.call({ method: 'GET', path: `${path}${query}`, as })
    expect(res.statusCode, res.body).toBe(200)
    return res.json<OrdersPage>()
  }
  const ids = (orders: Order[]) => orders.map((o) => o.id)

  beforeAll(async () => {
    t = await createTestApp(kind)
    admin = await staffCaller(t)
    alice = await payer(t)
    bob = await payer(t)
    await fundBalance(t, alice.userId, 100_000 * YUAN)
    await fundBalance(t, bob.userId, 100_000 * YUAN)
    a.auctionPending = await winLot(t, alice, 100 * YUAN)
    a.auctionPaid = await winLot(t, alice, 200 * YUAN)
    a.auctionApplied = await winLot(t, alice, 300 * YUAN)
    a.auctionShipped = await winLot(t, alice, 400 * YUAN)
    a.auctionCompleted = await winLot(t, alice, 500 * YUAN)
    a.mallPending = await mallOrder(alice)
    a.mallPaid = await mallOrder(alice)
    a.mallApplied = await mallOrder(alice)
    a.mallCompleted = await mallOrder(alice)
    a.mallCancelled = await mallOrder(alice)
    const bobWon = await winLot(t, bob, 100 * YUAN)
    const bobBought = await mallOrder(bob)
    paidAt = t.clock.now()
    await pay(alice, [
      a.auctionPaid,
      a.auctionApplied,
      a.auctionShipped,
      a.auctionCompleted,
      a.mallPaid,
      a.mallApplied,
      a.mallCompleted,
    ])
    await pay(bob, [bobWon, bobBought])
    bobPaid = [bobWon, bobBought]
    await setStatus(a.auctionApplied, 'delivery_applied')
    await setStatus(a.mallApplied, 'delivery_applied')
    await setStatus(a.auctionShipped, 'shipped')
    await setStatus(a.auctionCompleted, 'completed')
    await setStatus(a.mallCompleted, 'completed')
    const cancelled = await t.call({
      method: 'GET',
      path: `/user/3_3/order/cancel?orderId=${a.mallCancelled}`,
      as: alice,
    })
    expect(cancelled.statusCode, cancelled.body).toBe(200)
  })
  afterAll(() => t.close())

  it('GET /user/logistic/waiting: my won lots paid or applied for delivery, newest first', async () => {
    const page = await group('/user/logistic/waiting')
    expect(ids(page.data)).toEqual([a.auctionApplied, a.auctionPaid])
    expect(page.total).toBe(2)
    expect(page.data.every((o) => o.kind === 'auction')).toBe(true)
    const bobs = await group('/user/logistic/waiting', bob)
    expect(ids(bobs.data)).toEqual([bobPaid[0]])
  })

  it('GET /user/bplus/queryNoPaymentMark: my mall orders paid or applied for delivery', async () => {
    const page = await group('/user/bplus/queryNoPaymentMark')
    expect(ids(page.data)).toEqual([a.mallApplied, a.mallPaid])
    expect(page.data.every((o) => o.kind === 'mall')).toBe(true)
    expect(ids((await group('/user/bplus/queryNoPaymentMark', bob)).data)).toEqual([bobPaid[1]])
  })

  it('GET /user/order/getUserOrderByBid: my completed orders of both kinds', async () => {
    const page = await group('/user/order/getUserOrderByBid')
    expect(ids(page.data)).toEqual([a.mallCompleted, a.auctionCompleted])
    expect(page.data.every((o) => o.status === 'completed')).toBe(true)
    expect((await group('/user/order/getUserOrderByBid', bob)).total).toBe(0)
  })

  it('orders in storage carry their storage fee so far; the rest do not', async () => {
    const fresh = await group('/user/logistic/waiting')
    const paid = fresh.data.find((o) => o.id === a.auctionPaid)!
    expect(paid.storageFee).toBe(0)
    expect(Date.parse(paid.storageFreeUntil!)).toBeGreaterThan(paidAt + 30 * DAY)
    expect(Date.parse(paid.storageFreeUntil!)).toBeLessThanOrEqual(paidAt + 32 * DAY)
    const applied = fresh.data.find((o) => o.id === a.auctionApplied)!
    expect(applied.storageFee).toBeUndefined()
    // 35 China days after payment: five days past the free thirty, ¥1 a day.
    t.clock.advance(35 * DAY)
    // Sessions last 30 days: sign in again as the same collector.
    alice = await t.signIn(alice.mobile)
    const later = await group('/user/bplus/queryNoPaymentMark')
    expect(later.data.find((o) => o.id === a.mallPaid)!.storageFee).toBe(5 * YUAN)
    const completed = await group('/user/order/getUserOrderByBid')
    expect(completed.data.every((o) => o.storageFee === undefined)).toBe(true)
  })

  it('pages, and turns away signed-out callers', async () => {
    const first = await group('/user/order/getUserOrderByBid', alice, '?page=1&pageSize=1')
    expect(first).toMatchObject({ page: 1, pageSize: 1, total: 2 })
    expect(ids(first.data)).toEqual([a.mallCompleted])
    const second = await group('/user/order/getUserOrderByBid', alice, '?page=2&pageSize=1')
    expect(ids(second.data)).toEqual([a.auctionCompleted])
    for (const path of [
      '/user/logistic/waiting',
      '/user/bplus/queryNoPaymentMark',
      '/user/order/getUserOrderByBid',
    ]) {
      expect((await t.call({ method: 'GET', path })).statusCode, path).toBe(401)
    }
  })
})
