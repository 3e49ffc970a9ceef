import type { Forfeit } from '@numisma/contracts/account'
import { AUCTION_PAYMENT_DAYS } from '@numisma/domain/fees'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { OverdueJob } from '../src/modules/orders/overdue'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { createLot, creditDeposit } from './helpers/auction'
import { testDatabases } from './helpers/databases'
import { expectLedgerSound } from './helpers/ledger'
import { type StaffCall, staffCaller } from './helpers/mall-orders'
import { addCompanyBanks, balanceOf, winLot } from './helpers/money'

/** Issue 9, DESIGN §4: overdue winners — on both databases, with a fake clock. */
const databases = await testDatabases()
const YUAN = 100
const DAY = 24 * 60 * 60_000

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
    const jobs = [
      OverdueJob.forDatabase(t.database, t.clock),
      OverdueJob.forDatabase(t.database, t.clock),
    ]
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

  it('an overdue winner cannot bid (BIDDER_OVERDUE) nor withdraw deposit; their order still counts as exposure', async () => {
    const bob = await t.signIn()
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
        amount: 1 * YUAN,
        source: 'deposit',
        bankName: '中国银行',
        accountName: '李四',
        accountNo: '6216600000001111',
      },
    })
    expect(withdraw.json()).toMatchObject({ code: 'DEPOSIT_IN_USE', details: { overdue: true } })
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
  })
})
