import { isDeepStrictEqual } from 'node:util'
import {
  type Bid,
  type BidResult,
  cancelProxy,
  type LotState,
  placeBid,
} from '@numisma/domain/bid-engine'
import { checkIncrementTable } from '@numisma/domain/increment-table'
import { DEFAULT_PRICE_STEPS, nextAmount, type PriceStep } from '@numisma/domain/increments'
import { exposure, type QuotaInput, withinQuota } from '@numisma/domain/quota'
import { endAfterBid } from '@numisma/domain/soft-close'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NOTICES_KEPT_PER_USER, NOTICES_TRIM_EVERY } from '../src/modules/notices/writer'
import type { Database } from '../src/platform/db'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { createLots, creditDeposit } from './helpers/auction'
import { testDatabases } from './helpers/databases'
import { prng, Rng } from './helpers/fuzz/generate'

/**
 * Issue 14 / ADR 030: on PostgreSQL a bid is decided by PL/pgSQL ports of packages/domain
 * (migration 0019). The domain stays the source of truth; this suite proves the ports agree with
 * it on generated inputs — the engine step by step over 10,000 bid sequences, the quota, soft
 * close — and that a bid through the HTTP app on PostgreSQL (numisma_place_bid) ends as the same
 * bid through the TypeScript transaction on SQLite.
 */
const databases = await testDatabases()
const postgres = databases.find((d) => d.name === 'postgres')
const sqlite = databases.find((d) => d.name === 'sqlite')!
const SEED = Number(process.env.PG_BID_SEED ?? 20261127)
const SEQUENCES = 10_000
const HOUR = 3_600_000

/** A valid increment table (checkIncrementTable), with steps growing or shrinking. */
function stepTable(rng: Rng): PriceStep[] {
  if (rng.chance(0.3)) return [...DEFAULT_PRICE_STEPS]
  const steps: PriceStep[] = [{ from: 0, step: rng.pick([1, 2, 5, 10, 50, 100, 500]) }]
  const rows = 1 + rng.int(5)
  for (let r = 1; r < rows; r++) {
    const previous = steps[r - 1]!
    const step =
      rng.chance(0.25) && previous.step % 2 === 0
        ? previous.step / 2
        : previous.step * rng.pick([1, 2, 5, 10])
    const grid = Math.max(step, previous.step)
    steps.push({ from: (Math.floor(previous.from / grid) + 1 + rng.int(20)) * grid, step })
  }
  return steps
}

const stepAt = (amount: number, steps: readonly PriceStep[]) =>
  steps.reduce((s, row) => (amount >= row.from ? row.step : s), steps[0]!.step)

/** An amount around `base`: on the grid a few steps either side, off it, at band edges, odd. */
function amountNear(rng: Rng, base: number, steps: readonly PriceStep[]): number {
  const roll = rng.next()
  if (roll < 0.03) return rng.pick([0, -stepAt(0, steps), -1, 1])
  let amount = base
  if (roll < 0.15) {
    // Near the start of a band.
    const row = rng.pick(steps)
    amount = row.from + (rng.int(5) - 2) * row.step
  } else {
    for (let j = rng.int(6); j > 0; j--) amount = nextAmount(amount, steps)
    if (rng.chance(0.15)) amount -= stepAt(amount, steps) * (1 + rng.int(2))
  }
  if (rng.chance(0.12)) amount += 1 + rng.int(Math.max(1, stepAt(amount, steps) - 1))
  return amount
}

interface Step {
  state: LotState
  bid: Bid
  steps: PriceStep[]
  expected: BidResult
}

