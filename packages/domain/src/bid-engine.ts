import {
  DEFAULT_PRICE_STEPS,
  isOnGrid,
  nearestOnGrid,
  nextAmount,
  type PriceStep,
} from './increments'

/**
 * The bid engine of DESIGN §4 as a pure function: given a lot's state and one bid, it either
 * refuses the bid with a catalogue code or returns the new state and the price changes to record.
 * No I/O and no clock reads: the caller passes `now` and serialises bids on a lot.
 */

export interface ProxyMax {
  userId: number
  /** The most this bidder will pay; never lowered. */
  max: number
  /** When the maximum was set (a sequence number or time): earlier wins ties. */
  since: number
  active: boolean
}

export interface LotState {
  startPrice: number
  reservePrice: number | null
  /** Current price; null until the first accepted bid. */
  price: number | null
  leaderId: number | null
  /** When the leader's standing maximum was set; compared on ties. */
  leaderSince: number
  startsAt: number
  endsAt: number
  /** Proxy maxima by bidder (only the leader's can exceed the price). */
  proxies: ProxyMax[]
  bidCount: number
}

export interface Bid {
  userId: number
  amount: number
  proxy: boolean
  /** Server time of the bid, inside the lot's transaction. */
  at: number
}

/** A row of bid history: every price change, attributed (DESIGN §4). */
export interface PriceChange {
  userId: number
  amount: number
  /** True when placed by the proxy engine rather than typed as a direct bid. */
  auto: boolean
}

export type BidRefusal =
  | { code: 'LOT_NOT_OPEN' }
  | { code: 'LOT_CLOSED' }
  | { code: 'ALREADY_LEADING' }
  | { code: 'BID_TOO_LOW'; minimum: number }
  | { code: 'BID_OFF_GRID'; below: number | null; above: number }

export interface BidAccepted {
  ok: true
  state: LotState
  changes: PriceChange[]
  /** The bidder who lost the lead through this bid, if any. */
  outbid: number | null
  /** Whether the bidder leads after the bid. */
  leading: boolean
  /** Why an accepted bid does not lead, and what it takes to lead; null when it leads. */
  notLeading: NotLeading | null
}

/**
 * An accepted bid that does not lead met an earlier proxy maximum above it (`proxy_higher`) or
 * equal to it (`tie_earlier`: ties go to the earlier maximum). `minimum` is the next valid bid.
 */
export interface NotLeading {
  rule: 'proxy_higher' | 'tie_earlier'
  minimum: number
}

export type BidResult = BidAccepted | ({ ok: false } & BidRefusal)

export interface EngineOptions {
  steps?: readonly PriceStep[]
}

/** The least amount a new bid may be: the start price, or one step above the price. */
export function minimumNextBid(
  state: Pick<LotState, 'price' | 'startPrice'>,
  steps: readonly PriceStep[] = DEFAULT_PRICE_STEPS,
): number {
  return state.price === null ? state.startPrice : nextAmount(state.price, steps)
}

/**
 * The least amount this bidder may bid now, as the bid bar offers it: minNext for anyone but the
 * leader; the leader may only raise their proxy, to one step above their maximum (`myMax`, or the
 * price they hold).
 */
export function minimumBidFor(
  lot: Pick<LotState, 'price' | 'startPrice'>,
  bidder: { leading: boolean; myMax: number | null },
  steps: readonly PriceStep[] = DEFAULT_PRICE_STEPS,
): number {
  if (!bidder.leading || lot.price === null) return minimumNextBid(lot, steps)
  return nextAmount(Math.max(bidder.myMax ?? 0, lot.price), steps)
}

/** The leader's maximum (their active proxy, else the price they hold). */
export function leaderMax(state: LotState): number | null {
  if (state.leaderId === null || state.price === null) return null
  const proxy = state.proxies.find((p) => p.userId === state.leaderId && p.active)
  return proxy ? Math.max(proxy.max, state.price) : state.price
}

export function proxyOf(state: LotState, userId: number): ProxyMax | undefined {
  return state.proxies.find((p) => p.userId === userId)
}

function withProxy(proxies: ProxyMax[], next: ProxyMax): ProxyMax[] {
  return [...proxies.filter((p) => p.userId !== next.userId), next]
}

