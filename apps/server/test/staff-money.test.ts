import { CHINA_OFFSET_MS } from '@numisma/contracts/dates'
import type { AuditEntry } from '@numisma/contracts/staff'
import type {
  Adjustment,
  LedgerDailyReport,
  MoneyLedgerPage,
  MoneyUser,
  Refund,
} from '@numisma/contracts/staff-money'
import type { StaffRole } from '@numisma/contracts/staff'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { StaffService } from '../src/modules/staff/service'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { createLot, creditDeposit } from './helpers/auction'
import { testDatabases } from './helpers/databases'
import { expectLedgerSound } from './helpers/ledger'
import { buy, createMallItem, type StaffCall, staffCaller } from './helpers/mall-orders'
import { balanceOf, doPay, fundBalance, PAY_PASSWORD, payer, winLot } from './helpers/payments'

/** Issue 12 · the console's money area (role cashier): lookup, adjustments, refunds, daily report. */
const databases = await testDatabases()

type Call = (
  method: 'GET' | 'POST',
  path: string,
  payload?: object,
  headers?: Record<string, string>,
) => Promise<LightMyRequestResponse>

let counter = 0
/** A staff member holding only `roles`, whose calls may carry headers (an Idempotency-Key). */
async function memberCaller(t: TestApp, roles: StaffRole[]): Promise<Call> {
  const password = 'money-test-password'
  const service = StaffService.forDatabase(t.database, t.clock)
  await service.bootstrap(password)
  const username = `money-${process.pid}-${counter++}`
  await service.create({ username, password, roles })
  const login = await t.inject({
    method: 'POST',
    url: '/svc/main/admin/login',
    payload: { username, password },
  })
  const cookie = login.cookies.find((c) => c.name === 'staff_sid')?.value
  if (!cookie) throw new Error(`staff login failed: ${login.body}`)
  return (method, path, payload, headers) =>
    t.inject({
      method,
      url: `/svc/main/admin${path}`,
      cookies: { staff_sid: cookie },
      ...(headers ? { headers } : {}),
      ...(payload ? { payload } : {}),
    })
}

const chinaDay = (ms: number) => new Date(ms + CHINA_OFFSET_MS).toISOString().slice(0, 10)
const key = () => `money-key-${counter++}-${Date.now()}`