/** One generated lot and bids on it, run through the domain: each step's input and result. */
function sequence(rng: Rng): Step[] {
  const steps = stepTable(rng)
  const start = Math.max(
    stepAt(0, steps),
    amountNear(rng, stepAt(0, steps) * (1 + rng.int(30)), steps),
  )
  const startsAt = 1_800_000_000_000
  let state: LotState = {
    startPrice: start,
    reservePrice: rng.chance(0.4) ? amountNear(rng, start * (2 + rng.int(5)), steps) : null,
    price: null,
    leaderId: null,
    leaderSince: 0,
    startsAt,
    endsAt: startsAt + HOUR,
    proxies: [],
    bidCount: 0,
  }
  const users = 2 + rng.int(4)
  let at = startsAt + rng.int(1000)
  const out: Step[] = []
  for (let n = 1 + rng.int(14); n > 0; n--) {
    const time = rng.next()
    const bidAt =
      time < 0.04 ? startsAt - 1 - rng.int(1000) : time < 0.08 ? state.endsAt + rng.int(2) : at
    const userId = state.leaderId !== null && rng.chance(0.2) ? state.leaderId : 1 + rng.int(users)
    const base = state.price === null ? state.startPrice : nextAmount(state.price, steps)
    const bid: Bid = {
      userId,
      amount: amountNear(rng, base, steps),
      proxy: rng.chance(0.5),
      at: bidAt,
    }
    const expected = placeBid(state, bid, { steps })
    out.push({ state, bid, steps, expected })
    if (expected.ok) state = expected.state
    // Now and then a bidder cancels their proxy, or soft close moves the end, between bids.
    if (rng.chance(0.1)) state = cancelProxy(state, 1 + rng.int(users)) ?? state
    if (rng.chance(0.1)) state = { ...state, endsAt: endAfterBid(state.endsAt, at) }
    at += rng.int(120_000)
  }
  return out
}

/** The first place two lists differ, as a readable failure (toEqual on 80,000 rows is not). */
function firstDifference<T>(inputs: T[], expected: unknown[], actual: unknown[]) {
  expect(actual).toHaveLength(expected.length)
  const i = expected.findIndex((e, k) => !isDeepStrictEqual(e, actual[k]))
  return i < 0 ? null : { input: inputs[i], expected: expected[i], actual: actual[i] }
}

async function inBatches(db: Database, items: unknown[], query: string, size = 2_000) {
  const results: unknown[] = []
  for (let i = 0; i < items.length; i += size) {
    const batch = items.slice(i, i + size)
    const answer = await sql<{ r: unknown }>`
      select (${sql.raw(query)}) as r
        from jsonb_array_elements(${JSON.stringify(batch)}::jsonb) with ordinality t(x, i)
       order by i`.execute(db.db)
    results.push(...answer.rows.map((row) => row.r))
  }
  return results
}

