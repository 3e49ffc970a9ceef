import { describe, expect, it } from 'vitest'
import {
  type Bid,
  type BidAccepted,
  type BidResult,
  cancelProxy,
  type LotState,
  leaderMax,
  minimumBidFor,
  minimumNextBid,
  placeBid,
  proxyOf,
} from './bid-engine'

/**
 * Worked examples of DESIGN §4 "Auctions". Amounts are written in yuan through `y()` and stored in
 * fen (1 yuan = 100 fen). Steps used below: < 100 yuan → 5, 100–999 → 10, 1,000–1,999 → 20.
 */
const y = (yuan: number) => Math.round(yuan * 100)
const MINUTE = 60_000
const T0 = Date.UTC(2025, 0, 1, 20, 0, 0)

function lotState(overrides: Partial<LotState> = {}): LotState {
  return {
    startPrice: y(100),
    reservePrice: null,
    price: null,
    leaderId: null,
    leaderSince: 0,
    startsAt: T0,
    endsAt: T0 + 60 * MINUTE,
    proxies: [],
    bidCount: 0,
    ...overrides,
  }
}

let clock = T0
/** A bid at `at`, else one millisecond after the previous clock-timed bid (the lot opens at T0). */
function bid(userId: number, yuan: number, proxy: boolean, at?: number): Bid {
  if (at === undefined) at = ++clock
  return { userId, amount: y(yuan), proxy, at }
}
const direct = (userId: number, yuan: number, at?: number) => bid(userId, yuan, false, at)
const proxy = (userId: number, yuan: number, at?: number) => bid(userId, yuan, true, at)

function accept(result: BidResult): BidAccepted {
  if (!result.ok) throw new Error(`bid refused: ${JSON.stringify(result)}`)
  return result
}

/** Applies bids in order; every one must be accepted. */
function play(state: LotState, ...bids: Bid[]): LotState {
  return bids.reduce((s, b) => accept(placeBid(s, b)).state, state)
}

const row = (userId: number, yuan: number, auto: boolean) => ({ userId, amount: y(yuan), auto })

describe('first bid', () => {
  it('a direct bid opens the lot at its amount', () => {
    const r = accept(placeBid(lotState(), direct(1, 120)))
    expect(r.state).toMatchObject({ price: y(120), leaderId: 1, bidCount: 1 })
    expect(r.changes).toEqual([row(1, 120, false)])
    expect(r).toMatchObject({ outbid: null, leading: true })
  })

  it('a direct bid at exactly the start price is accepted', () => {
    expect(accept(placeBid(lotState(), direct(1, 100))).state.price).toBe(y(100))
  })

  it('a proxy bid opens at the start price and records the maximum', () => {
    const r = accept(placeBid(lotState(), proxy(1, 500)))
    expect(r.state).toMatchObject({ price: y(100), leaderId: 1, bidCount: 1 })
    expect(r.changes).toEqual([row(1, 100, true)])
    expect(leaderMax(r.state)).toBe(y(500))
    expect(proxyOf(r.state, 1)).toMatchObject({ max: y(500), active: true })
  })

  it('a proxy bid is raised to the reserve when its maximum reaches the reserve', () => {
    const withReserve = lotState({ reservePrice: y(300) })
    expect(accept(placeBid(withReserve, proxy(1, 500))).state.price).toBe(y(300))
    expect(accept(placeBid(withReserve, proxy(1, 300))).state.price).toBe(y(300))
    // Below the reserve the proxy opens at the start price.
    expect(accept(placeBid(withReserve, proxy(1, 290))).state.price).toBe(y(100))
  })

  it('a direct first bid is not raised to the reserve', () => {
    const r = accept(placeBid(lotState({ reservePrice: y(300) }), direct(1, 120)))
    expect(r.state.price).toBe(y(120))
  })

  it('the minimum next bid is the start price, then one step above the price', () => {
    const s = lotState()
    expect(minimumNextBid(s)).toBe(y(100))
    expect(minimumNextBid(play(s, direct(1, 120)))).toBe(y(130))
    expect(minimumNextBid(play(s, direct(1, 990)))).toBe(y(1_000)) // step at 990 is 10
    expect(minimumNextBid(play(s, direct(1, 1_000)))).toBe(y(1_020))
  })

  it('the minimum for a leader is one step above their own maximum, and the engine agrees', () => {
    const s = play(lotState(), proxy(1, 500))
    expect(minimumBidFor(s, { leading: false, myMax: null })).toBe(y(110))
    expect(minimumBidFor(s, { leading: true, myMax: y(500) })).toBe(y(510))
    expect(placeBid(s, proxy(1, 500))).toMatchObject({ ok: false, minimum: y(510) })
    expect(placeBid(s, proxy(1, 510)).ok).toBe(true)
    // A leader without a proxy: one step above the price they hold.
    expect(minimumBidFor(play(lotState(), direct(1, 150)), { leading: true, myMax: null })).toBe(
      y(160),
    )
  })
})

