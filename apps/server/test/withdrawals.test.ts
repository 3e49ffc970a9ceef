import type { StaffWithdrawal, Withdrawal } from '@numisma/contracts/account'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { createLot, creditDeposit } from './helpers/auction'
import { testDatabases } from './helpers/databases'
import { expectLedgerSound } from './helpers/ledger'
import { type StaffCall, staffCaller } from './helpers/mall-orders'
import { balanceOf, creditBalance } from './helpers/money'
import { PAY_PASSWORD, payer } from './helpers/payments'

/** Issue 9: withdrawals reserved at once, paid or refused by staff — on both databases. */
const databases = await testDatabases()
const YUAN = 100

describe.each(databases)('withdrawals on $name', (kind) => {
  let t: TestApp
  let admin: StaffCall

  beforeAll(async () => {
    t = await createTestApp(kind)
    admin = await staffCaller(t)
  })
  afterAll(() => t.close())
  afterEach(() => expectLedgerSound(t.database))

  const request = (as: Session, body: object, headers?: Record<string, string>) =>
    t.call({
      method: 'POST',
      path: '/user/finance/withdrawals',
      as,
      headers,
      body: {
        source: 'balance',
        bankName: '中国建设银行北京分行',
        accountName: '张三',
        accountNo: '6217000010001234567',
        payPassword: PAY_PASSWORD,
        ...body,
      },
    })
  const requested = async (as: Session, body: object): Promise<Withdrawal> => {
    const res = await request(as, body)
    expect(res.statusCode, res.body).toBe(200)
    return res.json<{ data: Withdrawal }>().data
  }
  const bid = (as: Session, lotId: number, amount: number) =>
    t.call({ method: 'POST', path: '/bidding/bid', as, body: { lotId, amount, proxy: false } })

  it('reserves from the balance at once, masks the account, and refuses more than the balance', async () => {
    const alice = await payer(t)
    await creditBalance(t, alice, 500 * YUAN)
    const low = await request(alice, { amount: 500 * YUAN + 1 })
    expect(low.statusCode).toBe(409)
    expect(low.json()).toMatchObject({ code: 'BALANCE_LOW', details: { balance: 500 * YUAN } })

    const w = await requested(alice, { amount: 200 * YUAN })
    expect(w).toMatchObject({
      amount: 200 * YUAN,
      source: 'balance',
      status: 'requested',
      accountNo: '***************4567',
      decidedAt: null,
    })
    expect(await balanceOf(t, alice, 'balance')).toBe(300 * YUAN)
    expect(await balanceOf(t, alice, 'withdrawal')).toBe(200 * YUAN)
    const list = await t.call({ method: 'GET', path: '/user/finance/withdrawals', as: alice })
    expect(list.json()).toEqual({ data: [w] })
  })

  it('takes from the deposit only what exposure leaves free (DEPOSIT_IN_USE beyond)', async () => {
    const bob = await payer(t)
    await creditDeposit(t, bob.userId, 1_000 * YUAN) // quota 10,000 yuan
    const lotId = await createLot(t, { startPrice: 6_000 * YUAN })
    expect((await bid(bob, lotId, 6_000 * YUAN)).statusCode).toBe(200)
    // 6,000 yuan led needs 600 of deposit: 400 free.
    const over = await request(bob, { source: 'deposit', amount: 400 * YUAN + 1 })
    expect(over.statusCode).toBe(409)
    expect(over.json()).toMatchObject({ code: 'DEPOSIT_IN_USE', details: { free: 400 * YUAN } })
    await requested(bob, { source: 'deposit', amount: 400 * YUAN })
    expect(await balanceOf(t, bob, 'deposit')).toBe(600 * YUAN)
    const none = await request(bob, { source: 'deposit', amount: 1 })
    expect(none.json().code).toBe('DEPOSIT_IN_USE')
  })

  it('a bid and a deposit withdrawal at once never both count on the same deposit', async () => {
    for (let round = 0; round < 5; round++) {
      const carol = await payer(t)
      await creditDeposit(t, carol.userId, 1_000 * YUAN) // quota 10,000 yuan
      const lotId = await createLot(t, { startPrice: 10_000 * YUAN })
      const [placed, withdrawn] = await Promise.all([
        bid(carol, lotId, 10_000 * YUAN),
        request(carol, { source: 'deposit', amount: 1 * YUAN }),
      ])
      // Either may win, never both: 10,000 yuan led needs all 1,000 of the deposit.
      expect([placed.statusCode, withdrawn.statusCode].filter((s) => s === 200)).toHaveLength(1)
      const deposit = await balanceOf(t, carol, 'deposit')
      const led = placed.statusCode === 200 ? 10_000 * YUAN : 0
      // The quota still covers what is led, and a withdrawal took the deposit only when nothing was.
      expect(deposit * 10).toBeGreaterThanOrEqual(led)
      expect(deposit).toBe(placed.statusCode === 200 ? 1_000 * YUAN : 999 * YUAN)
    }
  })

  it('staff pay sends the held money out; refusing returns it where it came from; each once', async () => {
    const dave = await payer(t)
    await creditBalance(t, dave, 300 * YUAN)
    await creditDeposit(t, dave.userId, 500 * YUAN)
    const paid = await requested(dave, { amount: 100 * YUAN })
    const refused = await requested(dave, { source: 'deposit', amount: 200 * YUAN })

    const list = await admin('GET', '/withdrawals?status=requested')
    const forStaff = list.json<{ data: StaffWithdrawal[] }>().data.find((w) => w.id === paid.id)
    expect(forStaff).toMatchObject({
      userId: Number(dave.userId),
      accountNo: '6217000010001234567',
    })

    const pay = await admin('POST', `/withdrawals/${paid.id}/pay`, { note: '已转账' })
    expect(pay.statusCode, pay.body).toBe(200)
    expect(pay.json().data).toMatchObject({ status: 'paid', note: '已转账' })
    const refuse = await admin('POST', `/withdrawals/${refused.id}/refuse`, { note: '户名不符' })
    expect(refuse.json().data).toMatchObject({ status: 'refused', note: '户名不符' })
    expect(await balanceOf(t, dave, 'balance')).toBe(200 * YUAN)
    expect(await balanceOf(t, dave, 'deposit')).toBe(500 * YUAN)
    expect(await balanceOf(t, dave, 'withdrawal')).toBe(0)

    for (const [id, decision] of [
      [paid.id, 'refuse'],
      [refused.id, 'pay'],
    ] as const) {
      const again = await admin('POST', `/withdrawals/${id}/${decision}`, {})
      expect(again.statusCode).toBe(409)
      expect(again.json().code).toBe('NOT_PENDING')
    }
    const mine = await t.call({ method: 'GET', path: '/user/finance/withdrawals', as: dave })
    expect(mine.json<{ data: Withdrawal[] }>().data.map((w) => [w.id, w.status])).toEqual([
      [refused.id, 'refused'],
      [paid.id, 'paid'],
    ])
    expect((await admin('POST', '/withdrawals/99999/pay', {})).statusCode).toBe(404)
  })

  it('twenty concurrent pay and refuse decisions: exactly one applies', async () => {
    const erin = await payer(t)
    await creditBalance(t, erin, 100 * YUAN)
    const w = await requested(erin, { amount: 100 * YUAN })
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        admin('POST', `/withdrawals/${w.id}/${i % 2 === 0 ? 'pay' : 'refuse'}`, {}),
      ),
    )
    const ok = results.filter((r) => r.statusCode === 200)
    expect(ok).toHaveLength(1)
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(19)
    const outcome = ok[0]!.json<{ data: StaffWithdrawal }>().data.status
    expect(await balanceOf(t, erin, 'balance')).toBe(outcome === 'paid' ? 0 : 100 * YUAN)
    expect(await balanceOf(t, erin, 'withdrawal')).toBe(0)
  })

  it('reserves once for a request sent twice under one Idempotency-Key, and never beyond the balance', async () => {
    const fay = await payer(t)
    await creditBalance(t, fay, 100 * YUAN)
    const headers = { 'idempotency-key': 'withdraw-retry-0001' }
    const [a, b] = await Promise.all([
      request(fay, { amount: 60 * YUAN }, headers),
      request(fay, { amount: 60 * YUAN }, headers),
    ])
    expect(a.statusCode).toBe(200)
    expect(b.body).toBe(a.body)
    expect(await balanceOf(t, fay, 'balance')).toBe(40 * YUAN)
    // Ten different requests of 10 yuan against the 40 left: exactly four go through.
    const many = await Promise.all(
      Array.from({ length: 10 }, () => request(fay, { amount: 10 * YUAN })),
    )
    expect(many.filter((r) => r.statusCode === 200)).toHaveLength(4)
    expect(many.filter((r) => r.json().code === 'BALANCE_LOW')).toHaveLength(6)
    expect(await balanceOf(t, fay, 'balance')).toBe(0)
    const other = await payer(t)
    const list = await t.call({ method: 'GET', path: '/user/finance/withdrawals', as: other })
    expect(list.json()).toEqual({ data: [] })
  })

  it('asks the payment password before any money moves: wrong, locked after five, none set', async () => {
    const gus = await payer(t)
    await creditBalance(t, gus, 100 * YUAN)
    const missing = await request(gus, { amount: 10 * YUAN, payPassword: undefined })
    expect(missing.json()).toMatchObject({ code: 'PAY_PASSWORD_WRONG', details: { missing: true } })
    const wrong = await request(gus, { amount: 10 * YUAN, payPassword: '000000' })
    expect(wrong.statusCode).toBe(400)
    expect(wrong.json()).toMatchObject({ code: 'PAY_PASSWORD_WRONG', details: { triesLeft: 4 } })
    expect((await request(gus, { amount: 10 * YUAN, payPassword: '12345' })).statusCode).toBe(400)
    for (let i = 0; i < 3; i++) await request(gus, { amount: 10 * YUAN, payPassword: '000000' })
    const locked = await request(gus, { amount: 10 * YUAN, payPassword: '000000' })
    expect(locked.json().code).toBe('PAY_LOCKED')
    // Locked: even the right password is refused, and nothing left the balance.
    expect((await request(gus, { amount: 10 * YUAN })).json().code).toBe('PAY_LOCKED')
    expect(await balanceOf(t, gus, 'balance')).toBe(100 * YUAN)
    expect(await balanceOf(t, gus, 'withdrawal')).toBe(0)

    const hal = await t.signIn()
    await creditBalance(t, hal, 100 * YUAN)
    const unset = await request(hal, { amount: 10 * YUAN })
    expect(unset.json().code).toBe('PAY_PASSWORD_NOT_SET')
    expect(await balanceOf(t, hal, 'balance')).toBe(100 * YUAN)
  })

  it('a retry of a committed withdrawal replays without asking the password again', async () => {
    const ida = await payer(t)
    await creditBalance(t, ida, 100 * YUAN)
    const headers = { 'idempotency-key': 'withdraw-replay-0001' }
    const first = await request(ida, { amount: 30 * YUAN }, headers)
    expect(first.statusCode, first.body).toBe(200)
    // Then five wrong tries lock payment; the retried request (its answer lost) still replays.
    for (let i = 0; i < 5; i++) await request(ida, { amount: 1 * YUAN, payPassword: '000000' })
    expect((await request(ida, { amount: 1 * YUAN })).json().code).toBe('PAY_LOCKED')
    const again = await request(ida, { amount: 30 * YUAN, payPassword: '000000' }, headers)
    expect(again.statusCode).toBe(200)
    expect(again.body).toBe(first.body)
    // A new key is a new withdrawal: the lock holds.
    const fresh = await request(
      ida,
      { amount: 30 * YUAN },
      { 'idempotency-key': 'withdraw-replay-0002' },
    )
    expect(fresh.json().code).toBe('PAY_LOCKED')
    expect(await balanceOf(t, ida, 'balance')).toBe(70 * YUAN)
  })
})