describe.each(databases)('money desk on $name', (kind) => {
  let t: TestApp
  let admin: StaffCall
  let cashier: Call
  let cataloguer: Call

  beforeAll(async () => {
    t = await createTestApp(kind)
    admin = await staffCaller(t)
    cashier = await memberCaller(t, ['cashier'])
    cataloguer = await memberCaller(t, ['cataloguer'])
  })
  afterAll(() => t.close())
  afterEach(() => expectLedgerSound(t.database))

  const adjust = (user: Session | number, body: object, headers?: Record<string, string>) =>
    cashier(
      'POST',
      `/money/users/${typeof user === 'number' ? user : user.userId}/adjustments`,
      body,
      headers,
    )
  const refund = (orderId: number, headers?: Record<string, string>) =>
    cashier('POST', `/money/orders/${orderId}/refund`, { reason: '买家协商退款' }, headers)
  const orderRow = (id: number) =>
    t.database.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
  const auditOf = async (target: string): Promise<AuditEntry[]> => {
    const res = await admin('GET', `/audit?target=${encodeURIComponent(target)}`)
    expect(res.statusCode, res.body).toBe(200)
    return res.json<{ data: AuditEntry[] }>().data
  }
  /** A won lot paid from the balance: a paid auction order. */
  const paidAuctionOrder = async (buyer: Session, price = 50_000) => {
    const orderId = await winLot(t, buyer, price)
    const { total } = await orderRow(orderId)
    await fundBalance(t, buyer.userId, total)
    const paid = await doPay(t, buyer, {
      orderIds: [orderId],
      method: 'balance',
      payPassword: PAY_PASSWORD,
    })
    expect(paid.statusCode, paid.body).toBe(200)
    return { orderId, total }
  }

  it('looks a user up by mobile or id: balances, quota, orders, ledger lines', async () => {
    const alice = await t.signIn()
    await fundBalance(t, alice.userId, 12_300)
    await creditDeposit(t, alice.userId, 5_000)
    const byMobile = await cashier('GET', `/money/users?mobile=${alice.mobile}`)
    expect(byMobile.statusCode, byMobile.body).toBe(200)
    const user = byMobile.json<{ data: MoneyUser }>().data
    expect(user).toMatchObject({
      userId: Number(alice.userId),
      mobile: alice.mobile,
      balances: { balance: 12_300, deposit: 5_000, withdrawal: 0 },
      quota: 50_000,
      exposure: 0,
    })
    const byId = await cashier('GET', `/money/users?id=${alice.userId}`)
    expect(byId.json<{ data: MoneyUser }>().data.userId).toBe(Number(alice.userId))
    expect((await cashier('GET', '/money/users?mobile=13000000000')).statusCode).toBe(404)
    expect((await cashier('GET', '/money/users')).statusCode).toBe(400)
    const lines = await cashier('GET', `/money/users/${alice.userId}/ledger?pageSize=1`)
    const page = lines.json<MoneyLedgerPage>()
    expect(page.total).toBe(2)
    expect(page.data).toEqual([
      expect.objectContaining({ account: 'deposit', amount: 5_000, kind: 'deposit' }),
    ])
  })

  it('names what each ledger line belongs to and the reason staff typed, not the memo', async () => {
    const ivy = await payer(t)
    const { orderId } = await paidAuctionOrder(ivy, 20_000)
    expect(
      (
        await adjust(ivy, {
          account: 'balance',
          direction: 'credit',
          amount: 300,
          reason: '补偿运费',
        })
      ).statusCode,
    ).toBe(200)
    expect((await refund(orderId)).statusCode).toBe(200)
    const res = await cashier('GET', `/money/users/${ivy.userId}/ledger?pageSize=100`)
    expect(res.statusCode, res.body).toBe(200)
    const lines = res.json<MoneyLedgerPage>().data
    const byKind = (kind: string) => lines.filter((l) => l.kind === kind)
    expect(byKind('refund')).toEqual([
      expect.objectContaining({ refs: [{ type: 'order', id: orderId }], reason: '买家协商退款' }),
    ])
    expect(byKind('adjustment_credit')).toEqual([
      expect.objectContaining({ refs: [], reason: '补偿运费' }),
    ])
    expect(byKind('payment').length).toBeGreaterThan(0)
    for (const line of byKind('payment')) {
      expect(line).toMatchObject({ refs: [{ type: 'order', id: orderId }], reason: null })
    }
  })

  it('credits and debits a balance with a reason; a debit may not overdraw', async () => {
    const bob = await t.signIn()
    const credit = await adjust(bob, {
      account: 'balance',
      direction: 'credit',
      amount: 1_000,
      reason: '柜台少记',
    })
    expect(credit.statusCode, credit.body).toBe(200)
    expect(credit.json<{ data: Adjustment }>().data).toMatchObject({
      before: { balance: 0 },
      after: { balance: 1_000 },
    })
    const over = await adjust(bob, {
      account: 'balance',
      direction: 'debit',
      amount: 1_001,
      reason: '重复入账冲回',
    })
    expect(over.statusCode).toBe(409)
    expect(over.json()).toMatchObject({ code: 'BALANCE_LOW' })
    const debit = await adjust(bob, {
      account: 'balance',
      direction: 'debit',
      amount: 400,
      reason: '重复入账冲回',
    })
    expect(debit.statusCode, debit.body).toBe(200)
    expect(await balanceOf(t, bob.userId)).toBe(600)
    const transfer = await t.database.db
      .selectFrom('ledger_transfers')
      .selectAll()
      .where('id', '=', debit.json<{ data: Adjustment }>().data.transferId)
      .executeTakeFirstOrThrow()
    expect(transfer).toMatchObject({ kind: 'adjustment_debit', memo: '重复入账冲回' })
    expect(
      (await adjust(bob, { account: 'balance', direction: 'debit', amount: 1, reason: 'x' }))
        .statusCode,
    ).toBe(400)
    expect(
      (
        await adjust(999_999, {
          account: 'balance',
          direction: 'credit',
          amount: 1,
          reason: '不存在',
        })
      ).statusCode,
    ).toBe(404)
  })

  it("credits and debits a deposit, never taking what the user's bids hold", async () => {
    const carol = await t.signIn()
    const credit = await adjust(carol, {
      account: 'deposit',
      direction: 'credit',
      amount: 1_000,
      reason: '保证金补录',
    })
    expect(credit.statusCode, credit.body).toBe(200)
    // Quota 10 000 (deposit × 10), all of it held by a bid of 10 000: no deposit is free.
    const lotId = await createLot(t, { startPrice: 10_000, endsAt: t.clock.now() + 3_600_000 })
    const bid = await t.call({
      method: 'POST',
      path: '/bidding/bid',
      as: carol,
      body: { lotId, amount: 10_000, proxy: false },
    })
    expect(bid.statusCode, bid.body).toBe(200)
    const held = await adjust(carol, {
      account: 'deposit',
      direction: 'debit',
      amount: 1,
      reason: '保证金冲回',
    })
    expect(held.statusCode).toBe(409)
    expect(held.json()).toMatchObject({ code: 'DEPOSIT_IN_USE', details: { free: 0 } })
    await adjust(carol, { account: 'deposit', direction: 'credit', amount: 500, reason: '补足' })
    const free = await adjust(carol, {
      account: 'deposit',
      direction: 'debit',
      amount: 500,
      reason: '保证金冲回',
    })
    expect(free.statusCode, free.body).toBe(200)
    expect(free.json<{ data: Adjustment }>().data.after.deposit).toBe(1_000)
  })

  it('replays an adjustment retried with its Idempotency-Key, refuses the key for another', async () => {
    const dan = await t.signIn()
    const headers = { 'idempotency-key': key() }
    const body = { account: 'balance', direction: 'credit', amount: 700, reason: '补录' }
    const first = await adjust(dan, body, headers)
    const again = await adjust(dan, body, headers)
    expect(first.statusCode, first.body).toBe(200)
    expect(again.json()).toEqual(first.json())
    expect(await balanceOf(t, dan.userId)).toBe(700)
    const other = await adjust(dan, { ...body, amount: 701 }, headers)
    expect(other.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' })
  })

  it('lets concurrent debits take no more than the balance', async () => {
    const erin = await t.signIn()
    await fundBalance(t, erin.userId, 500)
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        adjust(erin, { account: 'balance', direction: 'debit', amount: 100, reason: '冲回' }),
      ),
    )
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(5)
    expect(results.filter((r) => r.json().code === 'BALANCE_LOW')).toHaveLength(5)
    expect(await balanceOf(t, erin.userId)).toBe(0)
  })

  it('refunds a paid auction order once, however many cashiers press at once', async () => {
    const frank = await payer(t)
    const { orderId, total } = await paidAuctionOrder(frank)
    expect(await balanceOf(t, frank.userId)).toBe(0)
    const results = await Promise.all(
      Array.from({ length: 20 }, () => refund(orderId, { 'idempotency-key': key() })),
    )
    const ok = results.filter((r) => r.statusCode === 200)
    expect(ok).toHaveLength(1)
    for (const r of results.filter((r) => r.statusCode !== 200)) {
      expect(r.statusCode).toBe(409)
      expect(r.json()).toMatchObject({ code: 'ORDER_NOT_REFUNDABLE' })
    }
    expect(ok.at(0)?.json<{ data: Refund }>().data).toMatchObject({
      orderId,
      amount: total,
      balanceBefore: 0,
      balanceAfter: total,
    })
    expect(await balanceOf(t, frank.userId)).toBe(total)
    expect(await orderRow(orderId)).toMatchObject({ status: 'cancelled' })
    const refunds = await t.database.db
      .selectFrom('ledger_transfers')
      .select('id')
      .where('kind', '=', 'refund')
      .where('memo', 'like', `order ${orderId}:%`)
      .execute()
    expect(refunds).toHaveLength(1)
    const desk = await cashier('GET', `/money/orders/${orderId}`)
    expect(desk.json()).toMatchObject({
      data: { status: 'cancelled', refusal: 'ALREADY_CANCELLED' },
    })
  })

  it('replays a refund retried with its key', async () => {
    const gina = await payer(t)
    const { orderId } = await paidAuctionOrder(gina, 30_000)
    const headers = { 'idempotency-key': key() }
    const first = await refund(orderId, headers)
    const again = await refund(orderId, headers)
    expect(first.statusCode, first.body).toBe(200)
    expect(again.statusCode).toBe(200)
    expect(again.json()).toEqual(first.json())
  })

  it('refunds a paid mall order: stock, sold count and coupon come back', async () => {
    const hank = await payer(t)
    const item = await createMallItem(admin, { price: 8_800, stock: 10 })
    const coupon = await admin('POST', '/coupons', {
      title: '满50减10',
      kind: 'amount',
      threshold: 5_000,
      amount: 1_000,
      total: 10,
      perUser: 1,
      startsAt: new Date(t.clock.now() - 60_000).toISOString(),
      endsAt: new Date(t.clock.now() + 86_400_000).toISOString(),
    })
    expect(coupon.statusCode, coupon.body).toBe(200)
    const received = await t.call({
      method: 'POST',
      path: `/api/user/receiveCoupon/${coupon.json<{ data: { id: number } }>().data.id}`,
      as: hank,
    })
    expect(received.statusCode, received.body).toBe(200)
    const userCouponId = received.json<{ data: { userCouponId: number } }>().data.userCouponId
    const placed = await buy(t, hank, { productNo: item.productNo, quantity: 2, userCouponId })
    const orderId = placed.json<{ data: { orderId: number } }>().data.orderId
    expect(orderId, placed.body).toBeGreaterThan(0)
    await fundBalance(t, hank.userId, 16_600)
    const paid = await doPay(t, hank, {
      orderIds: [orderId],
      method: 'balance',
      payPassword: PAY_PASSWORD,
    })
    expect(paid.statusCode, paid.body).toBe(200)
    const itemRow = () =>
      t.database.db
        .selectFrom('mall_items')
        .select(['stock', 'sold'])
        .where('id', '=', item.id)
        .executeTakeFirstOrThrow()
    expect(await itemRow()).toEqual({ stock: 8, sold: 2 })
    const res = await refund(orderId)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json<{ data: Refund }>().data).toMatchObject({ amount: 16_600, kind: 'mall' })
    expect(await balanceOf(t, hank.userId)).toBe(16_600)
    expect(await itemRow()).toEqual({ stock: 10, sold: 0 })
    const userCoupon = await t.database.db
      .selectFrom('user_coupons')
      .select(['status', 'order_id', 'used_at'])
      .where('id', '=', userCouponId)
      .executeTakeFirstOrThrow()
    expect(userCoupon).toEqual({ status: 'usable', order_id: null, used_at: null })
  })

  it('refuses to refund an unpaid order or one applied for delivery', async () => {
    const ivan = await payer(t)
    const unpaid = await winLot(t, ivan, 20_000)
    const refused = await refund(unpaid)
    expect(refused.statusCode).toBe(409)
    expect(refused.json()).toMatchObject({
      code: 'ORDER_NOT_REFUNDABLE',
      details: { reason: 'NOT_PAID' },
    })
    const { orderId } = await paidAuctionOrder(ivan, 20_000)
    await t.database.db
      .updateTable('orders')
      .set({ status: 'delivery_applied' })
      .where('id', '=', orderId)
      .execute()
    const applied = await refund(orderId)
    expect(applied.json()).toMatchObject({
      code: 'ORDER_NOT_REFUNDABLE',
      details: { reason: 'DELIVERY_APPLIED' },
    })
    expect((await refund(999_999)).statusCode).toBe(404)
  })

  it('reports the day: transfers by kind, accounts rolled forward, balanced', async () => {
    const judy = await payer(t)
    await adjust(judy, { account: 'balance', direction: 'credit', amount: 2_000, reason: '补录' })
    await adjust(judy, { account: 'balance', direction: 'debit', amount: 500, reason: '冲回' })
    const { orderId } = await paidAuctionOrder(judy, 10_000)
    await refund(orderId)
    const today = chinaDay(t.clock.now())
    const res = await cashier('GET', `/money/ledger/daily?date=${today}`)
    expect(res.statusCode, res.body).toBe(200)
    const report = res.json<{ data: LedgerDailyReport }>().data
    expect(report.check).toMatchObject({ balanced: true, postingsSum: 0, closingSum: 0 })
    const kinds = report.transfers.map((g) => g.kind)
    expect(kinds).toEqual(
      expect.arrayContaining(['adjustment_credit', 'adjustment_debit', 'refund', 'payment']),
    )
    const balance = report.accounts.find((a) => a.kind === 'balance')
    expect(balance?.rollsForward).toBe(true)
    // Closing is the stored balances now (nothing after today): the sum of user balances.
    const stored = await t.database.db
      .selectFrom('ledger_accounts')
      .select('balance')
      .where('kind', '=', 'balance')
      .execute()
    expect(balance?.closing).toBe(stored.reduce((s, r) => s + r.balance, 0))
    // Tomorrow nothing has moved yet: it opens where today closed.
    const tomorrow = chinaDay(t.clock.now() + 86_400_000)
    const next = (await cashier('GET', `/money/ledger/daily?date=${tomorrow}`)).json<{
      data: LedgerDailyReport
    }>().data
    expect(next.transferCount).toBe(0)
    expect(next.accounts.find((a) => a.kind === 'balance')?.opening).toBe(balance?.closing)

    const csv = await cashier('GET', `/money/ledger/daily.csv?date=${today}`)
    expect(csv.statusCode).toBe(200)
    expect(csv.headers['content-type']).toMatch(/^text\/csv/)
    expect(csv.body).toContain('平衡,是')
    // The page's words for Excel (BOM), the code beside them for machines.
    expect(csv.body.startsWith('\uFEFF')).toBe(true)
    expect(csv.body).toContain('\r\n人工调增,')
    expect(csv.body).toMatch(/\r\n用户余额,[^\r]*,balance\r\n/)
    expect(csv.body).not.toMatch(/\r\nadjustment_credit,/)
    expect((await cashier('GET', '/money/ledger/daily?date=2026-13-40')).statusCode).toBe(400)
  })

  it('shows a stored balance that drifted from its postings as unbalanced', async () => {
    const kim = await t.signIn()
    await fundBalance(t, kim.userId, 100)
    const drift = (by: number) =>
      t.database.db
        .updateTable('ledger_accounts')
        .set((eb) => ({ balance: eb('balance', '+', by) }))
        .where('user_id', '=', Number(kim.userId))
        .where('kind', '=', 'balance')
        .execute()
    await drift(1)
    try {
      const report = (
        await cashier('GET', `/money/ledger/daily?date=${chinaDay(t.clock.now())}`)
      ).json<{ data: LedgerDailyReport }>().data
      expect(report.check.balanced).toBe(false)
      expect(report.accounts.find((a) => a.kind === 'balance')?.rollsForward).toBe(false)
    } finally {
      await drift(-1)
    }
  })

  it('answers 403 to a cataloguer on every money route', async () => {
    const calls: [Parameters<Call>[0], string, object?][] = [
      ['GET', '/money/users?id=1'],
      ['GET', '/money/users/1/ledger'],
      [
        'POST',
        '/money/users/1/adjustments',
        { account: 'balance', direction: 'credit', amount: 1, reason: '测试' },
      ],
      ['GET', '/money/orders/1'],
      ['POST', '/money/orders/1/refund', { reason: '测试' }],
      ['GET', '/money/refunds'],
      ['GET', '/money/ledger/daily?date=2026-01-01'],
      ['GET', '/money/ledger/daily.csv?date=2026-01-01'],
      ['GET', '/remittances'],
      ['GET', '/withdrawals'],
    ]
    for (const [method, path, body] of calls) {
      const res = await cataloguer(method, path, body)
      expect(res.statusCode, `${method} ${path}`).toBe(403)
    }
  })

  it('writes audit lines naming the user or order with balances before and after', async () => {
    const lee = await payer(t)
    await adjust(lee, { account: 'balance', direction: 'credit', amount: 300, reason: '补录' })
    await adjust(lee, { account: 'balance', direction: 'debit', amount: 301, reason: '冲回' })
    const lines = await auditOf(`user:${lee.userId}`)
    expect(lines[0]).toMatchObject({ statusCode: 409, errorCode: 'BALANCE_LOW' })
    expect(lines[1]).toMatchObject({
      statusCode: 200,
      before: { balance: 0, deposit: 0, withdrawal: 0 },
      after: { balance: 300, deposit: 0, withdrawal: 0 },
    })
    const { orderId, total } = await paidAuctionOrder(lee, 10_000)
    await refund(orderId)
    const [line] = await auditOf(`order:${orderId}`)
    expect(line).toMatchObject({
      statusCode: 200,
      before: { status: 'paid', balance: 300 },
      after: { status: 'cancelled', balance: 300 + total },
    })
    const listed = await cashier('GET', '/money/refunds?pageSize=5')
    expect(listed.json<{ data: Refund[] }>().data[0]).toMatchObject({ orderId })
  })
})