describe('direct bid A against the leader’s proxy maximum L', () => {
  // User 1 leads at 100 with a proxy maximum of 500.
  const led = () => play(lotState(), proxy(1, 500))

  it('A > L: the challenger leads at A; the proxy is spent up to L', () => {
    const r = accept(placeBid(led(), direct(2, 600)))
    expect(r.state).toMatchObject({ price: y(600), leaderId: 2, bidCount: 3 })
    expect(r.changes).toEqual([row(1, 500, true), row(2, 600, false)])
    expect(r).toMatchObject({ outbid: 1, leading: true, notLeading: null })
    expect(leaderMax(r.state)).toBe(y(600))
    expect(proxyOf(r.state, 1)?.active).toBe(false)
  })

  it('A = L: the earlier leader keeps the lead at A', () => {
    const r = accept(placeBid(led(), direct(2, 500)))
    expect(r.state).toMatchObject({ price: y(500), leaderId: 1, bidCount: 3 })
    expect(r.changes).toEqual([row(2, 500, false), row(1, 500, true)])
    expect(r).toMatchObject({ outbid: null, leading: false })
    // Why it does not lead: an earlier maximum of the same amount; the next bid must top it.
    expect(r.notLeading).toEqual({ rule: 'tie_earlier', minimum: y(510) })
  })

  it('A < L: the leader keeps the lead at min(L, next(A))', () => {
    const r = accept(placeBid(led(), direct(2, 200)))
    expect(r.state).toMatchObject({ price: y(210), leaderId: 1, bidCount: 3 })
    expect(r.changes).toEqual([row(2, 200, false), row(1, 210, true)])
    expect(r).toMatchObject({ outbid: null, leading: false })
    expect(r.notLeading).toEqual({ rule: 'proxy_higher', minimum: y(220) })
    expect(leaderMax(r.state)).toBe(y(500))
  })

  it('A < L with next(A) ≥ L: the leader keeps the lead at L', () => {
    const r = accept(placeBid(led(), direct(2, 490)))
    expect(r.state).toMatchObject({ price: y(500), leaderId: 1 })
    expect(r.changes).toEqual([row(2, 490, false), row(1, 500, true)])
  })

  it('against a leader without a proxy, L is the price: any valid bid takes the lead', () => {
    const s = play(lotState(), direct(1, 150))
    expect(leaderMax(s)).toBe(y(150))
    const r = accept(placeBid(s, direct(2, 160)))
    expect(r.state).toMatchObject({ price: y(160), leaderId: 2 })
    expect(r.changes).toEqual([row(2, 160, false)])
    expect(r.outbid).toBe(1)
  })
})

describe('proxy bid B against the leader’s proxy maximum L', () => {
  const led = () => play(lotState(), proxy(1, 500))

  it('B > L: the challenger leads at min(B, next(L))', () => {
    const r = accept(placeBid(led(), proxy(2, 800)))
    expect(r.state).toMatchObject({ price: y(510), leaderId: 2, bidCount: 3 })
    expect(r.changes).toEqual([row(1, 500, true), row(2, 510, true)])
    expect(r).toMatchObject({ outbid: 1, leading: true })
    expect(leaderMax(r.state)).toBe(y(800))
  })

  it('B = next(L): the challenger leads at B', () => {
    const r = accept(placeBid(led(), proxy(2, 510)))
    expect(r.state).toMatchObject({ price: y(510), leaderId: 2 })
  })

  it('B > L and B ≥ reserve: the price is raised to the reserve', () => {
    const s = play(lotState({ reservePrice: y(2_000) }), proxy(1, 500))
    expect(s.price).toBe(y(100))
    const r = accept(placeBid(s, proxy(2, 3_000)))
    expect(r.state).toMatchObject({ price: y(2_000), leaderId: 2 })
    expect(r.changes).toEqual([row(1, 500, true), row(2, 2_000, true)])
  })

  it('B > L but B < reserve: no raise', () => {
    const s = play(lotState({ reservePrice: y(2_000) }), proxy(1, 500))
    expect(accept(placeBid(s, proxy(2, 1_500))).state.price).toBe(y(510))
  })

  it('B = L: the earlier leader keeps the lead at L', () => {
    const r = accept(placeBid(led(), proxy(2, 500)))
    expect(r.state).toMatchObject({ price: y(500), leaderId: 1, bidCount: 3 })
    expect(r.changes).toEqual([row(2, 500, true), row(1, 500, true)])
    expect(r).toMatchObject({ outbid: null, leading: false })
  })

  it('B < L: the leader keeps the lead at min(L, next(B))', () => {
    const r = accept(placeBid(led(), proxy(2, 300)))
    expect(r.state).toMatchObject({ price: y(310), leaderId: 1, bidCount: 3 })
    expect(r.changes).toEqual([row(2, 300, true), row(1, 310, true)])
    expect(r.notLeading).toEqual({ rule: 'proxy_higher', minimum: y(320) })
    expect(proxyOf(r.state, 2)?.active).toBe(false)
    expect(leaderMax(r.state)).toBe(y(500))
  })

  it('a bidding war climbs one step at a time', () => {
    const s = play(lotState(), proxy(1, 1_000), proxy(2, 990))
    expect(s).toMatchObject({ price: y(1_000), leaderId: 1 })
    const t = accept(placeBid(s, proxy(3, 1_500)))
    expect(t.state).toMatchObject({ price: y(1_020), leaderId: 3 }) // step at 1,000 is 20
  })
})