// Seconds of PL/pgSQL on a quiet machine; minutes on a loaded one.
describe.runIf(postgres)(
  'PL/pgSQL ports of packages/domain agree with it (ADR 030)',
  { timeout: 300_000 },
  () => {
    let database: Database

    beforeAll(async () => {
      database = await postgres!.open()
    })
    afterAll(() => database.close())

    it(`decides ${SEQUENCES} generated bid sequences as placeBid does, step by step`, async () => {
      const rng = new Rng(prng(SEED))
      const all: Step[] = []
      for (let s = 0; s < SEQUENCES; s++) all.push(...sequence(rng))
      for (const table of new Set(all.map((s) => s.steps)))
        expect(checkIncrementTable(table)).toEqual({ ok: true })
      // The generator reaches every outcome, or the comparison proves less than it claims.
      const outcomes = new Set(all.map((s) => (s.expected.ok ? 'ok' : s.expected.code)))
      expect([...outcomes].sort()).toEqual(
        [
          'ALREADY_LEADING',
          'BID_OFF_GRID',
          'BID_TOO_LOW',
          'LOT_CLOSED',
          'LOT_NOT_OPEN',
          'ok',
        ].sort(),
      )
      const rules = new Set(all.map((s) => s.expected.ok && s.expected.notLeading?.rule))
      expect(rules).toContain('proxy_higher')
      expect(rules).toContain('tie_earlier')

      const actual = await inBatches(
        database,
        all.map(({ state, bid, steps }) => ({ state, bid, steps })),
        `numisma_decide_bid(x->'state', x->'bid', x->'steps')`,
      )
      expect(
        firstDifference(
          all,
          all.map((s) => s.expected),
          actual,
        ),
      ).toBeNull()
    })

    it('judges generated quota inputs as withinQuota and exposure do', async () => {
      const rng = new Rng(prng(SEED + 1))
      const cases = Array.from({ length: 5_000 }, () => {
        const input: QuotaInput = {
          deposit: rng.int(4) === 0 ? 0 : rng.int(2_000_000),
          ...(rng.chance(0.2) ? {} : { multiplier: 1 + rng.int(20) }),
          lots: Array.from({ length: rng.int(6) }, () => ({
            lotId: 1 + rng.int(5),
            leadingAt: rng.chance(0.5) ? 0 : rng.int(3_000_000),
            proxyMax: rng.chance(0.5) ? 0 : rng.int(3_000_000),
          })),
          unpaidOrders: rng.chance(0.6) ? 0 : rng.int(5_000_000),
        }
        return { input, lotId: 1 + rng.int(6), commitment: 1 + rng.int(5_000_000) }
      })
      const expected = cases.map((c) => ({
        within: withinQuota(c.input, c.lotId, c.commitment),
        exposure: exposure(c.input),
      }))
      expect(new Set(expected.map((e) => e.within))).toEqual(new Set([true, false]))
      const actual = await inBatches(
        database,
        cases,
        `jsonb_build_object(
         'within', numisma_within_quota(x->'input', (x->>'lotId')::bigint, (x->>'commitment')::bigint),
         'exposure', numisma_quota_exposure(x->'input'))`,
      )
      expect(firstDifference(cases, expected, actual)).toBeNull()
    })

    it('moves the end as endAfterBid does', async () => {
      const rng = new Rng(prng(SEED + 2))
      const cases = Array.from({ length: 5_000 }, () => {
        const endsAt = 1_800_000_000_000
        const window = rng.int(600)
        return {
          endsAt,
          bidAt: endsAt - rng.int(window * 1000 + 2_000) + rng.int(1_000),
          window,
          extend: rng.int(600),
        }
      })
      const expected = cases.map((c) =>
        endAfterBid(c.endsAt, c.bidAt, { windowSeconds: c.window, extendSeconds: c.extend }),
      )
      const actual = await inBatches(
        database,
        cases,
        `numisma_end_after_bid((x->>'endsAt')::bigint, (x->>'bidAt')::bigint,
         (x->>'window')::bigint, (x->>'extend')::bigint)`,
      )
      expect(firstDifference(cases, expected, actual)).toBeNull()
    })
  },
)

/**
 * The whole bid on PostgreSQL (numisma_place_bid) against the TypeScript transaction on SQLite,
 * through the HTTP app: the same generated requests at the same (fake) times — proxies and direct
 * bids on and off a custom increment table, reserves, soft close, the end, quota refusals, an
 * overdue bidder and leader, Idempotency-Key replays and reuses — must get the same answers and
 * leave the same lots, history, proxies and outbid notices.
 */
