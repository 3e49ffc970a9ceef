import { REMITTANCE_HOLD_MS } from '@numisma/domain/fees'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { couponHoldsFor } from '../src/modules/coupons/holds'
import { ordersAwaitingRemittance } from '../src/modules/finance/awaiting-remittance'
import { MallOrderExpiry } from '../src/modules/orders/expiry'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { buy, createMallItem, type StaffCall, staffCaller } from './helpers/mall-orders'
import { addCompanyBanks } from './helpers/money'
import { doPay, payer } from './helpers/payments'

/**
 * A mall order whose buyer chose bank remittance holds its stock and coupon for
 * REMITTANCE_HOLD_MS from that choice, then expires like any unpaid mall order — unless a
 * remittance notice waiting for staff names it (docs/decisions/012, amendment). Both databases.
 */
const databases = await testDatabases()
const YUAN = 100
const MINUTE = 60_000

describe.each(databases)('the remittance hold on $name', (kind) => {
  let t: TestApp
  let admin: StaffCall
  let bankIds: number[]

  beforeAll(async () => {
    t = await createTestApp(kind)
    bankIds = await addCompanyBanks(t)
  })
  afterAll(() => t.close())
  // Each test moves the clock days on; staff sessions do not last that long.
  beforeEach(async () => {
    admin = await staffCaller(t)
  })

  const sweep = () =>
    MallOrderExpiry.forDatabase(t.database, t.clock, couponHoldsFor(t.database), {
      awaiting: ordersAwaitingRemittance,
    }).sweep()
  const order = (id: number) =>
    t.database.db
      .selectFrom('orders')
      .select(['status', 'due_at', 'pay_method'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  const stockOf = async (id: number) =>
    (
      await t.database.db
        .selectFrom('mall_items')
        .select('stock')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).stock
  const userCoupon = (id: number) =>
    t.database.db
      .selectFrom('user_coupons')
      .select(['status', 'order_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  const receiveCoupon = async (user: Session) => {
    const created = await admin('POST', '/coupons', {
      title: '满100减20',
      kind: 'amount',
      threshold: 100 * YUAN,
      amount: 20 * YUAN,
      total: 100,
      perUser: 5,
      startsAt: new Date(t.clock.now() - MINUTE).toISOString(),
      endsAt: new Date(t.clock.now() + 30 * 24 * 60 * MINUTE).toISOString(),
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
  const chooseRemittance = async (as: Session, orderId: number) => {
    const res = await doPay(t, as, { orderIds: [orderId], method: 'remittance' })
    expect(res.statusCode, res.body).toBe(200)
  }

  it('holds stock and coupon for three days from the choice, then returns both exactly once', async () => {
    const ann = await payer(t)
    const item = await createMallItem(admin, { price: 150 * YUAN, stock: 5 })
    const userCouponId = await receiveCoupon(ann)
    const placed = await buy(t, ann, { productNo: item.productNo, quantity: 2, userCouponId })
    const orderId = placed.json().data.orderId as number
    expect(await stockOf(item.id)).toBe(3)

    t.clock.advance(10 * MINUTE)
    const chosenAt = t.clock.now()
    await chooseRemittance(ann, orderId)
    expect(await order(orderId)).toMatchObject({
      pay_method: 'remittance',
      due_at: chosenAt + REMITTANCE_HOLD_MS,
    })
    // Choosing it again two days on does not move the deadline: three days from the first choice.
    t.clock.advance(2 * 24 * 60 * MINUTE)
    await chooseRemittance(ann, orderId)
    expect((await order(orderId)).due_at).toBe(chosenAt + REMITTANCE_HOLD_MS)

    t.clock.set(chosenAt + REMITTANCE_HOLD_MS - MINUTE)
    expect(await sweep()).not.toContain(orderId)
    expect((await order(orderId)).status).toBe('pending_payment')

    t.clock.set(chosenAt + REMITTANCE_HOLD_MS)
    const [first, second] = await Promise.all([sweep(), sweep()])
    expect([...first, ...second].filter((id) => id === orderId)).toHaveLength(1)
    expect((await order(orderId)).status).toBe('cancelled')
    expect(await stockOf(item.id)).toBe(5)
    expect(await userCoupon(userCouponId)).toEqual({ status: 'usable', order_id: null })
    expect(await sweep()).not.toContain(orderId)
    expect(await stockOf(item.id)).toBe(5)
  })

  it('keeps an order past its hold while a notice waiting for staff names it; a rejection lets it go', async () => {
    const ben = await payer(t)
    const item = await createMallItem(admin, { price: 80 * YUAN, stock: 2 })
    const orderId = (await buy(t, ben, { productNo: item.productNo, quantity: 1 })).json().data
      .orderId as number
    await chooseRemittance(ben, orderId)
    const notice = await t.call({
      method: 'POST',
      path: '/user/finance/@remittance',
      as: ben,
      body: {
        companyBankId: bankIds[0],
        amount: 80 * YUAN,
        payerName: '李四',
        payerBank: '中国银行',
        remittedOn: new Date(t.clock.now() + 8 * 60 * MINUTE).toISOString().slice(0, 10),
        orderIds: [orderId],
      },
    })
    expect(notice.statusCode, notice.body).toBe(200)

    t.clock.advance(REMITTANCE_HOLD_MS + MINUTE)
    expect(await sweep()).not.toContain(orderId)
    expect((await order(orderId)).status).toBe('pending_payment')
    expect(await stockOf(item.id)).toBe(1)

    // Staff sessions do not last three days: sign staff in again.
    admin = await staffCaller(t)
    const rejected = await admin('POST', `/remittances/${notice.json().data.id}/reject`, {})
    expect(rejected.statusCode, rejected.body).toBe(200)
    expect(await sweep()).toContain(orderId)
    expect((await order(orderId)).status).toBe('cancelled')
    expect(await stockOf(item.id)).toBe(2)
  })

  const fileNotice = (as: Session, orderIds: number[], amount: number) =>
    t.call({
      method: 'POST',
      path: '/user/finance/@remittance',
      as,
      body: {
        companyBankId: bankIds[0],
        amount,
        payerName: '李四',
        payerBank: '中国银行',
        remittedOn: new Date(t.clock.now() + 8 * 60 * MINUTE).toISOString().slice(0, 10),
        orderIds,
      },
    })

  it('a notice cannot revive a mall order past its 30 minutes: refused as doPay refuses it, and the order expires', async () => {
    const dan = await payer(t)
    const item = await createMallItem(admin, { price: 80 * YUAN, stock: 1 })
    const orderId = (await buy(t, dan, { productNo: item.productNo, quantity: 1 })).json().data
      .orderId as number
    t.clock.advance(31 * MINUTE)
    const paid = await doPay(t, dan, { orderIds: [orderId], method: 'remittance' })
    expect(paid.json().code).toBe('ORDER_NOT_PAYABLE')
    const filed = await fileNotice(dan, [orderId], 80 * YUAN)
    expect(filed.statusCode, filed.body).toBe(409)
    expect(filed.json()).toMatchObject({
      code: 'ORDER_NOT_PAYABLE',
      details: { orderIds: [orderId] },
    })
    expect(await order(orderId)).toMatchObject({ status: 'pending_payment', pay_method: null })
    expect(await sweep()).toContain(orderId)
    expect(await stockOf(item.id)).toBe(1)
  })

  it('a notice short of the order keeps nothing past the hold (a 1-fen notice is accepted, holds nothing)', async () => {
    const eve = await payer(t)
    const item = await createMallItem(admin, { price: 80 * YUAN, stock: 1 })
    const orderId = (await buy(t, eve, { productNo: item.productNo, quantity: 1 })).json().data
      .orderId as number
    await chooseRemittance(eve, orderId)
    const filed = await fileNotice(eve, [orderId], 1)
    expect(filed.statusCode, filed.body).toBe(200)
    t.clock.advance(REMITTANCE_HOLD_MS + MINUTE)
    expect(await sweep()).toContain(orderId)
    expect((await order(orderId)).status).toBe('cancelled')
    expect(await stockOf(item.id)).toBe(1)
  })

  it('more waiting orders than a batch do not stop the ones behind them from expiring', async () => {
    const cat = await payer(t)
    const item = await createMallItem(admin, { price: 1 * YUAN, stock: 200 })
    const ids: number[] = []
    for (let i = 0; i < 101; i++) {
      ids.push(
        (await buy(t, cat, { productNo: item.productNo, quantity: 1 })).json().data
          .orderId as number,
      )
    }
    const [last, ...waiting] = [ids.at(-1)!, ...ids.slice(0, -1)]
    // Notices name the first hundred (50 each); the last is due after them and named by none.
    for (const chunk of [waiting.slice(0, 50), waiting.slice(50)]) {
      for (const id of chunk) await chooseRemittance(cat, id)
      const res = await t.call({
        method: 'POST',
        path: '/user/finance/@remittance',
        as: cat,
        body: {
          companyBankId: bankIds[0],
          amount: 50 * YUAN,
          payerName: '王五',
          payerBank: '中国银行',
          remittedOn: new Date(t.clock.now() + 8 * 60 * MINUTE).toISOString().slice(0, 10),
          orderIds: chunk,
        },
      })
      expect(res.statusCode, res.body).toBe(200)
    }
    t.clock.advance(MINUTE)
    await chooseRemittance(cat, last)
    t.clock.advance(REMITTANCE_HOLD_MS + MINUTE)
    expect(await sweep()).toEqual([last])
  })
})