describe('ties go to the earlier maximum', () => {
  it('whatever the user ids, the first to reach a maximum keeps the lead', () => {
    expect(play(lotState(), proxy(5, 700), proxy(2, 700))).toMatchObject({
      price: y(700),
      leaderId: 5,
    })
    expect(play(lotState(), proxy(2, 700), direct(5, 700))).toMatchObject({
      price: y(700),
      leaderId: 2,
    })
  })

  it('after a tie the next bid must beat the tied amount', () => {
    const s = play(lotState(), proxy(5, 700), proxy(2, 700))
    expect(placeBid(s, proxy(2, 700))).toEqual({ ok: false, code: 'BID_TOO_LOW', minimum: y(710) })
    expect(accept(placeBid(s, proxy(2, 710))).state).toMatchObject({ price: y(710), leaderId: 2 })
  })
})

describe('the leader may only raise their own proxy maximum', () => {
  const led = () => play(lotState(), proxy(1, 500), direct(2, 200)) // 1 leads at 210, max 500

  it('a direct bid by the leader is refused with ALREADY_LEADING', () => {
    expect(placeBid(led(), direct(1, 600))).toEqual({ ok: false, code: 'ALREADY_LEADING' })
    const directLeader = play(lotState(), direct(1, 150))
    expect(placeBid(directLeader, direct(1, 160))).toEqual({ ok: false, code: 'ALREADY_LEADING' })
  })

  it('raising the maximum never moves the price and records no history', () => {
    const s = led()
    const r = accept(placeBid(s, proxy(1, 800)))
    expect(r.state).toMatchObject({ price: y(210), leaderId: 1, bidCount: s.bidCount })
    expect(r.changes).toEqual([])
    expect(r).toMatchObject({ outbid: null, leading: true })
    expect(leaderMax(r.state)).toBe(y(800))
    // The raised maximum defends the lead.
    expect(accept(placeBid(r.state, proxy(2, 700))).state).toMatchObject({
      price: y(710),
      leaderId: 1,
    })
  })

  it('a leader holding a direct bid may add a proxy above it without moving the price', () => {
    const s = play(lotState(), direct(1, 150))
    const r = accept(placeBid(s, proxy(1, 400)))
    expect(r.state.price).toBe(y(150))
    expect(leaderMax(r.state)).toBe(y(400))
  })

  it('raising to or above the reserve still does not move the price', () => {
    const s = play(lotState({ reservePrice: y(1_000) }), proxy(1, 500))
    const r = accept(placeBid(s, proxy(1, 2_000)))
    expect(r.state.price).toBe(y(100))
  })

  it('a proxy maximum can never be lowered (nor set to the same amount)', () => {
    const s = led()
    expect(placeBid(s, proxy(1, 400))).toEqual({ ok: false, code: 'BID_TOO_LOW', minimum: y(510) })
    expect(placeBid(s, proxy(1, 500))).toEqual({ ok: false, code: 'BID_TOO_LOW', minimum: y(510) })
    expect(accept(placeBid(s, proxy(1, 510))).state.price).toBe(y(210))
  })
})

