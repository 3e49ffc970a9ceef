import fc from 'fast-check'
import { describe, it } from 'vitest'
import {
  type Bid,
  type BidResult,
  cancelProxy,
  type LotState,
  leaderMax,
  minimumNextBid,
  placeBid,
} from './bid-engine'
import { isOnGrid, nearestOnGrid, nextAmount, stepAt } from './increments'
import { endAfterBid } from './soft-close'

/**
 * DESIGN §4 invariants over generated bid sequences. Each run builds a random lot, plays a random
 * sequence of bids and proxy cancellations through the engine, and after EVERY step checks the
 * invariants against a model of each bidder's maximum that the test keeps itself (never read from
 * the engine's `proxies`), plus the outcome the rules of §4 predict for that step.
 *
 * Reproduce a failure: FC_SEED=<seed> [FC_PATH=<path>] npx vitest run --project unit packages/domain
 */
const NUM_RUNS = Number(process.env.FC_RUNS ?? 10_000)
const SEED = process.env.FC_SEED
  ? Number(process.env.FC_SEED)
  : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0
const PATH = process.env.FC_PATH
/** FC_STATS=1 prints how often each outcome occurred, to see what the generators reach. */
const STATS = process.env.FC_STATS ? new Map<string, number>() : null
const tally = (key: string) => STATS?.set(key, (STATS.get(key) ?? 0) + 1)
const RERUN = `FC_SEED=${SEED} npx vitest run --project unit packages/domain`

const SECOND = 1_000
const MINUTE = 60 * SECOND
const STARTS_AT = 1_700_000_000_000
const DURATION = 10 * MINUTE
const USERS = 6

/** Every grid amount up to 2.5 million yuan, ascending (fen). */
const GRID: number[] = []
for (let x = stepAt(0); x <= 250_000_000; x = nextAmount(x)) GRID.push(x)

// ---------------------------------------------------------------- generators

type AmountSpec =
  | { kind: 'valid'; k: number } // minNext advanced k steps
  | { kind: 'jump'; factor: number } // a larger bid, rounded up to the grid
  | { kind: 'leaderMax'; k: number } // around the leader's maximum: ties and near misses
  | { kind: 'reserve' }
  | { kind: 'offGrid'; k: number; frac: number }
  | { kind: 'tooLow'; k: number }

/** Time since the previous bid (ms), or a jump to exactly the end / one ms before it. */
type Gap = number | 'atEnd' | 'justBeforeEnd'

type Action =
  | { type: 'bid'; user: number | 'leader'; proxy: boolean; amount: AmountSpec; dt: Gap }
  | { type: 'cancel'; user: number | 'leader' }

const userArb = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: 1, max: USERS }) },
  { weight: 1, arbitrary: fc.constant('leader' as const) },
)

