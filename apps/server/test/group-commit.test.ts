import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { placeBid, type LotState } from '@numisma/domain/bid-engine'
import SQLite from 'better-sqlite3'
import { sql } from 'kysely'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type Database, openDatabase } from '../src/platform/db'
import { IdempotencyStore } from '../src/platform/idempotency'
import {
  groupCommitOf,
  SqliteGroupCommit,
  type Tx,
  writeTransaction,
} from '../src/platform/transactions'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { createLot, creditDeposit } from './helpers/auction'
import { testDatabases } from './helpers/databases'

/**
 * SQLite group commit (docs/decisions/031-sqlite-group-commit.md): works queued together share one
 * BEGIN IMMEDIATE … COMMIT (one fsync), each in its own savepoint.
 */
describe('SQLite group commit', () => {
  let dir: string
  let database: Database
  let reader: SQLite.Database

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'numisma-gc-'))
    database = await openDatabase({ sqliteFile: path.join(dir, 'numisma.db') })
    await sql`create table gc_rows (name text primary key, size blob)`.execute(database.db)
    await sql`create table gc_parents (id integer primary key)`.execute(database.db)
    await sql`create table gc_children (parent_id integer references gc_parents (id) deferrable initially deferred)`.execute(
      database.db,
    )
    // A second connection sees only what is committed (WAL snapshot): what an observer after a
    // power cut would find.
    reader = new SQLite(path.join(dir, 'numisma.db'), { readonly: true })
  })
  afterEach(async () => {
    reader.close()
    await database.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  const insert = (tx: Tx, name: string) =>
    sql`insert into gc_rows (name) values (${name})`.execute(tx)
  const names = async () =>
    (
      await sql<{ name: string }>`select name from gc_rows order by name`.execute(database.db)
    ).rows.map((r) => r.name)
  const committed = (name: string) =>
    reader.prepare('select 1 from gc_rows where name = ?').get(name) !== undefined
  const settle = (promises: Array<Promise<unknown>>) => Promise.allSettled(promises)

  it('runs works queued together in one transaction, and one that throws leaves no trace', async () => {
    const { stats } = groupCommitOf(database.db)
    const before = stats.commits
    const results = await settle([
      writeTransaction(database, async (tx) => (await insert(tx, 'a'), 'a')),
      writeTransaction(database, async (tx) => {
        await insert(tx, 'b')
        throw new Error('refused')
      }),
      // SQLite's own error inside a work (a duplicate key) is rolled back to that work's savepoint.
      writeTransaction(database, async (tx) => {
        await insert(tx, 'c')
        await insert(tx, 'a')
      }),
      writeTransaction(database, async (tx) => (await insert(tx, 'd'), 'd')),
    ])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled'])
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ message: 'refused' })
    expect((results[2] as PromiseRejectedResult).reason).toMatchObject({
      code: 'SQLITE_CONSTRAINT_PRIMARYKEY',
    })
    expect(await names()).toEqual(['a', 'd'])
    expect(stats.commits - before).toBe(1)
  })

  it('answers nobody before the COMMIT: each resolved work is already visible to another connection', async () => {
    const seenAtResolve: boolean[] = []
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        writeTransaction(database, (tx) => insert(tx, `r${i}`)).then(() =>
          seenAtResolve.push(committed(`r${i}`)),
        ),
      ),
    )
    expect(seenAtResolve).toHaveLength(20)
    expect(seenAtResolve.every(Boolean)).toBe(true)
  })

  it('rejects every caller of a batch whose COMMIT fails, and keeps none of their rows', async () => {
    // A deferred foreign key is checked at COMMIT: the one real way to make SQLite refuse it.
    const results = await settle([
      writeTransaction(database, (tx) => insert(tx, 'x')),
      writeTransaction(database, (tx) => sql`insert into gc_children values (42)`.execute(tx)),
      writeTransaction(database, (tx) => insert(tx, 'y')),
    ])
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected'])
    expect((results[0] as PromiseRejectedResult).reason).toMatchObject({
      code: 'SQLITE_CONSTRAINT_FOREIGNKEY',
    })
    expect(await names()).toEqual([])
    expect(committed('x') || committed('y')).toBe(false)
    // The connection is usable afterwards.
    await writeTransaction(database, (tx) => insert(tx, 'z'))
    expect(await names()).toEqual(['z'])
  })

  it('keeps "resolved ⇔ kept" when the disk fills up in the middle of a batch', async () => {
    const pages = (await sql<{ page_count: number }>`pragma page_count`.execute(database.db))
      .rows[0]!.page_count
    await sql.raw(`pragma max_page_count = ${pages + 4}`).execute(database.db)
    const results = await settle(
      Array.from({ length: 30 }, (_, i) =>
        writeTransaction(database, (tx) =>
          sql`insert into gc_rows values (${`f${i}`}, zeroblob(3000))`.execute(tx),
        ),
      ),
    )
    const kept = new Set(await names())
    expect(results.some((r) => r.status === 'rejected')).toBe(true)
    results.forEach((r, i) => {
      expect(r.status === 'fulfilled', `f${i}`).toBe(kept.has(`f${i}`))
      expect(r.status === 'fulfilled', `f${i} committed`).toBe(committed(`f${i}`))
    })
  })

  it('resolves in the order the works ran, so pushes after commit keep commit order', async () => {
    const ran: number[] = []
    const resolved: number[] = []
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        writeTransaction(database, async (tx) => {
          await insert(tx, `o${i}`)
          ran.push(i)
        }).then(() => resolved.push(i)),
      ),
    )
    expect(resolved).toEqual(ran)
  })

  it('bounds a batch by its number of works', async () => {
    const group = new SqliteGroupCommit(database.db, { maxWorks: 3 })
    await Promise.all(Array.from({ length: 7 }, (_, i) => group.run((tx) => insert(tx, `m${i}`))))
    expect(group.stats).toEqual({ commits: 3, works: 7 })
  })

  it('bounds a batch by time: no work joins one that has run maxMs', async () => {
    const group = new SqliteGroupCommit(database.db, { maxMs: 5 })
    const slow = (tx: Tx, name: string) =>
      insert(tx, name).then(() => new Promise((resolve) => setTimeout(resolve, 8)))
    await Promise.all(['t1', 't2', 't3'].map((name) => group.run((tx) => slow(tx, name))))
    expect(group.stats.commits).toBe(3)
  })

  it('lets a work await something other than the database, and a read outside waits for the batch', async () => {
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const slow = writeTransaction(database, async (tx) => {
      await insert(tx, 'slow')
      await gate
    })
    const fast = writeTransaction(database, (tx) => insert(tx, 'fast'))
    await new Promise((resolve) => setTimeout(resolve, 10))
    // The read queues for the connection the batch holds; it must not see uncommitted rows.
    const read = names()
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(committed('slow')).toBe(false)
    release()
    await Promise.all([slow, fast])
    expect(await read).toContain('slow')
  })

  it('replays an idempotency key claimed by an earlier work of the same batch', async () => {
    const store = new IdempotencyStore(database.db)
    const claim = (result: string) =>
      writeTransaction(database, async (tx) => {
        const seen = await store.claim<string>(tx, 1, 'key-1', 'hash', Date.now())
        if (seen.kind === 'replay') return `replay:${seen.result}`
        await store.complete(tx, 1, 'key-1', result)
        return result
      })
    const { stats } = groupCommitOf(database.db)
    const before = stats.commits
    expect(await Promise.all([claim('first'), claim('second')])).toEqual(['first', 'replay:first'])
    expect(stats.commits - before).toBe(1)
  })
})

