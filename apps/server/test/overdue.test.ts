import type { Forfeit } from '@numisma/contracts/account'
import { CHINA_OFFSET_MS } from '@numisma/contracts/dates'
import { AUCTION_PAYMENT_DAYS } from '@numisma/domain/fees'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { overdueJobFor } from '../src/app'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { createLot, creditDeposit } from './helpers/auction'
import { testDatabases } from './helpers/databases'
import { expectLedgerSound } from './helpers/ledger'
import { type StaffCall, staffCaller } from './helpers/mall-orders'
import { addCompanyBanks, balanceOf, winLot } from './helpers/money'
import { PAY_PASSWORD, payer } from './helpers/payments'

/** Issue 9, DESIGN §4: overdue winners — on both databases, with a fake clock. */
const databases = await testDatabases()
const YUAN = 100
const DAY = 24 * 60 * 60_000
const chinaDay = (ms: number) => new Date(ms + CHINA_OFFSET_MS).toISOString().slice(0, 10)

describe.each(databases)('overdue winners on $name', (kind) => {
  let t: TestApp
  let admin: StaffCall

  beforeAll(async () => {
    t = await createTestApp(kind)
  })
  afterAll(() => t.close())
  afterEach(() => expectLedgerSound(t.database))

  const statusOf = async (orderId: number) =>
    (
      await t.database.db
        .selectFrom('orders')
        .select('status')
        .where('id', '=', orderId)
        .executeTakeFirstOrThrow()
    ).status
  const bid = (as: Session, lotId: number, amount: number) =>
    t.call({ method: 'POST', path: '/bidding/bid', as, body: { lotId, amount, proxy: false } })
  /** Staff sign in afresh: a staff session lasts 12 hours, and the clock moves by days here. */
  const forfeit = async (orderId: number) => {
    admin = await staffCaller(t)
    return admin('POST', `/orders/${orderId}/forfeit`)
  }
  /** Two instances' jobs at once, as on two servers over one database. */
  const sweepTwice = async () => {
    const jobs = [overdueJobFor(t.database, t.clock), overdueJobFor(t.database, t.clock)]
    return (await Promise.all(jobs.map((j) => j.sweep()))).flat()
  }

  it('three days after the close an unpaid won lot becomes overdue, once across two instances', async () => {
    const alice = await t.signIn()
    const unpaid = await winLot(t, alice, 1_000 * YUAN)
    const paid = await winLot(t, alice, 2_000 * YUAN)
    // A paid order is never overdue.
    await t.database.db
      .updateTable('orders')
      .set({ status: 'paid' })
      .where('id', '=', paid.orderId)
      .execute()
    // The first lot closed a minute before the second: its order falls due first.
    t.clock.advance(AUCTION_PAYMENT_DAYS * DAY - 2 * 60_000)
    expect(await sweepTwice()).toEqual([])
    expect(await statusOf(unpaid.orderId)).toBe('pending_payment')
    t.clock.advance(2 * 60_000)
    const marked = await sweepTwice()
    expect(marked).toContain(unpaid.orderId)
    expect(new Set(marked).size).toBe(marked.length)
    expect(marked).not.toContain(paid.orderId)
    expect(await statusOf(unpaid.orderId)).toBe('overdue')
    expect(await statusOf(paid.orderId)).toBe('paid')
    expect(await sweepTwice()).toEqual([])
  })

  it('an overdue winner cannot bid (BIDDER_OVERDUE) nor withdraw the deposit their lot claims; their order still counts as exposure', async () => {
    const bob = await payer(t)
    const won = await winLot(t, bob, 500 * YUAN, { deposit: 1_000 * YUAN })
    t.clock.advance(AUCTION_PAYMENT_DAYS * DAY)
    await sweepTwice()
    expect(await statusOf(won.orderId)).toBe('overdue')

    const lotId = await createLot(t, { startPrice: 100 * YUAN })
    const refused = await bid(bob, lotId, 100 * YUAN)
    expect(refused.statusCode).toBe(409)
    expect(refused.json().code).toBe('BIDDER_OVERDUE')
    const history = await t.call({ method: 'GET', path: `/bidding/${lotId}` })
    expect(history.json().data).toEqual([])

    const withdraw = await t.call({
      method: 'POST',
      path: '/user/finance/withdrawals',
      as: bob,
      body: {
        amount: 501 * YUAN,
        source: 'deposit',
        bankName: '中国银行',
        accountName: '李四',
        accountNo: '6216600000001111',
        payPassword: PAY_PASSWORD,
      },
    })
    // Hammer 500 of a 1,000 deposit: the claim is 500, and the same rule as the move back judges it.
    expect(withdraw.json()).toMatchObject({
      code: 'DEPOSIT_IN_USE',
      details: { free: 500 * YUAN, overdue: true, overdueClaim: 500 * YUAN },
    })
    const stats = await t.call({ method: 'GET', path: '/user/@statistics', as: bob })
    expect(stats.json().data.exposure).toBe(won.total)
  })

  it('an overdue order may still be paid (here by a confirmed remittance), and its winner bids again', async () => {
    const gina = await t.signIn()
    const won = await winLot(t, gina, 400 * YUAN)
    t.clock.advance(AUCTION_PAYMENT_DAYS * DAY)
    await sweepTwice()
    expect(await statusOf(won.orderId)).toBe('overdue')
    const [bankId] = await addCompanyBanks(t)
    const notice = await t.call({
      method: 'POST',
      path: '/user/finance/@remittance',
      as: gina,
      body: {
        companyBankId: bankId,
        amount: won.total,
        payerName: '王五',
        payerBank: '中国农业银行',
        remittedOn: '2026-11-27',
        orderIds: [won.orderId],
      },
    })
    expect(notice.statusCode, notice.body).toBe(200)
    admin = await staffCaller(t)
    const confirmed = await admin('POST', `/remittances/${notice.json().data.id}/confirm`, {})
    expect(confirmed.statusCode, confirmed.body).toBe(200)
    expect(await statusOf(won.orderId)).toBe('paid')
    expect(await balanceOf(t, gina, 'balance')).toBe(0)
    const lotId = await createLot(t, { startPrice: 100 * YUAN })
    expect((await bid(gina, lotId, 100 * YUAN)).statusCode).toBe(200)
  })

  it('staff take min(hammer, deposit) from the deposit once; the winner may bid again', async () => {
    const carol = await t.signIn()
    // Hammer 3,000 yuan, deposit 1,000: the deposit is all there is to take.
    const capped = await winLot(t, carol, 3_000 * YUAN, { deposit: 1_000 * YUAN })
    t.clock.advance(AUCTION_PAYMENT_DAYS * DAY)
    await sweepTwice()
    admin = await staffCaller(t)
    const results = await Promise.all(
      Array.from({ length: 10 }, () => admin('POST', `/orders/${capped.orderId}/forfeit`)),
    )
    const ok = results.filter((r) => r.statusCode === 200)
    expect(ok).toHaveLength(1)
    expect(results.filter((r) => r.json().code === 'NOT_PENDING')).toHaveLength(9)
    expect(ok[0]!.json<{ data: Forfeit }>().data).toEqual({
      orderId: capped.orderId,
      userId: Number(carol.userId),
      hammer: 3_000 * YUAN,
      taken: 1_000 * YUAN,
      deposit: 0,
      status: 'cancelled',
    })
    expect(await balanceOf(t, carol, 'deposit')).toBe(0)
    expect(await statusOf(capped.orderId)).toBe('cancelled')
    const memo = await t.database.db
      .selectFrom('ledger_transfers')
      .select(['kind'])
      .where('memo', '=', `forfeit order ${capped.orderId}`)
      .execute()
    expect(memo).toEqual([{ kind: 'forfeit' }])

    // Nothing overdue any more: a bid is judged on the quota again.
    await creditDeposit(t, carol.userId, 100 * YUAN)
    const lotId = await createLot(t, { startPrice: 100 * YUAN })
    expect((await bid(carol, lotId, 100 * YUAN)).statusCode).toBe(200)
  })

  it('a deposit that covers the hammer pays exactly the hammer; a not yet overdue order is refused', async () => {
    const dave = await t.signIn()
    const won = await winLot(t, dave, 800 * YUAN, { deposit: 2_000 * YUAN })
    const early = await forfeit(won.orderId)
    expect(early.statusCode).toBe(409)
    expect(early.json().code).toBe('ORDER_NOT_OVERDUE')
    t.clock.advance(AUCTION_PAYMENT_DAYS * DAY)
    await sweepTwice()
    const res = await forfeit(won.orderId)
    expect(res.json().data).toMatchObject({ taken: 800 * YUAN, deposit: 1_200 * YUAN })
    expect(await balanceOf(t, dave, 'deposit')).toBe(1_200 * YUAN)
    expect((await forfeit(999_999)).statusCode).toBe(404)
    // The winner was told both: overdue (with the lot), then what the forfeit took.
    const notices = await t.call({ method: 'GET', path: '/user/notices', as: dave })
    expect(
      notices.json().data.map((n: { kind: string; params: unknown }) => [n.kind, n.params]),
    ).toEqual(
      expect.arrayContaining([
        ['order_forfeited', { orderId: won.orderId, amount: 800 * YUAN }],
        ['order_overdue', { orderId: won.orderId, title: expect.any(String) }],
      ]),
    )
  })
  const move = (as: Session, amount: number) =>
    t.call({ method: 'PATCH', path: `/user/${as.userId}/@finance`, as, body: { amount } })
  const fileRemittance = async (as: Session, orderId: number, amount: number) => {
    const [bankId] = await addCompanyBanks(t)
    const res = await t.call({
      method: 'POST',
      path: '/user/finance/@remittance',
      as,
      body: {
        companyBankId: bankId,
        amount,
        payerName: '赵六',
        payerBank: '中国银行',
        remittedOn: chinaDay(t.clock.now()),
        orderIds: [orderId],
      },
    })
    expect(res.statusCode, res.body).toBe(200)
    return res.json<{ data: { id: number } }>().data.id
  }

  it('an overdue winner moves back to the balance only what exposure and the overdue claim leave free', async () => {
    const hana = await t.signIn()
    // Hammer 500 yuan (total 550 with the fee), deposit 1,000: the claim is 500, the rest free.
    const won = await winLot(t, hana, 500 * YUAN, { deposit: 1_000 * YUAN })
    // While the order is only pending, exposure (550 → 55 of deposit) is all that holds.
    expect((await move(hana, -1 * YUAN)).statusCode).toBe(200)
    expect((await move(hana, 1 * YUAN)).statusCode).toBe(200)
    t.clock.advance(AUCTION_PAYMENT_DAYS * DAY)
    await sweepTwice()
    expect(await statusOf(won.orderId)).toBe('overdue')

    // The user centre and the withdraw screen are told the same free deposit the move judges by.
    const stats = await t.call({ method: 'GET', path: '/user/@statistics', as: hana })
    expect(stats.json().data).toMatchObject({ deposit: 1_000 * YUAN, freeDeposit: 500 * YUAN })
    const escape = await move(hana, -600 * YUAN)
    expect(escape.statusCode).toBe(409)
    expect(escape.json()).toMatchObject({
      code: 'DEPOSIT_IN_USE',
      details: { free: 500 * YUAN, overdueClaim: 500 * YUAN },
    })
    const allowed = await move(hana, -500 * YUAN)
    expect(allowed.statusCode, allowed.body).toBe(200)
    expect(allowed.json().data).toMatchObject({ deposit: 500 * YUAN, freeDeposit: 0 })
    expect((await move(hana, -1)).json().code).toBe('DEPOSIT_IN_USE')
    // The forfeit still finds the whole hammer in the deposit.
    expect((await forfeit(won.orderId)).json().data).toMatchObject({ taken: 500 * YUAN })
  })

  it('a remittance notice waiting for staff keeps its order from overdue and forfeit until it is rejected', async () => {
    const ivan = await t.signIn()
    const waiting = await winLot(t, ivan, 600 * YUAN, { deposit: 1_000 * YUAN })
    const late = await winLot(t, ivan, 300 * YUAN, { deposit: 0 })
    const first = await fileRemittance(ivan, waiting.orderId, waiting.total)
    t.clock.advance(AUCTION_PAYMENT_DAYS * DAY)
    const marked = await sweepTwice()
    expect(marked).toContain(late.orderId)
    expect(marked).not.toContain(waiting.orderId)
    expect(await statusOf(waiting.orderId)).toBe('pending_payment')

    // Filed after the order went overdue: staff may not take the deposit while they decide.
    const second = await fileRemittance(ivan, late.orderId, late.total)
    const refused = await forfeit(late.orderId)
    expect(refused.statusCode).toBe(409)
    expect(refused.json().code).toBe('ORDER_AWAITING_REMITTANCE')
    expect(await statusOf(late.orderId)).toBe('overdue')
    expect(await balanceOf(t, ivan, 'deposit')).toBe(1_000 * YUAN)

    for (const id of [first, second]) {
      const rejected = await admin('POST', `/remittances/${id}/reject`, {})
      expect(rejected.statusCode, rejected.body).toBe(200)
    }
    expect(await sweepTwice()).toEqual([waiting.orderId])
    expect((await forfeit(late.orderId)).json().data).toMatchObject({ taken: 300 * YUAN })
    expect((await forfeit(waiting.orderId)).json().data).toMatchObject({ taken: 600 * YUAN })
  })

  it('a notice keeps only the orders its amount covers (in id order) from overdue and forfeit; a 1-fen one keeps none', async () => {
    const kate = await t.signIn()
    const covered = await winLot(t, kate, 600 * YUAN, { deposit: 1_000 * YUAN })
    const short = await winLot(t, kate, 300 * YUAN, { deposit: 0 })
    const shielded = await winLot(t, kate, 200 * YUAN, { deposit: 0 })
    const [bankId] = await addCompanyBanks(t)
    const file = async (orderIds: number[], amount: number) => {
      const res = await t.call({
        method: 'POST',
        path: '/user/finance/@remittance',
        as: kate,
        body: {
          companyBankId: bankId,
          amount,
          payerName: '赵六',
          payerBank: '中国银行',
          remittedOn: chinaDay(t.clock.now()),
          orderIds,
        },
      })
      // Accepted (the money may yet arrive), whatever it covers.
      expect(res.statusCode, res.body).toBe(200)
    }
    // Enough for the first order only: the second does not fit, so it is not held either.
    await file([covered.orderId, short.orderId], covered.total + short.total - 1)
    // One fen names the third: it holds nothing.
    await file([shielded.orderId], 1)
    t.clock.advance(AUCTION_PAYMENT_DAYS * DAY)
    const marked = await sweepTwice()
    expect(marked).toEqual([short.orderId, shielded.orderId])
    expect(await statusOf(covered.orderId)).toBe('pending_payment')
    expect((await forfeit(covered.orderId)).json().code).toBe('ORDER_NOT_OVERDUE')
    const taken = await forfeit(shielded.orderId)
    expect(taken.statusCode, taken.body).toBe(200)
    expect(taken.json().data).toMatchObject({ taken: 200 * YUAN, status: 'cancelled' })
  })

  it("an overdue winner's proxy stops bidding for them; the bid it placed stands", async () => {
    const jack = await t.signIn()
    const kate = await t.signIn()
    await creditDeposit(t, kate.userId, 1_000 * YUAN)
    const won = await winLot(t, jack, 500 * YUAN, { deposit: 1_000 * YUAN })
    // Two lots open past the due time; Jack leads both through proxies up to 2,000 yuan.
    const open = { startPrice: 100 * YUAN, endsAt: t.clock.now() + 10 * DAY }
    const lotA = await createLot(t, open)
    const lotB = await createLot(t, open)
    for (const lotId of [lotA, lotB]) {
      const proxy = await t.call({
        method: 'POST',
        path: '/bidding/bid',
        as: jack,
        body: { lotId, amount: 2_000 * YUAN, proxy: true },
      })
      expect(proxy.json().data).toMatchObject({ leading: true, price: 100 * YUAN })
    }
    t.clock.advance(AUCTION_PAYMENT_DAYS * DAY)
    expect(await sweepTwice()).toContain(won.orderId)
    const proxies = await t.database.db
      .selectFrom('proxies')
      .select(['lot_id', 'active'])
      .where('user_id', '=', Number(jack.userId))
      .where('lot_id', 'in', [lotA, lotB])
      .execute()
    expect(proxies.map((p) => p.active)).toEqual([0, 0])

    const outbid = await bid(kate, lotA, 110 * YUAN)
    expect(outbid.json().data).toMatchObject({ leading: true, price: 110 * YUAN })
    // A proxy that was live again when the mark landed (a bid racing the job) still never answers.
    await t.database.db
      .updateTable('proxies')
      .set({ active: 1, cancelled_at: null })
      .where('lot_id', '=', lotB)
      .where('user_id', '=', Number(jack.userId))
      .execute()
    const raced = await bid(kate, lotB, 110 * YUAN)
    expect(raced.json().data).toMatchObject({ leading: true, price: 110 * YUAN })
    for (const lotId of [lotA, lotB]) {
      const history = await t.call({ method: 'GET', path: `/bidding/${lotId}` })
      const amounts = history.json<{ data: { amount: number }[] }>().data.map((b) => b.amount)
      // Jack's opening bid stands; nothing automatic was placed for him after it.
      expect(amounts.sort((a, b) => a - b)).toEqual([100 * YUAN, 110 * YUAN])
    }
  })
})
