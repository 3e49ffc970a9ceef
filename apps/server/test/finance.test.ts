import type { LightMyRequestResponse } from 'fastify'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { StaffService } from '../src/modules/staff/service'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { createLot } from './helpers/auction'
import { testDatabases } from './helpers/databases'
import { expectLedgerSound } from './helpers/ledger'
import { buy, createMallItem, type StaffCall } from './helpers/mall-orders'

const databases = await testDatabases()
const YUAN = 100

/**
 * Money between balance and deposit (`PATCH /user/{userId}/@finance`, DESIGN §4) and the counter's
 * balance credit (`POST /admin/users/{userId}/balance`) over HTTP on SQLite and PostgreSQL, the
 * ledger sound after every test.
 */
describe.each(databases)('finance on $name', (kind) => {
  let t: TestApp
  let staffCookie: string
  let keys = 0
  const nextKey = () => `finance-key-${String(++keys).padStart(6, '0')}`

  beforeAll(async () => {
    t = await createTestApp(kind)
    const password = 'staff-test-password'
    await StaffService.forDatabase(t.database, t.clock).bootstrap(password)
    const login = await t.inject({
      method: 'POST',
      url: '/svc/main/admin/login',
      payload: { username: 'admin', password },
    })
    const cookie = login.cookies.find((c) => c.name === 'staff_sid')?.value
    if (!cookie) throw new Error(`staff login failed: ${login.body}`)
    staffCookie = cookie
  })
  afterAll(() => t.close())
  afterEach(() => expectLedgerSound(t.database))

  const creditBalance = (
    userId: string | number,
    body: { amount: number; memo?: string },
    key?: string,
  ): Promise<LightMyRequestResponse> =>
    t.inject({
      method: 'POST',
      url: `/svc/main/admin/users/${userId}/balance`,
      cookies: { staff_sid: staffCookie },
      headers: key ? { 'idempotency-key': key } : {},
      payload: body,
    })

  const move = (as: Session, amount: number, key?: string, userId = as.userId) =>
    t.call({
      method: 'PATCH',
      path: `/user/${userId}/@finance`,
      as,
      body: { amount },
      headers: key ? { 'idempotency-key': key } : undefined,
    })

  const bid = (as: Session, lotId: number, amount: number) =>
    t.call({ method: 'POST', path: '/bidding/bid', as, body: { lotId, amount, proxy: false } })

  const statistics = async (as: Session) =>
    (await t.call({ method: 'GET', path: '/user/@statistics', as })).json<{
      data: {
        balance: number
        deposit: number
        quota: number
        exposure: number
        payPasswordSet: boolean
        counts: Record<string, number | undefined>
      }
    }>().data

  const transfersOfKind = async (transferKind: string) =>
    Number(
      (
        await t.database.db
          .selectFrom('ledger_transfers')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('kind', '=', transferKind)
          .executeTakeFirstOrThrow()
      ).n,
    )

  /** A signed-in user with this much on the balance (cash at the counter) and on the deposit. */
  const collector = async (money: { balance?: number; deposit?: number } = {}) => {
    const user = await t.signIn()
    const total = (money.balance ?? 0) + (money.deposit ?? 0)
    if (total > 0)
      expect((await creditBalance(user.userId, { amount: total })).statusCode).toBe(200)
    if (money.deposit) expect((await move(user, money.deposit)).statusCode).toBe(200)
    return user
  }

  describe('staff balance credit', () => {
    it("credits cash at the counter onto the user's balance from clearing", async () => {
      const user = await t.signIn()
      const res = await creditBalance(user.userId, { amount: 30_000, memo: 'cash, receipt 0042' })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ data: { balance: 30_000 } })
      expect((await creditBalance(user.userId, { amount: 5_000 })).json().data).toEqual({
        balance: 35_000,
      })
      expect(await statistics(user)).toMatchObject({ balance: 35_000, deposit: 0 })
      const clearing = await t.database.db
        .selectFrom('ledger_accounts')
        .select('balance')
        .where('user_id', '=', 0)
        .where('kind', '=', 'platform_clearing')
        .executeTakeFirstOrThrow()
      expect(clearing.balance).toBeLessThanOrEqual(-35_000)
    })

    it('answers an unknown user with 404 and moves nothing', async () => {
      const before = await transfersOfKind('balance_credit')
      const res = await creditBalance(99_999_999, { amount: 1_000 })
      expect(res.statusCode).toBe(404)
      expect(res.json().code).toBe('NOT_FOUND')
      expect(await transfersOfKind('balance_credit')).toBe(before)
    })

    it('refuses a zero, negative or fractional amount with 400', async () => {
      const user = await t.signIn()
      for (const amount of [0, -100, 1.5]) {
        const res = await creditBalance(user.userId, { amount })
        expect(res.statusCode).toBe(400)
        expect(res.json().code).toBe('VALIDATION_FAILED')
      }
      expect((await statistics(user)).balance).toBe(0)
    })

    it('replays a retry with the same Idempotency-Key, concurrent or not, crediting once', async () => {
      const user = await t.signIn()
      const key = nextKey()
      const before = await transfersOfKind('balance_credit')
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => creditBalance(user.userId, { amount: 7_000 }, key)),
      )
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200])
      for (const r of answers) expect(r.json().data).toEqual({ balance: 7_000 })
      expect((await creditBalance(user.userId, { amount: 7_000 }, key)).json().data).toEqual({
        balance: 7_000,
      })
      expect(await transfersOfKind('balance_credit')).toBe(before + 1)
      expect((await statistics(user)).balance).toBe(7_000)
      // The same key for another request is refused rather than replayed.
      const reused = await creditBalance(user.userId, { amount: 8_000 }, key)
      expect(reused.statusCode).toBe(422)
      expect(reused.json().code).toBe('IDEMPOTENCY_KEY_REUSED')
    })
  })

  describe('balance ↔ deposit', () => {
    it('moves balance to deposit and free deposit back, answering the balances', async () => {
      const user = await collector({ balance: 1_000 * YUAN })
      const there = await move(user, 600 * YUAN)
      expect(there.statusCode).toBe(200)
      expect(there.json()).toEqual({
        data: { balance: 400 * YUAN, deposit: 600 * YUAN, freeDeposit: 600 * YUAN },
      })
      const back = await move(user, -200 * YUAN)
      expect(back.statusCode).toBe(200)
      expect(back.json().data).toEqual({
        balance: 600 * YUAN,
        deposit: 400 * YUAN,
        freeDeposit: 400 * YUAN,
      })
      expect(await statistics(user)).toMatchObject({
        balance: 600 * YUAN,
        deposit: 400 * YUAN,
        quota: 4_000 * YUAN,
        exposure: 0,
      })
    })

    it('refuses more than the balance with BALANCE_LOW and moves nothing', async () => {
      const user = await collector({ balance: 100 * YUAN })
      const res = await move(user, 100 * YUAN + 1)
      expect(res.statusCode).toBe(409)
      expect(res.json()).toMatchObject({ code: 'BALANCE_LOW', details: { balance: 100 * YUAN } })
      expect(await statistics(user)).toMatchObject({ balance: 100 * YUAN, deposit: 0 })
      // With nothing on the deposit, nothing can come back either.
      const back = await move(user, -1)
      expect(back.statusCode).toBe(409)
      expect(back.json()).toMatchObject({ code: 'DEPOSIT_IN_USE', details: { free: 0 } })
    })

    it('keeps deposit a leading bid holds: DEPOSIT_IN_USE with what is free', async () => {
      const user = await collector({ deposit: 1_000 * YUAN })
      const lotId = await createLot(t, { startPrice: 3_000 * YUAN })
      expect((await bid(user, lotId, 3_000 * YUAN)).statusCode).toBe(200)
      // 3,000 yuan exposed at deposit × 10 holds 300 yuan; 700 are free.
      const stats = await statistics(user)
      expect(stats).toMatchObject({ deposit: 1_000 * YUAN, exposure: 3_000 * YUAN })
      const tooMuch = await move(user, -(700 * YUAN + 1))
      expect(tooMuch.statusCode).toBe(409)
      expect(tooMuch.json()).toMatchObject({
        code: 'DEPOSIT_IN_USE',
        details: { free: 700 * YUAN, deposit: 1_000 * YUAN, exposure: 3_000 * YUAN },
      })
      expect(await statistics(user)).toMatchObject({ balance: 0, deposit: 1_000 * YUAN })
      const free = await move(user, -700 * YUAN)
      expect(free.statusCode).toBe(200)
      expect(free.json().data).toEqual({ balance: 700 * YUAN, deposit: 300 * YUAN, freeDeposit: 0 })
      // The quota now exactly covers the exposure: one more fen of bidding elsewhere is refused.
      const after = await statistics(user)
      expect(after.quota).toBe(after.exposure)
      const other = await createLot(t, { startPrice: 5 * YUAN })
      expect((await bid(user, other, 5 * YUAN)).json().code).toBe('QUOTA_EXCEEDED')
    })

    it('a bid and a move back of the same deposit at once: exactly one wins, the quota holds', async () => {
      const outcomes = { bid: 0, move: 0 }
      for (let round = 0; round < 8; round++) {
        const user = await collector({ deposit: 1_000 * YUAN })
        // The bid needs the whole deposit (10,000 yuan = 1,000 × 10); so does the move.
        const lotId = await createLot(t, { startPrice: 10_000 * YUAN })
        const attempts: Promise<['bid' | 'move', LightMyRequestResponse]>[] = [
          bid(user, lotId, 10_000 * YUAN).then((r) => ['bid', r]),
          move(user, -1_000 * YUAN).then((r) => ['move', r]),
        ]
        // Alternate which one is sent first.
        const results = await Promise.all(round % 2 === 0 ? attempts : [...attempts].reverse())
        const won = results.filter(([, r]) => r.statusCode === 200)
        expect(won).toHaveLength(1)
        const lost = results.find(([, r]) => r.statusCode !== 200)
        expect(lost?.[1].json().code).toBe(
          lost?.[0] === 'bid' ? 'QUOTA_EXCEEDED' : 'DEPOSIT_IN_USE',
        )
        outcomes[won[0]![0]]++
        const stats = await statistics(user)
        expect(stats.exposure).toBeLessThanOrEqual(stats.quota)
        expect(stats.balance + stats.deposit).toBe(1_000 * YUAN)
      }
      expect(outcomes.bid + outcomes.move).toBe(8)
    })

    it("answers another user's id with 404 and moves nothing", async () => {
      const alice = await collector({ balance: 100 * YUAN })
      const bob = await collector({ balance: 100 * YUAN })
      for (const amount of [10 * YUAN, -10 * YUAN]) {
        const res = await move(alice, amount, undefined, bob.userId)
        expect(res.statusCode).toBe(404)
        expect(res.json().code).toBe('NOT_FOUND')
      }
      expect(await statistics(bob)).toMatchObject({ balance: 100 * YUAN, deposit: 0 })
      expect(await statistics(alice)).toMatchObject({ balance: 100 * YUAN, deposit: 0 })
    })

    it('refuses a zero or fractional amount with 400', async () => {
      const user = await collector({ balance: 100 * YUAN })
      for (const amount of [0, 0.5]) {
        const res = await move(user, amount)
        expect(res.statusCode).toBe(400)
        expect(res.json().code).toBe('VALIDATION_FAILED')
      }
    })

    it('replays a retry with the same Idempotency-Key, concurrent or not, moving once', async () => {
      const user = await collector({ balance: 500 * YUAN })
      const key = nextKey()
      const before = await transfersOfKind('move_to_deposit')
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => move(user, 200 * YUAN, key)),
      )
      for (const r of answers) {
        expect(r.statusCode).toBe(200)
        expect(r.json().data).toEqual({
          balance: 300 * YUAN,
          deposit: 200 * YUAN,
          freeDeposit: 200 * YUAN,
        })
      }
      expect((await move(user, 200 * YUAN, key)).json().data.balance).toBe(300 * YUAN)
      expect(await transfersOfKind('move_to_deposit')).toBe(before + 1)
      expect(await statistics(user)).toMatchObject({ balance: 300 * YUAN, deposit: 200 * YUAN })
      expect((await move(user, -200 * YUAN, key)).json().code).toBe('IDEMPOTENCY_KEY_REUSED')
      // A refused move keeps no claim: the same key may be used again once the money is there.
      const fresh = nextKey()
      expect((await move(user, 400 * YUAN, fresh)).json().code).toBe('BALANCE_LOW')
      expect((await move(user, 300 * YUAN, fresh)).statusCode).toBe(200)
    })
  })

  describe('user centre figures', () => {
    it('payPasswordSet follows the pay_passwords table', async () => {
      const user = await t.signIn()
      expect((await statistics(user)).payPasswordSet).toBe(false)
      await t.database.db
        .insertInto('pay_passwords')
        .values({
          user_id: Number(user.userId),
          hash: 'not-a-real-hash',
          failed_tries: 0,
          locked_until: null,
          updated_at: t.clock.now(),
        })
        .execute()
      expect((await statistics(user)).payPasswordSet).toBe(true)
    })

    it('counts orders to ship (paid, delivery applied) and to receive (shipped)', async () => {
      const user = await t.signIn()
      const admin: StaffCall = (method, path, payload) =>
        t.inject({
          method,
          url: `/svc/main/admin${path}`,
          cookies: { staff_sid: staffCookie },
          ...(payload ? { payload } : {}),
        })
      const item = await createMallItem(admin, { stock: 10 })
      const orderIds: number[] = []
      for (let i = 0; i < 5; i++) {
        const res = await buy(t, user, { productNo: item.productNo, quantity: 1 })
        const orderId = res.json<{ data: { orderId?: number } }>().data.orderId
        if (orderId === undefined) throw new Error(`order failed: ${res.body}`)
        orderIds.push(orderId)
      }
      expect((await statistics(user)).counts).toMatchObject({
        pendingPayment: 5,
        waitingToShip: 0,
        waitingToReceive: 0,
      })
      const statuses = ['paid', 'paid', 'delivery_applied', 'shipped', 'completed']
      for (const [i, status] of statuses.entries()) {
        await t.database.db
          .updateTable('orders')
          .set({ status })
          .where('id', '=', orderIds[i]!)
          .execute()
      }
      expect((await statistics(user)).counts).toMatchObject({
        pendingPayment: 0,
        waitingToShip: 3,
        waitingToReceive: 1,
      })
    })
  })
})