const databases = await testDatabases()
const YUAN = 100

describe.each(databases)('concurrent bids on one lot on $name', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp(kind)
  })
  afterAll(() => t.close())

  it('end in the state the bid engine reaches replaying the accepted bids in commit order', async () => {
    const lotId = await createLot(t, { startPrice: 100 * YUAN })
    const bidders: Session[] = []
    for (let i = 0; i < 24; i++) bidders.push(await t.signIn())
    await Promise.all(bidders.map((u) => creditDeposit(t, u.userId, 1_000_000 * YUAN)))
    const bid = (as: Session, amount: number, proxy: boolean) =>
      t.call({ method: 'POST', path: '/bidding/bid', as, body: { lotId, amount, proxy } })

    // Three proxies first, one after another; then every bidder bids directly, all at once, in
    // rounds (a batch each on SQLite).
    const proxies: Array<[number, number]> = [
      [0, 300 * YUAN],
      [1, 500 * YUAN],
      [2, 500 * YUAN],
    ]
    for (const [i, max] of proxies) expect((await bid(bidders[i]!, max, true)).statusCode).toBe(200)
    const group = kind.name === 'sqlite' ? groupCommitOf(t.database.db) : undefined
    const commitsBefore = group?.stats.commits ?? 0
    let accepted = 0
    for (let round = 0; round < 3; round++) {
      const statuses = await Promise.all(
        bidders.slice(3).map(async (u, i) => {
          const amount = (200 + round * 200 + i * 20) * YUAN
          const res = await bid(u, amount, false)
          expect([200, 400, 409], JSON.stringify(res.json())).toContain(res.statusCode)
          return res.statusCode
        }),
      )
      accepted += statuses.filter((s) => s === 200).length
    }
    expect(accepted).toBeGreaterThan(5)
    if (group) expect(group.stats.commits - commitsBefore).toBeLessThan(accepted)

    const lot = await t.database.db
      .selectFrom('lots')
      .selectAll()
      .where('id', '=', lotId)
      .executeTakeFirstOrThrow()
    const rows = await t.database.db
      .selectFrom('bids')
      .select(['user_id', 'amount', 'auto'])
      .where('lot_id', '=', lotId)
      .orderBy('id')
      .execute()
    const proxyRows = await t.database.db
      .selectFrom('proxies')
      .select(['user_id', 'max_amount', 'active'])
      .where('lot_id', '=', lotId)
      .orderBy('user_id')
      .execute()

    // Replay: the proxies in their order, then every accepted direct bid in the order its own
    // (non-automatic) row was written.
    let state: LotState = {
      startPrice: lot.start_price,
      reservePrice: lot.reserve_price,
      price: null,
      leaderId: null,
      leaderSince: 0,
      startsAt: lot.starts_at,
      endsAt: lot.ends_at,
      proxies: [],
      bidCount: 0,
    }
    const at = t.clock.now()
    const replayed: Array<{ user_id: number; amount: number; auto: number }> = []
    const apply = (userId: number, amount: number, proxy: boolean) => {
      const result = placeBid(state, { userId, amount, proxy, at })
      if (!result.ok) throw new Error(`replay refused ${userId} ${amount}: ${result.code}`)
      state = result.state
      for (const c of result.changes)
        replayed.push({ user_id: c.userId, amount: c.amount, auto: c.auto ? 1 : 0 })
    }
    for (const [i, max] of proxies) apply(Number(bidders[i]!.userId), max, true)
    const typedByProxies = replayed.filter((r) => r.auto === 0).length
    for (const row of rows.filter((r) => r.auto === 0).slice(typedByProxies)) {
      apply(row.user_id, row.amount, false)
    }
    expect(rows).toEqual(replayed)
    expect({ price: lot.price, leader: lot.leader_id, bidCount: lot.bid_count }).toEqual({
      price: state.price,
      leader: state.leaderId,
      bidCount: state.bidCount,
    })
    expect(proxyRows.map((p) => [p.user_id, p.max_amount, p.active === 1])).toEqual(
      [...state.proxies]
        .sort((a, b) => a.userId - b.userId)
        .map((p) => [p.userId, p.max, p.active]),
    )
  })
})
