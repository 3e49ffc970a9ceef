import { DEFAULT_PRICE_STEPS } from '@numisma/domain/increments'
import { sql } from 'kysely'
import { describe, expect, it, vi } from 'vitest'
import type { BiddingReads } from '../src/modules/bidding/reads-repository'
import type {
  BiddingRepository,
  OneStatementBid,
  OneStatementBidInput,
} from '../src/modules/bidding/repository'
import { BiddingService, MAX_QUEUED_PER_BIDDER } from '../src/modules/bidding/service'
import type { WatchRepository } from '../src/modules/bidding/watch-repository'
import { FakeClock } from '../src/platform/clock'
import type { EventBus } from '../src/platform/event-bus'
import type { IdempotencyStore } from '../src/platform/idempotency'
import { createTestApp, type TestApp } from './helpers/app'
import { createLots, creditDeposit } from './helpers/auction'
import { testDatabases } from './helpers/databases'

/**
 * The one-statement bid path on PostgreSQL (ADR 030) against three faults an outside review found:
 * endsAt formatted in the database's time zone, deadlocks between batches on different lots with
 * the same bidders, and a failing push turning committed bids into errors.
 */
const databases = await testDatabases()
const pg = databases.find((d) => d.name === 'postgres')
const NOW = Date.UTC(2026, 10, 27, 3, 0, 0)

interface Placed {
  response?: { endsAt: string; price: number }
  error?: string
  busy?: boolean
}

const bidOf = (lotId: number, userId: number, amount: number, key: string | null = null) => ({
  lotId,
  userId,
  amount,
  proxy: false,
  key,
  hash: 'h',
})

/** numisma_place_bids as the service sends it (autocommit when `tx` is the pool). */
async function place(t: TestApp, bids: unknown[], tx = t.database.db): Promise<Placed[]> {
  const { rows } = await sql<{ r: Placed[] }>`
    select numisma_place_bids(${JSON.stringify(bids)}::jsonb, ${t.clock.now()}, 10, 86400000) as r
  `.execute(tx)
  return rows[0]!.r
}

/** A BiddingService on the one-statement path, over a statement that accepts every bid. */
function oneStatementService(
  bus: Pick<EventBus, 'publish'>,
  log = { error: vi.fn() },
  transact = vi.fn(),
) {
  const outcome = (amount: number): OneStatementBid => ({
    response: {
      lotId: 7,
      price: amount,
      bidCount: 1,
      endsAt: new Date(NOW + 60_000).toISOString(),
      leading: true,
      myMax: null,
      notLeading: null,
    },
    push: {
      status: 'open',
      startsAt: NOW - 60_000,
      reservePrice: null,
      leaderId: 1,
      endsAt: NOW + 60_000,
      outbid: null,
      leader: '藏友1234',
      now: NOW,
    },
  })
  const lots = {
    bidsInOneStatement: true,
    peekLot: vi.fn(() => Promise.resolve(undefined)),
    waitForLot: vi.fn(() => Promise.resolve()),
    placeBidsInOneStatement: vi.fn(
      (bids: OneStatementBidInput[], _options: unknown, _tx?: unknown) =>
        Promise.resolve<OneStatementBid[]>(bids.map((b) => outcome(b.amount))),
    ),
  }
  const service = new BiddingService({
    transact,
    clock: new FakeClock(NOW),
    bus: bus as unknown as EventBus,
    notices: { add: vi.fn(() => Promise.resolve()) },
    lots: lots as unknown as BiddingRepository,
    reads: {
      priceSteps: vi.fn(() =>
        Promise.resolve(DEFAULT_PRICE_STEPS.map((s) => ({ from_amount: s.from, step: s.step }))),
      ),
    } as unknown as BiddingReads,
    watches: {} as unknown as WatchRepository,
    idempotency: {} as unknown as IdempotencyStore,
    options: { quotaMultiplier: 10 },
    log,
  })
  return { service, lots, log }
}

describe('a push that fails after commit', () => {
  it('still answers every bid of the batch, and is logged', async () => {
    let published = 0
    const bus = {
      publish: vi.fn(() => {
        // The first push goes out, then the bus breaks.
        if (published++ > 0) throw new Error('bus down')
      }),
    }
    const { service, lots, log } = oneStatementService(bus)
    const answers = await Promise.all(
      [10_000, 11_000, 12_000].map((amount, i) =>
        service.bid(i + 1, { lotId: 7, amount, proxy: false }),
      ),
    )
    expect(lots.placeBidsInOneStatement).toHaveBeenCalledTimes(1)
    // No round trip before the statement: it refuses stale bids itself (ADR 030).
    expect(lots.peekLot).not.toHaveBeenCalled()
    expect(answers.map((a) => a.price)).toEqual([10_000, 11_000, 12_000])
    expect(bus.publish).toHaveBeenCalledTimes(3)
    expect(log.error).toHaveBeenCalledTimes(2)
  })
})

