import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClosingSweeper } from '../src/modules/bidding/closing'
import { IDEMPOTENCY_TTL_MS, IdempotencyStore } from '../src/platform/idempotency'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { createLot, creditDeposit } from './helpers/auction'
import { testDatabases } from './helpers/databases'

/** Issue 7: the auction-core defects a review found, each pinned by a test. */
const databases = await testDatabases()
const YUAN = 100
const MINUTE = 60_000

describe.each(databases)('auction core on $name', (kind) => {
  let t: TestApp
  let alice: Session
  let bob: Session

  beforeAll(async () => {
    t = await createTestApp(kind)
    ;[alice, bob] = [await t.signIn(), await t.signIn()]
    for (const u of [alice, bob]) await creditDeposit(t, u.userId, 1_000_000 * YUAN)
  })
  afterAll(() => t.close())

  const bid = (as: Session, lotId: number, amount: number, proxy = false, key?: string) =>
    t.call({
      method: 'POST',
      path: '/bidding/bid',
      as,
      body: { lotId, amount, proxy },
      headers: key ? { 'idempotency-key': key } : undefined,
    })
  const lot = async (id: number, as?: Session) =>
    (await t.call({ method: 'GET', path: `/auction/${id}`, as })).json().data

  it('says why an accepted bid does not lead, and what it takes to lead', async () => {
    const lotId = await createLot(t, { startPrice: 100 * YUAN })
    expect((await bid(alice, lotId, 500 * YUAN, true)).statusCode).toBe(200)

    const below = await bid(bob, lotId, 300 * YUAN)
    expect(below.statusCode).toBe(200)
    expect(below.json().data).toMatchObject({
      leading: false,
      price: 310 * YUAN,
      notLeading: { rule: 'proxy_higher', minimum: 320 * YUAN },
    })

    const tie = await bid(bob, lotId, 500 * YUAN, true)
    expect(tie.json().data).toMatchObject({
      leading: false,
      price: 500 * YUAN,
      notLeading: { rule: 'tie_earlier', minimum: 510 * YUAN },
    })

    const over = await bid(bob, lotId, 600 * YUAN)
    expect(over.json().data).toMatchObject({ leading: true, notLeading: null })
  })

  it('pages bid history instead of stopping at 200 rows', async () => {
    const lotId = await createLot(t)
    const now = t.clock.now()
    // 230 rows of history, written straight to the table (the engine's own rows are tested
    // elsewhere); amounts rise with the id, as real history does.
    await t.database.db
      .insertInto('bids')
      .values(
        Array.from({ length: 230 }, (_, i) => ({
          lot_id: lotId,
          user_id: Number(i % 2 === 0 ? alice.userId : bob.userId),
          amount: (1_000 + i * 10) * YUAN,
          auto: 0,
          created_at: now + i,
        })),
      )
      .execute()
    const page = async (query: string, as?: Session) =>
      t.call({ method: 'GET', path: `/bidding/${lotId}${query}`, as })

    const first = (await page('', alice)).json()
    expect(first).toMatchObject({ page: 1, pageSize: 50, total: 230 })
    expect(first.data).toHaveLength(50)
    expect(first.data[0]).toMatchObject({ amount: (1_000 + 229 * 10) * YUAN, mine: false })
    expect(first.data[1]).toMatchObject({ mine: true })

    const last = (await page('?page=3&pageSize=100')).json()
    expect(last).toMatchObject({ page: 3, pageSize: 100, total: 230 })
    expect(last.data).toHaveLength(30)
    expect(last.data.at(-1).amount).toBe(1_000 * YUAN)

    const beyond = (await page('?page=9&pageSize=100')).json()
    expect(beyond).toMatchObject({ data: [], total: 230 })

    for (const bad of ['?pageSize=101', '?page=0', '?page=x']) {
      const res = await page(bad)
      expect(res.statusCode).toBe(400)
      expect(res.json().code).toBe('VALIDATION_FAILED')
    }
    expect((await page('?page=1', alice)).statusCode).toBe(200)
    expect((await t.call({ method: 'GET', path: '/bidding/999999' })).statusCode).toBe(404)
  })

  it('purges idempotency keys after 24 hours, and only those', async () => {
    const lotId = await createLot(t, { endsAt: t.clock.now() + 3 * 24 * 60 * MINUTE })
    const first = await bid(alice, lotId, 1_000 * YUAN, false, 'old-key-0001')
    expect(first.json()).toMatchObject({ data: { leading: true } })
    t.clock.advance(IDEMPOTENCY_TTL_MS + MINUTE)
    expect((await bid(bob, lotId, 1_020 * YUAN, false, 'new-key-0001')).statusCode).toBe(200)

    const store = new IdempotencyStore(t.database.db)
    expect(await store.purgeExpired(t.clock.now())).toBe(1)
    const keys = await t.database.db.selectFrom('idempotency_keys').select('key').execute()
    expect(keys.map((k) => k.key)).toContain('new-key-0001')
    expect(keys.map((k) => k.key)).not.toContain('old-key-0001')
    expect(await store.purgeExpired(t.clock.now())).toBe(0)
  })

  it('purges a backlog in bounded batches', async () => {
    const old = t.clock.now() - IDEMPOTENCY_TTL_MS - MINUTE
    await t.database.db
      .insertInto('idempotency_keys')
      .values(
        Array.from({ length: 25 }, (_, i) => ({
          user_id: Number(alice.userId),
          key: `backlog-${String(i).padStart(4, '0')}`,
          request_hash: 'h',
          status: 200,
          body: '{}',
          created_at: old,
        })),
      )
      .execute()
    const store = new IdempotencyStore(t.database.db)
    const batches: number[] = []
    for (let n = -1; n !== 0;) batches.push((n = await store.purgeExpired(t.clock.now(), 10)))
    expect(batches.slice(0, 2)).toEqual([10, 10])
    expect(batches.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(25)
    expect(batches.every((n) => n <= 10)).toBe(true)
  })

  it('answers an id beyond a 32-bit integer with a 400, never a database error', async () => {
    const huge = 2 ** 31
    const calls = [
      { method: 'POST' as const, path: '/bidding/bid', body: { lotId: huge, amount: 100_000 } },
      { method: 'POST' as const, path: '/bidding/cancelProxy', body: { lotId: huge } },
      { method: 'GET' as const, path: `/bidding/${huge}` },
      { method: 'GET' as const, path: `/auction/${huge}` },
      { method: 'POST' as const, path: `/auction/${huge}/@attention` },
      { method: 'DELETE' as const, path: `/auction/${huge}/@attention` },
      { method: 'GET' as const, path: `/auction/1,9999999999/@attention` },
      { method: 'GET' as const, path: `/user/${huge}/@entrust` },
    ]
    for (const call of calls) {
      const res = await t.call({ ...call, as: alice })
      expect([call.path, res.statusCode, res.json().code]).toEqual([
        call.path,
        400,
        'VALIDATION_FAILED',
      ])
    }
    const ok = await t.call({ method: 'GET', path: `/auction/${2 ** 31 - 1}`, as: alice })
    expect(ok.statusCode).toBe(404)
  })

  it('tells the winner of a closed lot they won and where the order is; nobody leads it', async () => {
    const lotId = await createLot(t, { endsAt: t.clock.now() + 10 * MINUTE })
    expect((await bid(alice, lotId, 1_000 * YUAN)).json()).toMatchObject({
      data: { leading: true },
    })
    expect((await bid(bob, lotId, 1_020 * YUAN)).json()).toMatchObject({ data: { leading: true } })
    expect(await lot(lotId, bob)).toMatchObject({ leading: true, won: false, orderId: null })

    t.clock.advance(11 * MINUTE)
    await ClosingSweeper.forDatabase(t.database, t.clock, t.app.bus).sweep()

    const order = await t.database.db
      .selectFrom('orders')
      .select('id')
      .where('lot_id', '=', lotId)
      .executeTakeFirstOrThrow()
    expect(await lot(lotId, bob)).toMatchObject({
      status: 'sold',
      price: 1_020 * YUAN,
      leading: false,
      won: true,
      orderId: order.id,
    })
    expect(await lot(lotId, alice)).toMatchObject({ status: 'sold', won: false, orderId: null })
    expect(await lot(lotId)).toMatchObject({ status: 'sold', won: false, orderId: null })
  })
})

/**
 * Defect 1: a bid that waits for the lot's row lock must be judged at the time it gets it. A
 * second connection holds `FOR UPDATE` on the lot while the end passes (the fake clock moves on
 * while the bid is really blocked on the lock), then lets go. PostgreSQL only: SQLite takes its
 * write lock at BEGIN, before the time is read.
 */
describe.each(databases.filter((d) => d.name === 'postgres'))(
  'a bid queued behind the lot lock on $name',
  (kind) => {
    let t: TestApp
    let alice: Session
    let bob: Session

    beforeAll(async () => {
      t = await createTestApp(kind)
      ;[alice, bob] = [await t.signIn(), await t.signIn()]
      for (const u of [alice, bob]) await creditDeposit(t, u.userId, 1_000_000 * YUAN)
    })
    afterAll(() => t.close())

    const lockWaiters = async () => {
      const row = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`.execute(t.database.db)
      return row.rows[0]?.n ?? 0
    }

    /** Holds the lot's row lock while `during` runs; `during` gets a way to wait for waiters. */
    async function holdingLot(lotId: number, during: () => Promise<void>): Promise<void> {
      await t.database.db.transaction().execute(async (trx) => {
        await trx.selectFrom('lots').select('id').where('id', '=', lotId).forUpdate().execute()
        await during()
      })
    }

    async function untilBlocked(): Promise<void> {
      for (let i = 0; i < 200 && (await lockWaiters()) === 0; i++) {
        await new Promise((r) => setTimeout(r, 10))
      }
      expect(await lockWaiters()).toBeGreaterThan(0)
    }

    it('refuses a bid that got the lock after the end, and does not extend the lot', async () => {
      const endsAt = t.clock.now() + 2 * MINUTE
      const lotId = await createLot(t, { endsAt })
      let pending: Promise<{ statusCode: number; json: () => { code: string } }> | undefined
      await holdingLot(lotId, async () => {
        pending = t.call({
          method: 'POST',
          path: '/bidding/bid',
          as: alice,
          body: { lotId, amount: 1_000 * YUAN, proxy: false },
        })
        await untilBlocked()
        t.clock.set(endsAt + 1_000) // the end passes while the bid waits
      })
      const res = await pending!
      expect(res.statusCode).toBe(409)
      expect(res.json().code).toBe('LOT_CLOSED')
      const row = await t.database.db
        .selectFrom('lots')
        .select(['ends_at', 'bid_count'])
        .where('id', '=', lotId)
        .executeTakeFirstOrThrow()
      expect(row).toEqual({ ends_at: endsAt, bid_count: 0 })
    })

    it('refuses a proxy cancel that got the lock after the end', async () => {
      const endsAt = t.clock.now() + 2 * MINUTE
      const lotId = await createLot(t, { endsAt })
      expect(
        (
          await t.call({
            method: 'POST',
            path: '/bidding/bid',
            as: bob,
            body: { lotId, amount: 2_000 * YUAN, proxy: true },
          })
        ).statusCode,
      ).toBe(200)
      // The bid fell in the soft-close window and moved the end.
      const extended = await t.database.db
        .selectFrom('lots')
        .select('ends_at')
        .where('id', '=', lotId)
        .executeTakeFirstOrThrow()
      let pending: Promise<{ statusCode: number; json: () => { code: string } }> | undefined
      await holdingLot(lotId, async () => {
        pending = t.call({
          method: 'POST',
          path: '/bidding/cancelProxy',
          as: bob,
          body: { lotId },
        })
        await untilBlocked()
        t.clock.set(extended.ends_at + 1_000)
      })
      const res = await pending!
      expect(res.statusCode).toBe(409)
      expect(res.json().code).toBe('LOT_CLOSED')
    })
  },
)
