import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import type { BidResult } from '@numisma/contracts/bidding'
import { type LotState, placeBid, type PriceChange } from '@numisma/domain/bid-engine'
import { nextAmount, type PriceStep } from '@numisma/domain/increments'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CatalogRepository } from '../src/modules/catalog/repository'
import { LedgerService } from '../src/modules/ledger/service'
import { PassportRepository } from '../src/modules/passport/repository'
import { systemClock } from '../src/platform/clock'
import { randomToken, sha256Hex } from '../src/platform/crypto'
import { type Database, openDatabase } from '../src/platform/db'
import { loadPublicApps } from '../src/platform/public-apps'
import { SettingsRepository } from '../src/platform/settings-repository'
import { createPostgresDatabase, type PostgresDatabase, testDatabases } from './helpers/databases'
import { readLotRecord } from './helpers/lot-record'
import { openPush, type PushInbox } from './helpers/push-client'
import { REDIS_TEST_URL, redisAvailable } from './helpers/redis'
import {
  type Answer,
  type SessionCredentials,
  sendSigned,
  ServerProcess,
  type SigningConfig,
  signRequest,
  sleep,
} from './helpers/server-process'

/**
 * Issue 14 item 4: two real server processes (`node --import tsx apps/server/src/server.ts`) on one
 * PostgreSQL database and one Redis, each with its jobs (the closing sweeper among them) running,
 * as a production deployment runs them behind a load balancer. The in-process version
 * (multi-instance.test.ts) shares a clock and a database handle; here nothing is shared but the
 * database and Redis, and requests go over HTTP, signed like the web client.
 *
 * NUMISMA_ENV=production: that is the mode several instances are deployed in (DESIGN §1), and the
 * one whose defaults matter here — no sandboxes, push origins as production checks them, nonces in
 * Redis. Production hands out no SMS codes, so users, sessions, deposits and lots are written
 * straight to the database before the processes start (as bench/bids.ts does).
 */
const postgresAvailable = (await testDatabases()).some((d) => d.name === 'postgres')
const redis = await redisAvailable()

const USERS = 8
const CLOSERS = 4
const DEPOSIT = 10_000_000_000
const START_PRICE = 10_000
const MINUTE = 60_000

interface Fixture {
  database: Database
  postgres: PostgresDatabase
  config: SigningConfig
  users: SessionCredentials[]
  /** Winners of the closing lots (d): notices of their own, nothing else on them. */
  closers: SessionCredentials[]
  specialId: number
  lots: { concurrent: number; latency: number; replay: number; kill: number }
}

// --- Fixtures, written straight to the database ------------------------------------------------

async function createUsers(database: Database, tag: string, count: number, from: number) {
  const passport = new PassportRepository(database.db)
  const ledger = new LedgerService(database, systemClock)
  const now = Date.now()
  const users: SessionCredentials[] = []
  for (let i = 0; i < count; i++) {
    const user = await passport.findOrCreateUser(
      `139${tag}${String(from + i).padStart(4, '0')}`,
      `multi${from + i}`,
      now,
    )
    const sid = randomToken(32)
    const session = { id: `s_${randomToken(15)}`, key: randomToken(24) }
    const deviceId = `multi-process-${from + i}`
    await passport.insertSession({
      id: session.id,
      userId: user.id,
      key: session.key,
      sidHash: sha256Hex(sid),
      deviceId,
      now,
      expiresAt: now + 86_400_000,
    })
    await ledger.creditDeposit(user.id, DEPOSIT, 'multi-process deposit')
    users.push({ userId: String(user.id), id: session.id, key: session.key, sid, deviceId })
  }
  return users
}

async function createSpecial(database: Database, endsAt: number): Promise<number> {
  const now = Date.now()
  return new CatalogRepository(database.db).insertSpecial({
    title: '多实例测试专场',
    subtitle: '',
    description: '',
    cover: '',
    starts_at: now - MINUTE,
    ends_at: endsAt,
    stagger_seconds: 0,
    // No soft close: a lot's end stays where the suite put it, and the replay's `at` is any time.
    soft_close_window_seconds: 0,
    soft_close_extend_seconds: 0,
    created_at: now,
  })
}