describe('a batch the statement answered in part', () => {
  it('sends only the bids answered busy again, under the lock; the others keep their answers', async () => {
    const transact = vi.fn((work: (tx: unknown) => Promise<unknown>) => work('tx'))
    const { service, lots } = oneStatementService({ publish: vi.fn() }, undefined, transact)
    const answer = lots.placeBidsInOneStatement.getMockImplementation()!
    // The first statement places the second bid and finds the lot held for the first (what
    // numisma_place_bids did before migration 0021 when the lot was freed while it ran).
    lots.placeBidsInOneStatement.mockImplementationOnce(async (bids, options) => {
      const [first, second] = await answer(bids, options)
      expect(first).toBeDefined()
      return [{ busy: true }, second!]
    })
    const answers = await Promise.all(
      [10_000, 11_000].map((amount, i) => service.bid(i + 1, { lotId: 7, amount, proxy: false })),
    )
    expect(answers.map((a) => a.price)).toEqual([10_000, 11_000])
    expect(transact).toHaveBeenCalledTimes(1)
    expect(lots.waitForLot).toHaveBeenCalledTimes(1)
    const sent = lots.placeBidsInOneStatement.mock.calls.map(([bids]) => bids.map((b) => b.amount))
    expect(sent).toEqual([[10_000, 11_000], [10_000]])
  })
})

describe("one bidder's queued bids on a lot", () => {
  it(`are capped at ${MAX_QUEUED_PER_BIDDER}; others bid on, and the cap frees as batches go`, async () => {
    const { service, lots } = oneStatementService({ publish: vi.fn() })
    const bid = (userId: number, amount: number) =>
      service.bid(userId, { lotId: 7, amount, proxy: false }).then(
        (r) => r.price,
        (e: unknown) => (e as { code?: string }).code,
      )
    const flood = Array.from({ length: MAX_QUEUED_PER_BIDDER + 2 }, (_, i) =>
      bid(1, 10_000 + i * 100),
    )
    const other = bid(2, 20_000)
    const answers = await Promise.all(flood)
    expect(answers.slice(0, MAX_QUEUED_PER_BIDDER)).toEqual(
      Array.from({ length: MAX_QUEUED_PER_BIDDER }, (_, i) => 10_000 + i * 100),
    )
    expect(answers.slice(MAX_QUEUED_PER_BIDDER)).toEqual(['RATE_LIMITED', 'RATE_LIMITED'])
    expect(await other).toBe(20_000)
    // The batch has gone: the bidder may queue again.
    expect(await bid(1, 30_000)).toBe(30_000)
    expect(lots.placeBidsInOneStatement).toHaveBeenCalledTimes(2)
  })
})