const amountArb: fc.Arbitrary<AmountSpec> = fc.oneof(
  { weight: 10, arbitrary: fc.record({ kind: fc.constant('valid'), k: fc.nat(6) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('jump'),
      factor: fc.double({ min: 1, max: 4, noNaN: true }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('leaderMax'), k: fc.integer({ min: -2, max: 2 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reserve') }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('offGrid'),
      k: fc.nat(3),
      frac: fc.double({ min: 0.01, max: 0.99, noNaN: true }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('tooLow'), k: fc.nat(3) }) },
)

const actionArb: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      type: fc.constant('bid' as const),
      user: userArb,
      proxy: fc.boolean(),
      amount: amountArb,
      // Mostly short gaps, sometimes a long one: some bids before the start, most inside (often in
      // the soft-close window, which keeps extending the end), some past the end.
      dt: fc.oneof(
        { weight: 30, arbitrary: fc.integer({ min: 0, max: 60 * SECOND }) },
        { weight: 2, arbitrary: fc.integer({ min: 0, max: 8 * MINUTE }) },
        { weight: 1, arbitrary: fc.constantFrom<Gap>('atEnd', 'justBeforeEnd') },
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('cancel' as const), user: userArb }) },
)

const lotArb = fc
  .record({
    start: fc.nat(GRID.length - 200),
    reserve: fc.option(fc.integer({ min: -5, max: 40 }), { nil: null }),
    firstAt: fc.oneof(fc.integer({ min: -MINUTE, max: 2 * MINUTE }), fc.constantFrom(-1, 0)),
  })
  .map(({ start, reserve, firstAt }) => ({
    startPrice: GRID[start]!,
    reservePrice: reserve === null ? null : GRID[Math.max(0, start + reserve)]!,
    firstAt: STARTS_AT + firstAt,
  }))

// ---------------------------------------------------------------- the model

interface Max {
  max: number
  /**
   * Sequence number of the step at which the bidder first committed to at least `max` (smaller is
   * earlier). After a cancel falls back to the price, that is the earliest commitment ≥ the price.
   */
  since: number
  /** Every amount this bidder committed to (direct amounts and proxy maxima), with its step. */
  commits: { amount: number; seq: number }[]
}

/** What the test itself knows: each bidder's maximum, the proxies it believes active. */
interface Model {
  maxima: Map<number, Max>
  proxyActive: Set<number>
}

const stepsUp = (x: number, k: number) => {
  for (let i = 0; i < k; i++) x = nextAmount(x)
  return x
}
const stepsDown = (x: number, k: number) => {
  const i = GRID.indexOf(x)
  return i < 0 ? x : (GRID[Math.max(0, i - k)] ?? x)
}

function resolveAmount(spec: AmountSpec, state: LotState, modelL: number | null): number {
  const minNext = state.price === null ? state.startPrice : nextAmount(state.price)
  switch (spec.kind) {
    case 'valid':
      return stepsUp(minNext, spec.k)
    case 'jump':
      return nearestOnGrid(Math.floor(minNext * spec.factor) + 1).above
    case 'leaderMax':
      return modelL === null
        ? minNext
        : spec.k >= 0
          ? stepsUp(modelL, spec.k)
          : stepsDown(modelL, -spec.k)
    case 'reserve':
      return state.reservePrice ?? minNext
    case 'offGrid': {
      const base = stepsUp(minNext, spec.k)
      return base + Math.max(1, Math.floor(stepAt(base) * spec.frac))
    }
    case 'tooLow':
      return stepsDown(state.price ?? state.startPrice, spec.k + (state.price === null ? 1 : 0))
  }
}

function check(condition: boolean, message: string, context: () => unknown): asserts condition {
  if (!condition) throw new Error(`${message}\n${JSON.stringify(context(), null, 1)}`)
}

function deepFreeze<T>(state: T): T {
  if (state !== null && typeof state === 'object' && !Object.isFrozen(state)) {
    Object.freeze(state)
    for (const v of Object.values(state)) deepFreeze(v)
  }
  return state
}

type Expected =
  | { ok: false; code: string; minimum?: number }
  | { ok: true; price: number; leaderId: number; raise: boolean }

/** The outcome §4 prescribes for `bid`, from the model's maxima (not the engine's proxies). */
function expected(state: LotState, model: Model, bid: Bid): Expected {
  if (bid.at < state.startsAt) return { ok: false, code: 'LOT_NOT_OPEN' }
  if (bid.at >= state.endsAt) return { ok: false, code: 'LOT_CLOSED' }
  if (!isOnGrid(bid.amount)) return { ok: false, code: 'BID_OFF_GRID' }
  const leader = state.leaderId
  const L = leader === null ? null : model.maxima.get(leader)!.max
  if (leader === bid.userId && L !== null && state.price !== null) {
    if (!bid.proxy) return { ok: false, code: 'ALREADY_LEADING' }
    if (bid.amount <= L) return { ok: false, code: 'BID_TOO_LOW', minimum: nextAmount(L) }
    return { ok: true, price: state.price, leaderId: leader, raise: true }
  }
  const minNext = state.price === null ? state.startPrice : nextAmount(state.price)
  if (bid.amount < minNext) return { ok: false, code: 'BID_TOO_LOW', minimum: minNext }
  const reserve = state.reservePrice
  const raised = (p: number) =>
    bid.proxy && reserve !== null && bid.amount >= reserve ? Math.max(p, reserve) : p
  if (leader === null || L === null) {
    return {
      ok: true,
      price: raised(bid.proxy ? state.startPrice : bid.amount),
      leaderId: bid.userId,
      raise: false,
    }
  }
  if (bid.amount > L) {
    const price = bid.proxy ? raised(Math.min(bid.amount, nextAmount(L))) : bid.amount
    return { ok: true, price, leaderId: bid.userId, raise: false }
  }
  if (bid.amount === L) return { ok: true, price: L, leaderId: leader, raise: false }
  return { ok: true, price: Math.min(L, nextAmount(bid.amount)), leaderId: leader, raise: false }
}

/** The invariants of §4 that must hold after every step. */
function checkInvariants(state: LotState, model: Model, ctx: () => unknown) {
  if (state.price === null) {
    check(
      state.leaderId === null && model.maxima.size === 0,
      'no price but a leader or bidders',
      ctx,
    )
    return
  }
  check(state.leaderId !== null, 'a price without a leader', ctx)
  check(isOnGrid(state.price), 'price off the grid', ctx)
  check(state.price >= state.startPrice, 'price below the start price', ctx)
  const lead = model.maxima.get(state.leaderId)
  check(lead !== undefined, 'the leader never bid', ctx)
  check(state.price <= lead.max, 'price exceeds the leader’s maximum', ctx)
  check(leaderMax(state) === lead.max, 'engine’s leaderMax differs from the model', ctx)
  for (const [user, m] of model.maxima) {
    if (user === state.leaderId) continue
    check(state.price >= m.max, `price below the maximum of non-leader ${user}`, ctx)
    check(
      m.max < lead.max || (m.max === lead.max && m.since > lead.since),
      `leader does not hold the highest (earliest) maximum: user ${user} has ${m.max} since ${m.since}`,
      ctx,
    )
  }
}

// ---------------------------------------------------------------- the property

function outcome(before: LotState, bid: Bid, result: BidResult): string {
  if (!result.ok) return result.code
  const kind = bid.proxy ? 'proxy' : 'direct'
  if (before.leaderId === null) return `${kind} first bid`
  if (before.leaderId === bid.userId) return 'leader raises proxy'
  const L = leaderMax(before)!
  const rel = bid.amount > L ? '>' : bid.amount === L ? '=' : '<'
  const reserve =
    before.reservePrice !== null && result.state.price === before.reservePrice
      ? ' (at reserve)'
      : ''
  return `${kind} ${rel} L${reserve}`
}

function run(
  lot: { startPrice: number; reservePrice: number | null; firstAt: number },
  actions: Action[],
) {
  let state: LotState = deepFreeze({
    startPrice: lot.startPrice,
    reservePrice: lot.reservePrice,
    price: null,
    leaderId: null,
    leaderSince: 0,
    startsAt: STARTS_AT,
    endsAt: STARTS_AT + DURATION,
    proxies: [],
    bidCount: 0,
  })
  const model: Model = { maxima: new Map(), proxyActive: new Set() }
  let at = lot.firstAt
  const log: unknown[] = []

  for (const [seq, action] of actions.entries()) {
    const user = action.user === 'leader' ? (state.leaderId ?? 1) : action.user
    const before = state
    const ctx = () => ({ step: seq, action, user, before, after: state, log })

    if (action.type === 'cancel') {
      const c = cancelProxy(before, user)
      log.push({ cancel: user, ok: c !== null })
      tally(c === null ? 'cancel refused' : 'cancel')
      check(
        (c !== null) === model.proxyActive.has(user),
        'cancelProxy accepted/refused unexpectedly',
        ctx,
      )
      if (c !== null) {
        state = deepFreeze(c)
        model.proxyActive.delete(user)
        check(
          state.price === before.price &&
            state.leaderId === before.leaderId &&
            state.bidCount === before.bidCount,
          'cancelProxy changed price, leader or bid count (bids placed must stand)',
          ctx,
        )
        if (user === before.leaderId) {
          const m = model.maxima.get(user)!
          m.max = before.price!
          m.since = Math.min(...m.commits.filter((c) => c.amount >= m.max).map((c) => c.seq))
        }
      }
      checkInvariants(state, model, ctx)
      continue
    }

    if (typeof action.dt === 'number') at += action.dt
    else at = Math.max(at, before.endsAt - (action.dt === 'atEnd' ? 0 : 1))
    const L = before.leaderId === null ? null : model.maxima.get(before.leaderId)!.max
    const bid: Bid = {
      userId: user,
      amount: resolveAmount(action.amount, before, L),
      proxy: action.proxy,
      at,
    }
    const want = expected(before, model, bid)
    const result: BidResult = placeBid(before, bid)
    log.push({
      bid,
      result: result.ok ? { price: result.state.price, leader: result.state.leaderId } : result,
    })
    tally(outcome(before, bid, result))

    if (!result.ok) {
      check(
        !want.ok && want.code === result.code,
        `refused with ${result.code}, expected ${JSON.stringify(want)}`,
        ctx,
      )
      if (result.code === 'BID_TOO_LOW')
        check(result.minimum === want.minimum, 'wrong minimum', ctx)
      if (result.code === 'BID_OFF_GRID') {
        const { below, above } = result
        check(
          isOnGrid(above) &&
            above > bid.amount &&
            (below === null
              ? above === GRID[0]
              : isOnGrid(below) && below < bid.amount && nextAmount(below) === above),
          'BID_OFF_GRID does not name the two nearest valid amounts',
          ctx,
        )
      }
      // A refusal returns no state: the lot keeps `before` (deep-frozen, so also unmutated).
      checkInvariants(state, model, ctx)
      continue
    }

    state = deepFreeze({ ...result.state, endsAt: endAfterBid(result.state.endsAt, bid.at) })
    check(want.ok, `accepted, expected ${JSON.stringify(want)}`, ctx)
    check(
      bid.at >= before.startsAt && bid.at < before.endsAt,
      'accepted outside the bidding window',
      ctx,
    )
    check(
      state.price === want.price && state.leaderId === want.leaderId,
      `expected price ${want.price} led by ${want.leaderId}`,
      ctx,
    )
    check(before.price === null || state.price >= before.price, 'price fell', ctx)
    check(state.endsAt >= before.endsAt, 'end moved earlier', ctx)
    check(
      state.bidCount === before.bidCount + result.changes.length,
      'bidCount ≠ history rows added',
      ctx,
    )
    check(result.leading === (state.leaderId === user), 'wrong `leading`', ctx)
    // A bid that does not lead says why, and the minimum it names is the next valid bid.
    check(
      result.leading
        ? result.notLeading === null
        : result.notLeading !== null &&
            result.notLeading.minimum === minimumNextBid(state) &&
            (result.notLeading.rule === 'tie_earlier') === (bid.amount === state.price),
      `wrong \`notLeading\` ${JSON.stringify(result.notLeading)}`,
      ctx,
    )
    check(
      result.outbid ===
        (before.leaderId !== null && before.leaderId !== state.leaderId ? before.leaderId : null),
      'wrong `outbid`',
      ctx,
    )
    if (want.raise) {
      check(
        result.changes.length === 0 && state.price === before.price,
        'raising a proxy moved the price',
        ctx,
      )
    } else {
      const rows = result.changes
      check(rows.length > 0, 'a price change without a history row', ctx)
      const last = rows[rows.length - 1]!
      check(
        last.userId === state.leaderId && last.amount === state.price,
        'last row is not the new price by the leader',
        ctx,
      )
      for (const [i, r] of rows.entries()) {
        check(i === 0 || r.amount >= rows[i - 1]!.amount, 'history rows decrease', ctx)
        check(
          r.amount > (before.price ?? 0) && isOnGrid(r.amount),
          'history row off grid or not above the old price',
          ctx,
        )
        check(r.userId === user || r.userId === before.leaderId, 'history row by a bystander', ctx)
      }
    }

    // Update the model: the bidder's maximum (never lowered), and proxies the model believes live.
    const m = model.maxima.get(user) ?? { max: 0, since: seq, commits: [] }
    m.commits.push({ amount: bid.amount, seq })
    if (bid.amount > m.max) Object.assign(m, { max: bid.amount, since: seq })
    model.maxima.set(user, m)
    if (bid.proxy) model.proxyActive.add(user)
    for (const u of [...model.proxyActive]) if (u !== state.leaderId) model.proxyActive.delete(u)

    checkInvariants(state, model, ctx)
  }
}

describe(`bid engine invariants (DESIGN §4) — seed ${SEED}; rerun: ${RERUN}`, () => {
  it(`hold after every step of ${NUM_RUNS} generated bid sequences`, () => {
    console.log(
      `[bid-engine.property] fast-check seed ${SEED}, numRuns ${NUM_RUNS}; rerun: ${RERUN}`,
    )
    fc.assert(
      fc.property(
        lotArb,
        fc.array(actionArb, { minLength: 1, maxLength: 30, size: 'max' }),
        (lot, actions) => {
          run(lot, actions)
        },
      ),
      { numRuns: NUM_RUNS, seed: SEED, ...(PATH ? { path: PATH } : {}) },
    )
    if (STATS) console.table(Object.fromEntries([...STATS].sort((a, b) => b[1] - a[1])))
  }, 60_000)
})