/** Open lots of one special, ending at the given times; their ids in that order. */
async function createLots(database: Database, specialId: number, ends: number[]) {
  const catalog = new CatalogRepository(database.db)
  const now = Date.now()
  const before = new Set((await catalog.lotsOfSpecial(specialId)).map((l) => l.id))
  const first = (await catalog.lotsOfSpecial(specialId)).length
  await catalog.insertLots(
    ends.map((endsAt, i) => ({
      special_id: specialId,
      lot_no: first + i + 1,
      category_id: null,
      title: `多实例测试拍品 ${first + i + 1}`,
      subtitle: '',
      description: '',
      images: '[]',
      grade_code: 0,
      grading_service: null,
      cert_no: null,
      year: '',
      denomination: '',
      material: '',
      start_price: START_PRICE,
      reserve_price: null,
      starts_at: now - MINUTE,
      ends_at: endsAt,
      export_banned: 0,
      status: 'open',
      price: null,
      bid_count: 0,
      leader_id: null,
      created_at: now,
    })),
  )
  return (await catalog.lotsOfSpecial(specialId))
    .map((l) => l.id)
    .filter((id) => !before.has(id))
    .sort((a, b) => a - b)
}

async function setUp(postgres: PostgresDatabase): Promise<Fixture> {
  // Opening it migrates it: the two processes then start on a migrated database.
  const database = await openDatabase({ url: postgres.url, poolSize: 4 })
  // Lot ids far from those of other suites' fresh databases: the Redis push channel is one per
  // Redis, so a suite running beside this one publishes its lot 1, 2, 3… to our watchers too.
  const base = 100_000_000 + Math.floor(Math.random() * 1_000_000_000)
  await sql`select setval(pg_get_serial_sequence('lots', 'id'), ${base})`.execute(database.db)
  const tag = String(process.pid % 100).padStart(2, '0')
  const users = await createUsers(database, tag, USERS, 0)
  const closers = await createUsers(database, tag, CLOSERS, USERS)
  const specialId = await createSpecial(database, Date.now() + 60 * MINUTE)
  const [concurrent, latency, replay, kill] = await createLots(
    database,
    specialId,
    Array.from({ length: 4 }, () => Date.now() + 60 * MINUTE),
  )
  const apps = await loadPublicApps(new SettingsRepository(database.db))
  return {
    database,
    postgres,
    config: { apps: { h5: apps.h5 }, signSecret: apps.signSecret },
    users,
    closers,
    specialId,
    lots: { concurrent: concurrent!, latency: latency!, replay: replay!, kill: kill! },
  }
}

/**
 * A Redis database of this suite's own, as it has its own PostgreSQL database: what the servers
 * keep in Redis (nonces, rate-limit counters, job leases) is then theirs alone, whichever suites'
 * servers (graceful-shutdown, server-logs) run beside them. Pub/sub is not per database: the lot
 * ids (see setUp) keep other suites' pushes apart from ours.
 */
const redisUrl = (() => {
  const url = new URL(REDIS_TEST_URL)
  url.pathname = `/${1 + Math.floor(Math.random() * 15)}`
  return url.toString()
})()

function serverEnv(postgres: PostgresDatabase, dataDir: string): Record<string, string> {
  return {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: postgres.url,
    REDIS_URL: redisUrl,
    SEED: 'none',
    NUMISMA_ENV: 'production',
    SMS_PROVIDER: 'sandbox',
    PAY_PASSWORD_PEPPER: 'multi-process-pepper-0123456789',
    NUMISMA_ADMIN_PASSWORD: 'multi-process-admin-password',
    // Info, for the "Numisma is up" line that names the bound port.
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
  }
}

// --- Bids and what the domain says of them -------------------------------------------------------

interface BidRequestBody {
  lotId: number
  amount: number
  proxy: boolean
}

interface Sent {
  user: SessionCredentials
  body: BidRequestBody
  via: 'A' | 'B'
  key?: string
  /** `lost`: no answer (the process died under it). */
  outcome: 'acked' | 'refused' | 'lost'
  answer?: Answer
  sentAt: number
  /** When its connection to A died under it (SIGKILL); it was then sent to B. */
  lostOnA?: number
}

const resultOf = (s: Sent) => (s.answer!.body as { data: BidResult }).data