export function placeBid(state: LotState, bid: Bid, options: EngineOptions = {}): BidResult {
  const steps = options.steps ?? DEFAULT_PRICE_STEPS
  if (bid.at < state.startsAt) return { ok: false, code: 'LOT_NOT_OPEN' }
  if (bid.at >= state.endsAt) return { ok: false, code: 'LOT_CLOSED' }
  if (!isOnGrid(bid.amount, steps)) {
    return { ok: false, code: 'BID_OFF_GRID', ...nearestOnGrid(bid.amount, steps) }
  }

  const L = leaderMax(state)
  const price = state.price
  const leader = state.leaderId

  // The leader may only raise their own proxy maximum; it never moves the price.
  if (leader === bid.userId) {
    if (!bid.proxy) return { ok: false, code: 'ALREADY_LEADING' }
    const minimum = minimumBidFor(state, { leading: true, myMax: L }, steps)
    if (bid.amount < minimum) return { ok: false, code: 'BID_TOO_LOW', minimum }
    return {
      ok: true,
      state: {
        ...state,
        proxies: withProxy(state.proxies, {
          userId: bid.userId,
          max: bid.amount,
          since: state.leaderSince,
          active: true,
        }),
      },
      changes: [],
      outbid: null,
      leading: true,
      notLeading: null,
    }
  }

  const minimum = minimumNextBid(state, steps)
  if (bid.amount < minimum) return { ok: false, code: 'BID_TOO_LOW', minimum }

  // First bid on the lot.
  if (L === null || leader === null || price === null) {
    let opening = bid.proxy ? state.startPrice : bid.amount
    if (bid.proxy && state.reservePrice !== null && bid.amount >= state.reservePrice) {
      opening = Math.max(opening, state.reservePrice)
    }
    return accepted(state, bid, {
      price: opening,
      leaderId: bid.userId,
      leaderSince: bid.at,
      changes: [{ userId: bid.userId, amount: opening, auto: bid.proxy }],
      outbid: null,
    })
  }

  const challenger = bid.amount
  if (challenger > L) {
    // The challenger takes the lead; the old leader's proxy was spent up to L.
    const changes: PriceChange[] = []
    if (L > price) changes.push({ userId: leader, amount: L, auto: true })
    let newPrice: number
    if (bid.proxy) {
      newPrice = Math.min(challenger, nextAmount(L, steps))
      if (state.reservePrice !== null && challenger >= state.reservePrice) {
        newPrice = Math.max(newPrice, state.reservePrice)
      }
    } else {
      newPrice = challenger
    }
    changes.push({ userId: bid.userId, amount: newPrice, auto: bid.proxy })
    return accepted(state, bid, {
      price: newPrice,
      leaderId: bid.userId,
      leaderSince: bid.at,
      changes,
      outbid: leader,
    })
  }

  // challenger ≤ L: the leader keeps the lead (ties go to the earlier maximum). The challenger
  // was at least one step above the price, so L is the leader's proxy maximum.
  const held = challenger === L ? L : Math.min(L, nextAmount(challenger, steps))
  const result = accepted(state, bid, {
    price: held,
    leaderId: leader,
    leaderSince: state.leaderSince,
    changes: [
      { userId: bid.userId, amount: challenger, auto: bid.proxy },
      { userId: leader, amount: held, auto: true },
    ],
    outbid: null,
  })
  return {
    ...result,
    notLeading: {
      rule: challenger === L ? 'tie_earlier' : 'proxy_higher',
      minimum: minimumNextBid(result.state, steps),
    },
  }
}

function accepted(
  state: LotState,
  bid: Bid,
  next: {
    price: number
    leaderId: number
    leaderSince: number
    changes: PriceChange[]
    outbid: number | null
  },
): BidAccepted {
  let proxies = state.proxies
  if (bid.proxy) {
    const previous = proxyOf(state, bid.userId)
    proxies = withProxy(proxies, {
      userId: bid.userId,
      max: Math.max(bid.amount, previous?.max ?? 0),
      since: bid.at,
      active: true,
    })
  }
  // Anyone who does not lead now has no live maximum above the price.
  proxies = proxies.map((p) =>
    p.userId !== next.leaderId && p.active && p.max <= next.price ? { ...p, active: false } : p,
  )
  return {
    ok: true,
    state: {
      ...state,
      price: next.price,
      leaderId: next.leaderId,
      leaderSince: next.leaderSince,
      proxies,
      bidCount: state.bidCount + next.changes.length,
    },
    changes: next.changes,
    outbid: next.outbid,
    leading: next.leaderId === bid.userId,
    notLeading: null,
  }
}

/**
 * Cancels a bidder's proxy: no further automatic bids. Bids already placed stand; the leader's
 * maximum falls back to the price they hold (never below it).
 */
export function cancelProxy(state: LotState, userId: number): LotState | null {
  const proxy = proxyOf(state, userId)
  if (!proxy?.active) return null
  return {
    ...state,
    proxies: withProxy(state.proxies, { ...proxy, max: state.price ?? proxy.max, active: false }),
  }
}