describe('refusals', () => {
  it('an off-grid amount is refused with the two nearest valid amounts', () => {
    expect(placeBid(lotState(), direct(1, 105))).toEqual({
      ok: false,
      code: 'BID_OFF_GRID',
      below: y(100),
      above: y(110),
    })
    const s = play(lotState({ startPrice: y(1_000) }), direct(1, 1_000))
    expect(placeBid(s, proxy(2, 1_030))).toEqual({
      ok: false,
      code: 'BID_OFF_GRID',
      below: y(1_020),
      above: y(1_040),
    })
    expect(placeBid(s, direct(2, 1_020.5))).toMatchObject({ code: 'BID_OFF_GRID' })
  })

  it('an amount below the smallest grid value names the smallest valid amount above it', () => {
    for (const amount of [-100, -500, -1, 0, 1, 499]) {
      expect(
        placeBid(lotState({ startPrice: 500 }), { userId: 1, amount, proxy: false, at: T0 }),
      ).toEqual({
        ok: false,
        code: 'BID_OFF_GRID',
        below: null,
        above: 500, // 5 yuan; engine used to answer `above: 0` for negative amounts
      })
    }
  })

  it('an amount below the minimum is refused with the minimum', () => {
    expect(placeBid(lotState(), direct(1, 95))).toEqual({
      ok: false,
      code: 'BID_TOO_LOW',
      minimum: y(100),
    })
    const s = play(lotState(), direct(1, 120))
    expect(placeBid(s, direct(2, 120))).toEqual({ ok: false, code: 'BID_TOO_LOW', minimum: y(130) })
    expect(placeBid(s, proxy(2, 110))).toEqual({ ok: false, code: 'BID_TOO_LOW', minimum: y(130) })
  })

  it('a bid before the start is refused with LOT_NOT_OPEN; at the start it is accepted', () => {
    expect(placeBid(lotState(), direct(1, 100, T0 - 1))).toEqual({
      ok: false,
      code: 'LOT_NOT_OPEN',
    })
    expect(placeBid(lotState(), direct(1, 100, T0)).ok).toBe(true)
  })

  it('a bid at or after the end is refused with LOT_CLOSED; just before it is accepted', () => {
    const s = lotState()
    expect(placeBid(s, direct(1, 100, s.endsAt))).toEqual({ ok: false, code: 'LOT_CLOSED' })
    expect(placeBid(s, proxy(1, 100, s.endsAt + MINUTE))).toEqual({
      ok: false,
      code: 'LOT_CLOSED',
    })
    expect(placeBid(s, direct(1, 100, s.endsAt - 1)).ok).toBe(true)
  })

  it('a refused bid leaves the state untouched', () => {
    const s = play(lotState(), proxy(1, 500), direct(2, 200))
    const before = structuredClone(s)
    placeBid(s, direct(1, 600))
    placeBid(s, direct(3, 215))
    placeBid(s, direct(3, 210))
    placeBid(s, direct(3, 300, s.endsAt))
    expect(s).toEqual(before)
  })
})

describe('cancelProxy', () => {
  it('bids placed stand and the leader’s maximum falls back to the price it holds', () => {
    const s = play(lotState(), proxy(1, 500), direct(2, 200)) // 1 leads at 210
    const c = cancelProxy(s, 1)
    expect(c).not.toBeNull()
    expect(c).toMatchObject({ price: y(210), leaderId: 1, bidCount: s.bidCount })
    expect(leaderMax(c!)).toBe(y(210))
    expect(proxyOf(c!, 1)?.active).toBe(false)
    // The next valid bid now takes the lead without any automatic reply.
    const r = accept(placeBid(c!, direct(2, 220)))
    expect(r.state).toMatchObject({ price: y(220), leaderId: 2 })
    expect(r.changes).toEqual([row(2, 220, false)])
  })

  it('after a cancel, a tie at the held price still goes to the earlier leader', () => {
    const s = play(lotState(), proxy(1, 500), proxy(2, 500)) // 1 leads at 500, 2 tied
    const c = cancelProxy(s, 1)!
    expect(c).toMatchObject({ price: y(500), leaderId: 1 })
    expect(leaderMax(c)).toBe(y(500))
  })

  it('the leader may set a new proxy after cancelling', () => {
    const s = play(lotState(), proxy(1, 500), direct(2, 200))
    const c = cancelProxy(s, 1)!
    const r = accept(placeBid(c, proxy(1, 300)))
    expect(r.state.price).toBe(y(210))
    expect(leaderMax(r.state)).toBe(y(300))
  })

  it('returns null when the user has no active proxy', () => {
    const s = play(lotState(), proxy(1, 300), proxy(2, 500)) // 1 was outbid
    expect(cancelProxy(s, 1)).toBeNull()
    expect(cancelProxy(s, 3)).toBeNull()
    expect(cancelProxy(play(lotState(), direct(1, 100)), 1)).toBeNull()
    expect(cancelProxy(cancelProxy(s, 2)!, 2)).toBeNull()
  })

  it('does not modify the state it is given', () => {
    const s = play(lotState(), proxy(1, 500))
    const before = structuredClone(s)
    cancelProxy(s, 1)
    expect(s).toEqual(before)
  })
})