describe.runIf(pg)('numisma_place_bids on PostgreSQL', () => {
  it("answers endsAt in UTC whatever the database's TimeZone, and replays it so", async () => {
    const t = await createTestApp(pg!)
    try {
      const u = await t.signIn()
      await creditDeposit(t, u.userId, 1e9)
      const [lotId] = await createLots(t, 1)
      const db = t.database.db
      // A session in Shanghai (UTC+8), as on a server whose OS zone it is (initdb copies it).
      const [placed, replayed] = await db.transaction().execute(async (tx) => {
        await sql`set local timezone = 'Asia/Shanghai'`.execute(tx)
        const first = await place(t, [bidOf(lotId!, Number(u.userId), 100_000, 'k1')], tx)
        const again = await place(t, [bidOf(lotId!, Number(u.userId), 100_000, 'k1')], tx)
        return [first[0]!, again[0]! as { replay?: { endsAt: string } }]
      })
      const lot = await db
        .selectFrom('lots')
        .select('ends_at')
        .where('id', '=', lotId!)
        .executeTakeFirstOrThrow()
      expect(placed.response!.endsAt).toBe(new Date(lot.ends_at).toISOString())
      expect(replayed.replay!.endsAt).toBe(new Date(lot.ends_at).toISOString())
    } finally {
      await t.close()
    }
  })

  it('answers busy for every bid of a batch whose lot is held elsewhere, and places none', async () => {
    const t = await createTestApp(pg!)
    try {
      const u = Number((await t.signIn()).userId)
      await creditDeposit(t, String(u), 1e9)
      const [held, free] = await createLots(t, 2)
      const db = t.database.db
      let release!: () => void
      const gate = new Promise<void>((resolve) => (release = resolve))
      let locked!: () => void
      const holding = new Promise<void>((resolve) => (locked = resolve))
      const holder = db.transaction().execute(async (tx) => {
        await sql`select id from lots where id = ${held!} for update`.execute(tx)
        locked()
        await gate
      })
      await holding
      // The batch's second bid finds its lot free, as a bid of the same lot does when the holder
      // commits while the statement runs: 0019's version placed it and answered the first busy.
      const placed = await place(t, [bidOf(held!, u, 100_000), bidOf(free!, u, 100_000)]).finally(
        release,
      )
      await holder
      expect(placed).toEqual([{ busy: true }, { busy: true }])
      const bids = await db
        .selectFrom('bids')
        .select('id')
        .where('lot_id', 'in', [held!, free!])
        .execute()
      expect(bids).toEqual([])
    } finally {
      await t.close()
    }
  })

  it("two batches holding each other's lot wait in user id order instead of deadlocking", async () => {
    const t = await createTestApp(pg!)
    try {
      const users = [await t.signIn(), await t.signIn()]
      for (const u of users) await creditDeposit(t, u.userId, 1e9)
      // `low` has the smaller id: the order the accounts are now locked in.
      const [low, high] = users.map((u) => Number(u.userId)).sort((a, b) => a - b) as [
        number,
        number,
      ]
      const [l1, l2] = await createLots(t, 2)
      const db = t.database.db
      let release!: () => void
      const gate = new Promise<void>((resolve) => (release = resolve))
      // A holds lot 1 and low's account; B's batch on lot 2 names high first, then low. Bid by bid
      // B took high's account and waited for low's, while A waited for high's: 40P01.
      const a = db.transaction().execute(async (tx) => {
        await place(t, [bidOf(l1!, low, 100_000)], tx)
        await gate
        return place(t, [bidOf(l1!, high, 110_000)], tx)
      })
      const b = (async () => {
        await new Promise((resolve) => setTimeout(resolve, 100))
        const placed = place(t, [bidOf(l2!, high, 100_000), bidOf(l2!, low, 110_000)])
        setTimeout(release, 300)
        return placed
      })()
      const [ra, rb] = await Promise.all([a, b])
      expect(ra.map((r) => r.response?.price)).toEqual([110_000])
      expect(rb.map((r) => r.response?.price)).toEqual([100_000, 110_000])
    } finally {
      await t.close()
    }
  }, 30_000)

  it('many rounds of opposite-order batches on two lots: no 40P01, every bid answered', async () => {
    const t = await createTestApp(pg!)
    try {
      const u1 = Number((await t.signIn()).userId)
      const u2 = Number((await t.signIn()).userId)
      await creditDeposit(t, String(u1), 1e9)
      await creditDeposit(t, String(u2), 1e9)
      const db = t.database.db
      const steps = await db
        .selectFrom('price_steps')
        .select(['from_amount', 'step'])
        .orderBy('from_amount')
        .execute()
      const next = (amount: number) =>
        amount + steps.reduce((s, r) => (amount >= r.from_amount ? r.step : s), steps[0]!.step)
      const batch = (lotId: number, first: number, second: number) => {
        const bids = []
        let amount = 100_000
        for (let i = 0; i < 12; i++) {
          bids.push(bidOf(lotId, i % 2 ? second : first, amount))
          amount = next(amount)
        }
        return bids
      }
      const failures: unknown[] = []
      for (let round = 0; round < 30; round++) {
        const [l1, l2] = await createLots(t, 2)
        const results = await Promise.allSettled([
          place(t, batch(l1!, u1, u2)),
          place(t, batch(l2!, u2, u1)),
        ])
        for (const r of results) {
          if (r.status === 'rejected') failures.push((r.reason as { code?: string }).code)
          // Every bid is answered with its own accepted response (nothing else held the lots).
          else expect(r.value.every((o) => o.response !== undefined)).toBe(true)
        }
      }
      expect(failures).toEqual([])
    } finally {
      await t.close()
    }
  }, 120_000)
})