async function lotStateAt0(database: Database, lotId: number): Promise<LotState> {
  const lot = await database.db
    .selectFrom('lots')
    .select(['start_price', 'reserve_price', 'starts_at', 'ends_at'])
    .where('id', '=', lotId)
    .executeTakeFirstOrThrow()
  return {
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
}

interface AcceptedBid {
  userId: number
  body: BidRequestBody
  result: BidResult
}

/** What an answer says of the lot, and what the engine's outcome says of it, alike. */
function answerOf(result: BidResult) {
  const { price, bidCount, leading, myMax, notLeading } = result
  return { price, bidCount, leading, myMax, notLeading }
}

/**
 * Replays the accepted bids through packages/domain placeBid, in the order their answers put them:
 * by the bid count each reports. A bid that moves the price has a count of its own; one that does
 * not (the leader raising their proxy) reports the count it was placed at, equal to the count of
 * the bid that gave it the lead — so among bids reporting the same count, the one whose answer the
 * engine gives from the state reached is next (a small search: the order is only ever ambiguous
 * between such a pair). Every answer must be the engine's for its bid; returns the engine's final
 * state and the price changes it records.
 */
function replayThroughDomain(
  initial: LotState,
  accepted: AcceptedBid[],
  steps: PriceStep[],
): { state: LotState; changes: PriceChange[] } {
  let deepest = { placed: -1, why: '' }
  const search = (
    state: LotState,
    remaining: AcceptedBid[],
    changes: PriceChange[],
  ): { state: LotState; changes: PriceChange[] } | undefined => {
    if (remaining.length === 0) return { state, changes }
    const raises = remaining.filter((b) => b.result.bidCount === state.bidCount)
    const least = Math.min(...remaining.map((b) => b.result.bidCount))
    const candidates = (
      raises.length > 0 ? raises : remaining.filter((b) => b.result.bidCount === least)
    ).sort((x, y) => x.body.amount - y.body.amount)
    for (const next of candidates) {
      const outcome = placeBid(
        state,
        { userId: next.userId, amount: next.body.amount, proxy: next.body.proxy, at: Date.now() },
        { steps },
      )
      const mine = outcome.ok
        ? outcome.state.proxies.find((p) => p.userId === next.userId && p.active)
        : undefined
      const engine = outcome.ok
        ? {
            price: outcome.state.price,
            bidCount: outcome.state.bidCount,
            leading: outcome.leading,
            myMax: mine ? mine.max : null,
            notLeading: outcome.notLeading,
          }
        : outcome.code
      const answered = answerOf(next.result)
      if (!outcome.ok || !isDeepStrictEqual(engine, answered)) {
        const placed = accepted.length - remaining.length
        if (placed > deepest.placed) {
          deepest = {
            placed,
            why:
              `after ${placed} bids, ${JSON.stringify({ userId: next.userId, ...next.body })} ` +
              `was answered ${JSON.stringify(answered)}; the domain says ${JSON.stringify(engine)}`,
          }
        }
        continue
      }
      const found = search(
        outcome.state,
        remaining.filter((b) => b !== next),
        [...changes, ...outcome.changes],
      )
      if (found) return found
    }
    return undefined
  }
  const found = search(initial, accepted, [])
  if (!found) {
    throw new Error(`no order of the accepted bids gives their answers: ${deepest.why}`)
  }
  return found
}

/** The lot's row, history and proxies are the domain's final state and changes. */
async function expectLotIs(
  database: Database,
  lotId: number,
  expected: { state: LotState; changes: PriceChange[] },
) {
  const { lot, bids, proxies } = await readLotRecord(database, lotId)
  const { state, changes } = expected
  expect(lot, `lot ${lotId}`).toEqual({
    price: state.price,
    leader_id: state.leaderId,
    bid_count: state.bidCount,
  })
  expect(lot.bid_count, `lot ${lotId}: bid count = history rows`).toBe(bids.length)
  expect(
    bids.map((b) => ({ userId: b.user_id, amount: b.amount, auto: b.auto === 1 })),
    `lot ${lotId}: bid history = the domain's price changes, in order`,
  ).toEqual(changes)
  const byUser = (a: { userId: number }, b: { userId: number }) => a.userId - b.userId
  expect(
    proxies
      .map((p) => ({ userId: p.user_id, max: p.max_amount, active: p.active === 1 }))
      .sort(byUser),
    `lot ${lotId}: proxies`,
  ).toEqual(
    state.proxies.map((p) => ({ userId: p.userId, max: p.max, active: p.active })).sort(byUser),
  )
}

/** The least next bid as the clients last learnt it, per lot. */
class Floor {
  private readonly least = new Map<number, number>()
  constructor(private readonly steps: PriceStep[]) {}

  get(lotId: number): number {
    return this.least.get(lotId) ?? START_PRICE
  }

  learn(sent: Sent): void {
    const lotId = sent.body.lotId
    if (sent.outcome === 'acked') {
      this.raise(lotId, nextAmount(resultOf(sent).price!, this.steps))
    } else if (sent.outcome === 'refused') {
      const minimum = (sent.answer!.body as { details?: { minimum?: number } }).details?.minimum
      if (minimum !== undefined) this.raise(lotId, minimum)
    }
  }

  private raise(lotId: number, amount: number) {
    this.least.set(lotId, Math.max(this.get(lotId), amount))
  }
}

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!

/** A bid at the least the client knows of, or a step or two above; now and then a proxy. */
function nextBid(floor: Floor, steps: PriceStep[], lotId: number): BidRequestBody {
  let amount = floor.get(lotId)
  for (let i = pick([0, 0, 1, 2]); i > 0; i--) amount = nextAmount(amount, steps)
  const proxy = Math.random() < 0.3
  if (proxy) for (let i = pick([1, 2, 3]); i > 0; i--) amount = nextAmount(amount, steps)
  return { lotId, amount, proxy }
}

/**
 * Error lines the server logged, but for a malformed message heard on the push channel: that
 * channel is one per Redis, whatever the database, and server-logs.test.ts publishes such a
 * message on purpose, so a run beside it has every server with REDIS_URL log one. (A malformed
 * event of our own would also be refused there; the watchers above see ours arrive.)
 */
function ownErrorLines(server: ServerProcess): string[] {
  return server.errorLines.filter((line) => {
    try {
      const entry = JSON.parse(line) as { msg?: string; err?: { type?: string } }
      return !(
        entry.msg === 'redis push bus error' &&
        ['ZodError', 'SyntaxError'].includes(entry.err?.type ?? '')
      )
    } catch {
      return true
    }
  })
}

/** SIGTERM, and SIGKILL if it has not ended within 10 s. */
async function stopGracefully(server: ServerProcess): Promise<void> {
  await Promise.race([server.stop('SIGTERM'), sleep(10_000)])
  await server.stop('SIGKILL')
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

// --- The suite ----------------------------------------------------------------------------------

describe.runIf(postgresAvailable && redis)('two server processes on PostgreSQL + Redis', () => {
  const dataDirs = [0, 1].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'numisma-multi-')))
  let fixture: Fixture
  let a: ServerProcess
  let b: ServerProcess
  let steps: PriceStep[]
  const sockets: PushInbox[] = []
  const base = (via: 'A' | 'B') => (via === 'A' ? a : b).baseUrl

  beforeAll(async () => {
    const postgres = await createPostgresDatabase('numisma_multi')
    fixture = await setUp(postgres)
    a = new ServerProcess(serverEnv(postgres, dataDirs[0]!))
    b = new ServerProcess(serverEnv(postgres, dataDirs[1]!))
    // Together, as a deployment's instances start.
    const starting = Date.now()
    await Promise.all([a.start(45_000), b.start(45_000)])
    console.info(`multi-process: both instances up in ${(Date.now() - starting) / 1000} s`)
    const res = await sendSigned(
      a.baseUrl,
      signRequest(fixture.config, 'GET', '/bidding/price-step'),
    )
    expect(res.status).toBe(200)
    steps = (res.body as { data: PriceStep[] }).data
  }, 60_000)

  afterAll(async () => {
    for (const s of sockets) s.socket.terminate()
    // SIGTERM: each gives its job leases up (Redis keys that would otherwise outlive the run).
    const stopping = Date.now()
    await Promise.all([a, b].map((server) => server && stopGracefully(server)))
    console.info(`multi-process: both instances stopped in ${(Date.now() - stopping) / 1000} s`)
    await fixture?.database.close()
    await fixture?.postgres.drop()
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true })
  })

  /** Sends one bid; the outcome and answer are recorded on it (a 5xx fails the suite). */
  async function send(sent: Sent): Promise<void> {
    try {
      sent.answer = await sendSigned(
        base(sent.via),
        signRequest(fixture.config, 'POST', '/bidding/bid', {
          as: sent.user,
          body: sent.body,
          key: sent.key,
        }),
      )
    } catch {
      sent.outcome = 'lost'
      return
    }
    const { status } = sent.answer
    if (status >= 500) {
      const errors = (sent.via === 'A' ? a : b).errorLines.slice(-3).join('\n')
      throw new Error(`${status} from ${sent.via}: ${JSON.stringify(sent)}\nits log:\n${errors}`)
    }
    sent.outcome = status === 200 ? 'acked' : 'refused'
  }

  it('serialises concurrent bids on one lot across both instances as the domain would', async () => {
    const lotId = fixture.lots.concurrent
    const floor = new Floor(steps)
    const sent: Sent[] = []
    // Until 60 bids are accepted (about 4 s on an idle machine), or 15 s on a loaded one.
    const deadline = Date.now() + 15_000
    const enough = () => sent.filter((s) => s.outcome === 'acked').length >= 60
    let turn = 0
    // Two clients per user, so the same bidder also races itself across the instances.
    const worker = async (user: SessionCredentials) => {
      while (Date.now() < deadline && !enough() && sent.length < 600) {
        const s: Sent = {
          user,
          body: nextBid(floor, steps, lotId),
          via: turn++ % 2 === 0 ? 'A' : 'B',
          outcome: 'lost',
          sentAt: Date.now(),
        }
        sent.push(s)
        await send(s)
        floor.learn(s)
      }
    }
    await Promise.all(fixture.users.flatMap((u) => [worker(u), worker(u)]))

    expect(
      sent.filter((s) => s.outcome === 'lost'),
      'unanswered bids',
    ).toEqual([])
    const acked = sent.filter((s) => s.outcome === 'acked')
    const refusals = new Map<string, number>()
    for (const s of sent.filter((s) => s.outcome === 'refused')) {
      const code = (s.answer!.body as { code: string }).code
      refusals.set(code, (refusals.get(code) ?? 0) + 1)
    }
    // A refusal is a bid the lot's state turned down, nothing else (no signing or session trouble).
    expect(
      [...refusals.keys()].filter((c) => !['BID_TOO_LOW', 'ALREADY_LEADING'].includes(c)),
    ).toEqual([])
    const replayed = replayThroughDomain(
      await lotStateAt0(fixture.database, lotId),
      acked.map((s) => ({ userId: Number(s.user.userId), body: s.body, result: resultOf(s) })),
      steps,
    )
    await expectLotIs(fixture.database, lotId, replayed)
    console.info(
      `multi-process (a): ${sent.length} bids, ${acked.length} accepted ` +
        `(A ${acked.filter((s) => s.via === 'A').length}, B ${acked.filter((s) => s.via === 'B').length}; ` +
        `proxy ${acked.filter((s) => s.body.proxy).length}), ` +
        `refused ${JSON.stringify(Object.fromEntries(refusals))}, ${replayed.changes.length} history rows`,
    )
    // Enough happened on both sides for the comparison to mean something.
    expect(acked.filter((s) => s.via === 'A').length).toBeGreaterThanOrEqual(5)
    expect(acked.filter((s) => s.via === 'B').length).toBeGreaterThanOrEqual(5)
    expect(acked.some((s) => s.body.proxy)).toBe(true)
  }, 30_000)

  it('pushes a bid placed on B to a watcher on A within 200 ms', async () => {
    const lotId = fixture.lots.latency
    const N = 30
    const watcher = await openPush(a.baseUrl)
    sockets.push(watcher)
    const arrivals: { at: number; message: Record<string, unknown> }[] = []
    watcher.socket.on('message', (data: Buffer) =>
      arrivals.push({
        at: Date.now(),
        message: JSON.parse(data.toString()) as Record<string, unknown>,
      }),
    )
    watcher.socket.send(JSON.stringify({ type: 'subscribe', lotIds: [lotId] }))
    await watcher.waitFor((m) => m.type === 'lot' && m.lotId === lotId, 10_000)

    const timings: { sent: number; acked: number; pushed: number; bidCount: number }[] = []
    let price: number | null = null
    for (let i = 0; i < N; i++) {
      const user = fixture.users[i % 2]!
      const amount = price === null ? START_PRICE : nextAmount(price, steps)
      const sent = Date.now()
      const res = await sendSigned(
        b.baseUrl,
        signRequest(fixture.config, 'POST', '/bidding/bid', {
          as: user,
          body: { lotId, amount, proxy: false },
        }),
      )
      const acked = Date.now()
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      const result = (res.body as { data: BidResult }).data
      expect(result.bidCount).toBe(i + 1)
      price = result.price
      const isThisBid = (m: Record<string, unknown>) =>
        m.type === 'lot' && m.lotId === lotId && m.bidCount === i + 1
      await watcher.waitFor(isThisBid, 5_000)
      const pushed = arrivals.find((x) => isThisBid(x.message))!
      expect(pushed.message).toMatchObject({ price: amount })
      timings.push({ sent, acked, pushed: pushed.at, bidCount: i + 1 })
      await sleep(20)
    }
    // When each bid was recorded (its row's time, read inside its transaction before commit).
    const rows = await fixture.database.db
      .selectFrom('bids')
      .select(['created_at'])
      .where('lot_id', '=', lotId)
      .orderBy('id')
      .execute()
    // After the bidder on B was answered: what a watcher on A waits beyond the bidder.
    const afterAck = timings.map((t) => Math.max(0, t.pushed - t.acked)).sort((x, y) => x - y)
    const afterRecord = timings
      .map((t) => t.pushed - rows[t.bidCount - 1]!.created_at)
      .sort((x, y) => x - y)
    const afterSend = timings.map((t) => t.pushed - t.sent).sort((x, y) => x - y)
    console.info(
      `multi-process (b): push to a watcher on A of ${N} bids on B, ms after ` +
        `B's answer p50 ${percentile(afterAck, 50)} p99 ${percentile(afterAck, 99)} max ${afterAck.at(-1)}; ` +
        `after the bid's recorded time p50 ${percentile(afterRecord, 50)} p99 ${percentile(afterRecord, 99)}; ` +
        `after sending p50 ${percentile(afterSend, 50)} p99 ${percentile(afterSend, 99)}`,
    )
    // The figure: the watcher on A sees the bid within 200 ms of its being placed, i.e.
    // acknowledged to the bidder on B. Not from the bid's recorded time: that adds the rest of
    // B's own transaction, which on a CPU-starved machine (load 17 on 2 cores) took its p99 to
    // 145 ms while the push behind the answer stayed at 38 ms; it is reported, not judged.
    expect(
      afterAck.filter((ms) => ms > 200),
      'pushes later than 200 ms after the answer',
    ).toEqual([])
  }, 30_000)

  it('refuses a signed request replayed to the other instance', async () => {
    const lotId = fixture.lots.replay
    const user = fixture.users[0]!
    const bid = signRequest(fixture.config, 'POST', '/bidding/bid', {
      as: user,
      body: { lotId, amount: START_PRICE, proxy: false },
    })
    const first = await sendSigned(a.baseUrl, bid)
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    const onB = await sendSigned(b.baseUrl, bid)
    expect(onB).toMatchObject({ status: 401, body: { code: 'NONCE_REPLAYED' } })
    const onA = await sendSigned(a.baseUrl, bid)
    expect(onA).toMatchObject({ status: 401, body: { code: 'NONCE_REPLAYED' } })
    const rows = await fixture.database.db
      .selectFrom('bids')
      .select(['user_id', 'amount'])
      .where('lot_id', '=', lotId)
      .execute()
    expect(rows).toEqual([{ user_id: Number(user.userId), amount: START_PRICE }])

    // And the other way round, for an anonymous read: first on B, then on A.
    const read = signRequest(fixture.config, 'GET', `/bidding/${lotId}?page=1&pageSize=10`)
    expect((await sendSigned(b.baseUrl, read)).status).toBe(200)
    expect(await sendSigned(a.baseUrl, read)).toMatchObject({
      status: 401,
      body: { code: 'NONCE_REPLAYED' },
    })
  }, 30_000)

  it('closes each lot exactly once while both instances sweep', async () => {
    const db = fixture.database.db
    const special = await createSpecial(fixture.database, Date.now() + 60 * MINUTE)
    // Six lots: the first four are bid on, the rest not; their ends are brought forward once the
    // bids are in, however long a loaded machine took over those.
    const lotIds = await createLots(
      fixture.database,
      special,
      Array.from({ length: 6 }, () => Date.now() + 60 * MINUTE),
    )
    const watchers = await Promise.all([openPush(a.baseUrl), openPush(b.baseUrl)])
    sockets.push(...watchers)
    for (const w of watchers) {
      w.socket.send(JSON.stringify({ type: 'subscribe', lotIds }))
      await w.waitFor((m) => m.type === 'lot' && m.lotId === lotIds.at(-1), 10_000)
    }
    const bids = fixture.closers.map((user, i) =>
      sendSigned(
        base(i % 2 === 0 ? 'A' : 'B'),
        signRequest(fixture.config, 'POST', '/bidding/bid', {
          as: user,
          body: { lotId: lotIds[i]!, amount: START_PRICE, proxy: i === 3 },
        }),
      ),
    )
    for (const res of await Promise.all(bids)) expect(res.status, JSON.stringify(res)).toBe(200)
    // A second bidder on the first lot, through the other instance: the leader at the end wins.
    const outbid = await sendSigned(
      b.baseUrl,
      signRequest(fixture.config, 'POST', '/bidding/bid', {
        as: fixture.closers[1]!,
        body: { lotId: lotIds[0]!, amount: nextAmount(START_PRICE, steps), proxy: false },
      }),
    )
    expect(outbid.status, JSON.stringify(outbid)).toBe(200)
    const winners = [
      fixture.closers[1]!,
      fixture.closers[1]!,
      fixture.closers[2]!,
      fixture.closers[3]!,
    ]
    // Ending 1.5 s from now, 300 ms apart, while both instances sweep.
    const now = Date.now()
    for (const [i, id] of lotIds.entries()) {
      await db
        .updateTable('lots')
        .set({ ends_at: now + 1_500 + i * 300 })
        .where('id', '=', id)
        .execute()
    }

    const deadline = Date.now() + 20_000
    for (;;) {
      const open = await db
        .selectFrom('lots')
        .select('id')
        .where('id', 'in', lotIds)
        .where('status', '=', 'open')
        .execute()
      if (open.length === 0) break
      if (Date.now() > deadline) throw new Error(`lots still open: ${open.map((l) => l.id).join()}`)
      await sleep(200)
    }
    // Two more sweeps (by each instance, or by the one holding the job's lease): a lot closed
    // twice would show now.
    await sleep(2_500)

    const lots = await db
      .selectFrom('lots')
      .select(['id', 'status', 'leader_id', 'price'])
      .where('id', 'in', lotIds)
      .orderBy('id')
      .execute()
    expect(lots.map((l) => l.status)).toEqual(['sold', 'sold', 'sold', 'sold', 'unsold', 'unsold'])
    const orders = await db
      .selectFrom('orders')
      .select(['id', 'lot_id', 'user_id', 'amount'])
      .where('lot_id', 'in', lotIds)
      .orderBy('lot_id')
      .execute()
    expect(orders.map((o) => ({ lotId: o.lot_id, userId: o.user_id, amount: o.amount }))).toEqual(
      lots.slice(0, 4).map((l, i) => ({
        lotId: l.id,
        userId: Number(winners[i]!.userId),
        amount: l.price,
      })),
    )
    const notices = await db
      .selectFrom('notices')
      .select(['user_id', 'params'])
      .where('kind', '=', 'lot_won')
      .where(
        'user_id',
        'in',
        fixture.closers.map((c) => Number(c.userId)),
      )
      .execute()
    expect(
      notices
        .map((n) => ({
          userId: n.user_id,
          ...(JSON.parse(n.params) as { lotId: number; orderId: number }),
        }))
        .map(({ userId, lotId, orderId }) => ({ userId, lotId, orderId }))
        .sort((x, y) => x.lotId - y.lotId),
      'one lot_won notice per won lot',
    ).toEqual(orders.map((o) => ({ userId: o.user_id, lotId: o.lot_id, orderId: o.id })))
    const live = await db
      .selectFrom('proxies')
      .select(['lot_id', 'user_id'])
      .where('lot_id', 'in', lotIds)
      .where('active', '=', 1)
      .execute()
    expect(live, 'live proxies after the close').toEqual([])
    // Each close is announced once, whichever instance swept it, to watchers on both.
    for (const [i, w] of watchers.entries()) {
      const closings = w.messages
        .filter((m) => m.type === 'lot' && (m.status === 'sold' || m.status === 'unsold'))
        .map((m) => ({ lotId: m.lotId, status: m.status }))
        .sort((x, y) => (x.lotId as number) - (y.lotId as number))
      expect(closings, `closing pushes on ${i === 0 ? 'A' : 'B'}`).toEqual(
        lots.map((l) => ({ lotId: l.id, status: l.status })),
      )
    }
  }, 40_000)

  it('loses no acknowledged bid when A is killed mid-load; B serves on; A comes back', async () => {
    const lotId = fixture.lots.kill
    const floor = new Floor(steps)
    const sent: Sent[] = []
    let running = true
    let aGone = false
    let turn = 0
    const inFlight = { A: 0, B: 0 }
    const worker = async (user: SessionCredentials) => {
      while (running) {
        // Once A is gone the balancer sends everything to B.
        const via = turn++ % 2 === 0 && !aGone ? 'A' : 'B'
        const s: Sent = {
          user,
          body: nextBid(floor, steps, lotId),
          via,
          key: `mp-${randomUUID()}`,
          outcome: 'lost',
          sentAt: Date.now(),
        }
        sent.push(s)
        inFlight[via]++
        try {
          await send(s)
        } finally {
          inFlight[via]--
        }
        if (s.outcome === 'lost' && via === 'A') {
          // Its connection died with A: the client sends the same bid under the same key to B,
          // which replays what A committed of it, or applies it now, once.
          s.lostOnA = Date.now()
          s.via = 'B'
          await send(s)
        }
        floor.learn(s)
      }
    }
    const workers = Promise.all(fixture.users.map((u) => worker(u)))
    // At least 1.5 s of load, and until A has acknowledged a few bids (a loaded machine is slow).
    const loadStarted = Date.now()
    const ackedByA = () => sent.filter((s) => s.via === 'A' && s.outcome === 'acked').length
    while (
      Date.now() - loadStarted < 1_500 ||
      (ackedByA() < 3 && Date.now() - loadStarted < 15_000)
    ) {
      await sleep(50)
    }
    // The kill lands on bids in flight on A, or it proves nothing about them.
    const aimed = Date.now()
    while (inFlight.A === 0 && Date.now() - aimed < 5_000) {
      await new Promise((resolve) => setImmediate(resolve))
    }
    aGone = true
    const inFlightOnA = inFlight.A
    const killedAt = Date.now()
    await a.stop('SIGKILL')
    await sleep(1_500)
    running = false
    await workers

    expect(
      sent.filter((s) => s.outcome === 'lost'),
      'bids unanswered (on B)',
    ).toEqual([])
    const acked = sent.filter((s) => s.outcome === 'acked')
    const ackedOnA = acked.filter((s) => s.via === 'A')
    const ackedOnBAfterKill = acked.filter((s) => s.via === 'B' && s.sentAt > killedAt)
    const retried = sent.filter((s) => s.lostOnA !== undefined)
    expect(ackedOnA.length, 'bids A acknowledged').toBeGreaterThan(0)
    expect(ackedOnBAfterKill.length, 'bids B acknowledged after the kill').toBeGreaterThan(0)

    // Every acknowledged bid is kept under its key with the answer given (for a retry A had
    // committed, B's answer is A's replayed); a refused one left nothing.
    const keys = await fixture.database.db
      .selectFrom('idempotency_keys')
      .select(['key', 'status', 'body', 'created_at'])
      .where(
        'key',
        'in',
        sent.map((s) => s.key!),
      )
      .execute()
    const stored = new Map(keys.map((k) => [k.key, k]))
    for (const s of acked) {
      expect(stored.get(s.key!)?.status, `acknowledged bid ${s.key} kept`).toBe(200)
      expect(JSON.parse(stored.get(s.key!)!.body), s.key).toEqual(resultOf(s))
    }
    const refusedKept = sent.filter((s) => s.outcome === 'refused' && stored.has(s.key!))
    expect(refusedKept, 'refused bids left keys').toEqual([])
    // And the lot is what the domain makes of exactly those bids.
    await expectLotIs(
      fixture.database,
      lotId,
      replayThroughDomain(
        await lotStateAt0(fixture.database, lotId),
        acked.map((s) => ({ userId: Number(s.user.userId), body: s.body, result: resultOf(s) })),
        steps,
      ),
    )
    const committedByA = retried.filter(
      (s) => s.outcome === 'acked' && stored.get(s.key!)!.created_at < s.lostOnA!,
    ).length

    // A restarts on the same database and serves, and B still does.
    const restartStarted = Date.now()
    await a.start(45_000)
    const restartS = (Date.now() - restartStarted) / 1000
    // Its push role is back on the bus: a watcher on the new A hears bids on A and on B.
    const watcher = await openPush(a.baseUrl)
    sockets.push(watcher)
    watcher.socket.send(JSON.stringify({ type: 'subscribe', lotIds: [lotId] }))
    await watcher.waitFor((m) => m.type === 'lot' && m.lotId === lotId, 10_000)
    for (const via of ['A', 'B'] as const) {
      const state = await fixture.database.db
        .selectFrom('lots')
        .select(['price', 'leader_id'])
        .where('id', '=', lotId)
        .executeTakeFirstOrThrow()
      const bidder = fixture.users.find((u) => Number(u.userId) !== state.leader_id)!
      const res = await sendSigned(
        base(via),
        signRequest(fixture.config, 'POST', '/bidding/bid', {
          as: bidder,
          body: { lotId, amount: nextAmount(state.price!, steps), proxy: false },
        }),
      )
      expect(res.status, `after the restart, on ${via}: ${JSON.stringify(res.body)}`).toBe(200)
      const { bidCount } = (res.body as { data: BidResult }).data
      await watcher.waitFor(
        (m) => m.type === 'lot' && m.lotId === lotId && m.bidCount === bidCount,
        5_000,
      )
    }

    console.info(
      `multi-process (e): ${sent.length} bids, ${acked.length} acknowledged ` +
        `(A ${ackedOnA.length}, B ${acked.length - ackedOnA.length}, B after the kill ` +
        `${ackedOnBAfterKill.length}); in flight on A at the kill ${inFlightOnA}, retried on B ` +
        `${retried.length}: committed by A and replayed ${committedByA}, applied by B ` +
        `${retried.filter((s) => s.outcome === 'acked').length - committedByA}, refused ` +
        `${retried.filter((s) => s.outcome === 'refused').length}; A restarted in ${restartS.toFixed(1)} s`,
    )
    expect(inFlightOnA, 'bids in flight on A when it was killed').toBeGreaterThan(0)
    expect(ownErrorLines(a), 'error lines on A').toEqual([])
    expect(ownErrorLines(b), 'error lines on B').toEqual([])
  }, 60_000)
})