describe.runIf(postgres)(
  'a bid through numisma_place_bid ends as the TypeScript bid does',
  { timeout: 300_000 },
  () => {
    const USERS = 5
    let apps: { t: TestApp; users: Session[]; lots: number[]; spare: number }[]

    beforeAll(async () => {
      const steps = stepTable(new Rng(prng(SEED + 3)))
      apps = []
      for (const kind of [sqlite, postgres!]) {
        const t = await createTestApp(kind)
        t.clock.set(1_800_000_000_000)
        const users: Session[] = []
        for (let i = 0; i < USERS; i++) users.push(await t.signIn())
        // User 3 can afford little; user 4 nothing.
        for (const [i, u] of users.entries())
          if (i < 4) await creditDeposit(t, u.userId, i === 3 ? 200 * stepAt(0, steps) : 1e9)
        await t.database.db.deleteFrom('price_steps').execute()
        await t.database.db
          .insertInto('price_steps')
          .values(steps.map((s) => ({ from_amount: s.from, step: s.step })))
          .execute()
        const lots = [
          ...(await createLots(t, 2, { startPrice: steps[0]!.step * 10 })),
          ...(await createLots(t, 2, {
            startPrice: steps[0]!.step * 4,
            reservePrice: steps[0]!.step * 40,
          })),
          // Ends soon, inside its soft-close window: bids move its end, then it ends.
          ...(await createLots(t, 1, {
            startPrice: steps[0]!.step,
            endsAt: t.clock.now() + 4 * 60_000,
            softCloseWindowSeconds: 120,
            softCloseExtendSeconds: 60,
          })),
        ]
        const [spare] = await createLots(t, 1)
        apps.push({ t, users, lots, spare: spare! })
      }
    })
    afterAll(async () => {
      for (const { t } of apps) await t.close()
    })

    /** The user's index among the app's sessions (ids may differ between databases). */
    const who = (app: (typeof apps)[number], id: number | null) =>
      id === null ? null : app.users.findIndex((u) => Number(u.userId) === id)

    it('answers 600 generated requests alike and leaves the same rows', async () => {
      const rng = new Rng(prng(SEED + 4))
      const [steps] = [
        (
          await apps[0]!.t.database.db
            .selectFrom('price_steps')
            .selectAll()
            .orderBy('from_amount')
            .execute()
        ).map((r) => ({ from: r.from_amount, step: r.step })),
      ]
      const hint = new Map<number, number>()
      const keys: { user: number; key: string; body: unknown }[] = []
      const outcomes = new Map<string, number>()
      for (let n = 0; n < 600; n++) {
        const advance = rng.int(8_000)
        const lot = rng.int(5)
        let user = rng.int(USERS)
        const base = hint.get(lot) ?? steps[0]!.step
        let body = { lot, amount: amountNear(rng, base, steps), proxy: rng.chance(0.5) }
        let key: string | undefined
        if (n === 199 || (n > 200 && n <= 203)) {
          // User 2 leads lot 0 on a high proxy just before becoming overdue (n = 200); the bids after
          // meet a leader whose proxy must stop (BiddingService.withoutOverdueLeader).
          user = n === 199 ? 2 : 0
          let amount = hint.get(0) ?? steps[0]!.step * 10
          for (let j = n === 199 ? 30 : 0; j > 0; j--) amount = nextAmount(amount, steps)
          body = { lot: 0, amount, proxy: n === 199 }
        }
        const k = n >= 199 && n <= 203 ? 1 : rng.next()
        if (k < 0.1 && keys.length > 0) {
          // A retry of an earlier request, now and then with another body (IDEMPOTENCY_KEY_REUSED).
          const earlier = rng.pick(keys)
          key = earlier.key
          user = earlier.user
          if (rng.chance(0.7)) body = earlier.body as typeof body
        } else if (k < 0.3) {
          key = `k-${n}-${rng.int(1e9)}`
          keys.push({ user, key, body })
        }
        const overdue = n === 200 ? 'overdue' : n === 400 ? 'paid' : null
        const answers = []
        for (const app of apps) {
          app.t.clock.advance(advance)
          if (overdue === 'overdue') {
            // User 2 becomes an overdue winner (DESIGN §4): may not bid, their proxies stop.
            await app.t.database.db
              .insertInto('orders')
              .values({
                user_id: Number(app.users[2]!.userId),
                kind: 'auction',
                lot_id: app.spare,
                mall_item_id: null,
                quantity: 1,
                amount: 100,
                fee: 0,
                total: 100,
                status: 'overdue',
                due_at: app.t.clock.now(),
                created_at: app.t.clock.now(),
                paid_at: null,
              })
              .execute()
          } else if (overdue === 'paid') {
            await app.t.database.db
              .updateTable('orders')
              .set({ status: 'paid' })
              .where('lot_id', '=', app.spare)
              .execute()
          }
          const res = await app.t.call({
            method: 'POST',
            path: '/bidding/bid',
            as: app.users[user]!,
            body: { lotId: app.lots[body.lot]!, amount: body.amount, proxy: body.proxy },
            ...(key ? { headers: { 'idempotency-key': key } } : {}),
          })
          const json = res.json<{ data?: { lotId: number }; code?: string; details?: unknown }>()
          answers.push({
            status: res.statusCode,
            code: json.code,
            details: json.details,
            data: json.data && { ...json.data, lotId: body.lot },
          })
        }
        expect(answers[1], `request ${n}: ${JSON.stringify({ user, body, key })}`).toEqual(
          answers[0],
        )
        const answer = answers[0]!
        outcomes.set(answer.code ?? 'ok', (outcomes.get(answer.code ?? 'ok') ?? 0) + 1)
        const data = answer.data as { price: number | null; myMax: number | null } | undefined
        if (data?.price != null)
          hint.set(body.lot, nextAmount(Math.max(data.price, data.myMax ?? 0), steps))
      }
      // The run reached what it claims to compare.
      for (const code of [
        'ok',
        'BID_TOO_LOW',
        'BID_OFF_GRID',
        'QUOTA_EXCEEDED',
        'BIDDER_OVERDUE',
        'LOT_CLOSED',
        'IDEMPOTENCY_KEY_REUSED',
      ])
        expect(outcomes.get(code), `${code} in ${JSON.stringify([...outcomes])}`).toBeGreaterThan(0)

      const rows = await Promise.all(
        apps.map(async (app) => {
          const db = app.t.database.db
          const lot = (id: number) => app.lots.indexOf(id)
          return {
            lots: (
              await db
                .selectFrom('lots')
                .select([
                  'id',
                  'price',
                  'leader_id',
                  'leader_since',
                  'bid_count',
                  'ends_at',
                  'status',
                ])
                .where('id', 'in', app.lots)
                .orderBy('id')
                .execute()
            ).map((r) => ({ ...r, id: lot(r.id), leader_id: who(app, r.leader_id) })),
            bids: (
              await db
                .selectFrom('bids')
                .select(['lot_id', 'user_id', 'amount', 'auto', 'created_at'])
                .where('lot_id', 'in', app.lots)
                .orderBy('id')
                .execute()
            ).map((r) => ({ ...r, lot_id: lot(r.lot_id), user_id: who(app, r.user_id) })),
            proxies: (
              await db.selectFrom('proxies').selectAll().where('lot_id', 'in', app.lots).execute()
            )
              .map((r) => ({ ...r, lot_id: lot(r.lot_id), user_id: who(app, r.user_id) }))
              .sort((a, b) => a.lot_id - b.lot_id || a.user_id! - b.user_id!),
            notices: (
              await db
                .selectFrom('notices')
                .select(['user_id', 'kind', 'params', 'link', 'created_at'])
                .where('kind', '=', 'outbid')
                .orderBy('id')
                .execute()
            ).map((r) => {
              const params = JSON.parse(r.params) as { lotId: number }
              return {
                ...r,
                user_id: who(app, r.user_id),
                params: { ...params, lotId: lot(params.lotId) },
                link: r.link?.replace(/\d+$/, String(lot(params.lotId))),
              }
            }),
          }
        }),
      )
      // numisma_place_bid trims a user's notices as notices/writer.ts does, with these numbers
      // written into migration 0019: a change to them needs a migration too.
      expect([NOTICES_KEPT_PER_USER, NOTICES_TRIM_EVERY]).toEqual([200, 16])
      expect(rows[0]!.bids.length).toBeGreaterThan(100)
      expect(rows[0]!.notices.length).toBeGreaterThan(10)
      expect(rows[1]).toEqual(rows[0])
    })
  },
)
