import type {
  BidHistoryQuery,
  BidRecord,
  BidRequest,
  BidResult,
  CancelProxyResult,
  Entrust,
  EntrustCounts,
  EntrustState,
  PriceStepRow,
  Trade,
  TradeState,
  WatchState,
} from '@numisma/contracts/bidding'
import type { LotCard } from '@numisma/contracts/catalog'
import { cancelProxy, type LotState, placeBid } from '@numisma/domain/bid-engine'
import type { PriceStep } from '@numisma/domain/increments'
import { lotStatus } from '@numisma/domain/lot-status'
import { entrustState, tradeState } from '@numisma/domain/my-bids'
import {
  exposure,
  type LotExposure,
  type QuotaInput,
  quotaLimit,
  type OverdueClaim,
  withinQuota,
  freeDeposit,
} from '@numisma/domain/quota'
import { endAfterBid } from '@numisma/domain/soft-close'
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import type { EventBus } from '../../platform/event-bus'
import { IDEMPOTENCY_TTL_MS, type IdempotencyStore, requestHash } from '../../platform/idempotency'
import { isRetryable, MAX_ATTEMPTS, type Transact, type Tx } from '../../platform/transactions'
import { lotStatusOf, toLotCard } from '../catalog/mappers'
import { lotLink, type NoticeWriter } from '../notices/writer'
import { maskBidder } from '@numisma/domain/mask'
import type { BiddingReads } from './reads-repository'
import type {
  BiddingRepository,
  Exposure,
  LockedLot,
  OneStatementBid,
  OneStatementBidInput,
  PlacedPush,
} from './repository'
import type { WatchRepository } from './watch-repository'

export interface BiddingOptions {
  /** Deposit × this = bidding quota (DESIGN §4); from configuration. */
  quotaMultiplier: number
}

/** A user's deposit as whatever takes deposit away judges it (freeDeposit), read under the lock. */
export interface DepositHeld {
  deposit: number
  exposure: number
  multiplier: number
  overdue: OverdueClaim
}

export interface BiddingDeps {
  transact: Transact
  clock: Clock
  bus: EventBus
  /** The outbid notice is written in the bid's transaction. */
  notices: NoticeWriter
  lots: BiddingRepository
  reads: BiddingReads
  watches: WatchRepository
  idempotency: IdempotencyStore
  options: BiddingOptions
  /** Where a push that failed after commit is reported (the bid itself stands). */
  log?: Pick<FastifyBaseLogger, 'error'>
}

/** At most this many queued bids on a lot go in one statement. */
const MAX_BATCH = 64
/**
 * At most this many of one bidder's bids wait on one lot at once on an instance; more are refused
 * with RATE_LIMITED. Stale bids queue on PostgreSQL (the statement refuses them), so without a
 * cap one client could fill the queue with bids that cannot win and push others' into later
 * batches — judged later, perhaps after the close. A page sends one bid at a time.
 */
export const MAX_QUEUED_PER_BIDDER = 4

interface QueuedBid {
  bid: OneStatementBidInput
  resolve: (result: BidResult) => void
  reject: (error: unknown) => void
}

function toState(lot: LockedLot, proxies: LotState['proxies']): LotState {
  return {
    startPrice: lot.startPrice,
    reservePrice: lot.reservePrice,
    price: lot.price,
    leaderId: lot.leaderId,
    leaderSince: lot.leaderSince,
    startsAt: lot.startsAt,
    endsAt: lot.endsAt,
    proxies,
    bidCount: lot.bidCount,
  }
}

/**
 * Bidding use cases. A bid or a proxy cancellation runs in one write transaction that locks the
 * lot, so bids on a lot apply one at a time; the time that judges a bid is read after that lock,
 * so a bid that waited for it is judged by when it is applied. Pushes go out after commit.
 */
export class BiddingService {
  private readonly displayNames = new Map<number, string>()
  /** Each lot's bids waiting on this instance for the statement before them (bidInOneStatement). */
  private readonly lotQueues = new Map<number, QueuedBid[]>()
  /** How many bids each bidder has in each lot's queue (`lotId:userId`). */
  private readonly queuedBy = new Map<string, number>()

  constructor(private readonly deps: BiddingDeps) {}

  async bid(userId: number, request: BidRequest, idempotencyKey?: string): Promise<BidResult> {
    const { lots, idempotency, clock } = this.deps
    const hash = requestHash(request)
    if (lots.bidsInOneStatement)
      return this.bidInOneStatement(userId, request, hash, idempotencyKey)
    // Read before the transaction: on SQLite a query outside it would wait for the connection
    // the transaction holds.
    const [steps, peeked] = await Promise.all([this.steps(), lots.peekLot(request.lotId)])
    await this.refuseIfStale(userId, request, steps, peeked, idempotencyKey)
    const outcome = await this.deps.transact(async (tx) => {
      const lot = await lots.lockLot(tx, request.lotId)
      // After the lock: a bid that queued behind others is judged at the time it is applied.
      const now = clock.now()
      // After the lot lock, so a concurrent retry with the same key waits and then replays.
      if (idempotencyKey) {
        const claim = await idempotency.claim<BidResult>(tx, userId, idempotencyKey, hash, now)
        if (claim.kind === 'replay') return { kind: 'replay' as const, response: claim.result }
      }
      if (!lot) throw new AppError('NOT_FOUND', { lotId: request.lotId })
      if (lot.status !== 'open') throw new AppError('LOT_CLOSED')
      // A winner who left a lot unpaid past its due time may not bid until they pay (DESIGN §4).
      if (await lots.hasOverdueOrders(tx, userId)) throw new AppError('BIDDER_OVERDUE')
      const before = await lots.proxies(tx, lot.id)
      const standing = await this.withoutOverdueLeader(tx, lot, before, userId)
      const result = placeBid(
        standing,
        { userId, amount: request.amount, proxy: request.proxy, at: now },
        { steps },
      )
      if (!result.ok) {
        const { ok: _ok, code, ...details } = result
        throw new AppError(code, Object.keys(details).length > 0 ? details : undefined)
      }
      await this.checkQuota(tx, userId, lot.id, request.amount)

      const endsAt = endAfterBid(lot.endsAt, now, {
        windowSeconds: lot.softCloseWindowSeconds,
        extendSeconds: lot.softCloseExtendSeconds,
      })
      const state = { ...result.state, endsAt }
      await lots.saveState(tx, lot.id, state, before, now)
      await lots.insertChanges(tx, lot.id, result.changes, now)
      const mine = state.proxies.find((p) => p.userId === userId && p.active)
      const response: BidResult = {
        lotId: lot.id,
        price: state.price,
        bidCount: state.bidCount,
        endsAt: new Date(endsAt).toISOString(),
        leading: result.leading,
        myMax: mine ? mine.max : null,
        notLeading: result.notLeading,
      }
      if (idempotencyKey) await idempotency.complete(tx, userId, idempotencyKey, response)
      if (result.outbid !== null && state.price !== null) {
        await this.deps.notices.add(
          tx,
          result.outbid,
          'outbid',
          { lotId: lot.id, title: lot.title, price: state.price },
          lotLink(lot.id),
        )
      }
      const leader = state.leaderId === null ? null : await this.displayOf(tx, state.leaderId)
      return { kind: 'placed' as const, leader, response, state, outbid: result.outbid, lot, now }
    })

    if (outcome.kind === 'replay') return outcome.response
    const { response, state, outbid, lot, leader, now } = outcome
    this.publishSafely(response, {
      status: lot.status,
      startsAt: lot.startsAt,
      reservePrice: lot.reservePrice,
      leaderId: state.leaderId,
      endsAt: state.endsAt,
      outbid,
      leader,
      now,
    })
    return response
  }

  /**
   * The same bid on PostgreSQL as one autocommit statement (numisma_place_bid, ADR 030): the
   * lot's row lock is held for that statement only, instead of a transaction's eight round trips.
   * The statement ports the transaction above and the domain's rules (pg-bid-engine.test.ts
   * compares them).
   *
   * The time that judges a bid is still read when the bid holds the lot: bids on one lot from this
   * instance queue here, and whatever queued while one statement ran goes, in order, as the next
   * (numisma_place_bids: one statement, one commit), with the clock read as it is sent; the
   * statement takes the lock without waiting. When another instance (or the sweeper, a proxy
   * cancel) holds the lot, the statement answers `busy` and the batch waits for the lock in a
   * transaction, reads the clock after it, and runs the same statement in it.
   */
  private bidInOneStatement(
    userId: number,
    request: BidRequest,
    hash: string,
    idempotencyKey?: string,
  ): Promise<BidResult> {
    const bidder = `${request.lotId}:${userId}`
    const queued = this.queuedBy.get(bidder) ?? 0
    if (queued >= MAX_QUEUED_PER_BIDDER) return Promise.reject(new AppError('RATE_LIMITED'))
    this.queuedBy.set(bidder, queued + 1)
    return new Promise((resolve, reject) => {
      let queue = this.lotQueues.get(request.lotId)
      if (!queue) {
        queue = []
        this.lotQueues.set(request.lotId, queue)
        const waiting = queue
        this.drainLot(request.lotId, queue).catch((error: unknown) => {
          if (this.lotQueues.get(request.lotId) === waiting) this.lotQueues.delete(request.lotId)
          for (const { bid, reject } of waiting.splice(0)) {
            this.dequeued(`${bid.lotId}:${bid.userId}`)
            reject(error)
          }
        })
      }
      queue.push({
        bid: {
          lotId: request.lotId,
          userId,
          amount: request.amount,
          proxy: request.proxy,
          key: idempotencyKey ?? null,
          hash,
        },
        resolve,
        reject,
      })
    })
  }

  /** Places the lot's queued bids, a batch at a time, until none are left. */
  private async drainLot(lotId: number, queue: QueuedBid[]): Promise<void> {
    // Let the bids that arrive in this turn of the event loop join the first batch.
    await Promise.resolve()
    while (queue.length > 0) {
      const batch = queue.splice(0, MAX_BATCH)
      for (const { bid } of batch) this.dequeued(`${bid.lotId}:${bid.userId}`)
      try {
        const outcomes = await this.placeBatch(batch.map((q) => q.bid))
        // Straight after commit, in order, so pushes for one lot go out in commit order.
        for (const [i, outcome] of outcomes.entries()) {
          const { resolve, reject } = batch[i]!
          if ('error' in outcome) reject(new AppError(outcome.error, outcome.details ?? undefined))
          else if ('replay' in outcome) resolve(outcome.replay)
          else {
            this.publishSafely(outcome.response, outcome.push)
            resolve(outcome.response)
          }
        }
      } catch (error) {
        for (const { reject } of batch) reject(error)
      }
    }
    this.lotQueues.delete(lotId)
  }

  private dequeued(bidder: string): void {
    const left = (this.queuedBy.get(bidder) ?? 1) - 1
    if (left > 0) this.queuedBy.set(bidder, left)
    else this.queuedBy.delete(bidder)
  }

  /**
   * One batch, retried like writeTransaction on a serialisation failure or deadlock. A bid the
   * statement answered is never sent again: only the ones it answered `busy` wait for the lock
   * (numisma_place_bids answers busy for all or none since migration 0021; were it to place some
   * and not others, placing those again would judge them a second time and answer that).
   */
  private async placeBatch(
    bids: OneStatementBidInput[],
  ): Promise<Exclude<OneStatementBid, { busy: true }>[]> {
    const { lots, clock, options } = this.deps
    const settings = (now: number) => ({
      now,
      quotaMultiplier: options.quotaMultiplier,
      idempotencyTtlMs: IDEMPOTENCY_TTL_MS,
    })
    type Placed = Exclude<OneStatementBid, { busy: true }>
    const placed: (Placed | undefined)[] = bids.map(() => undefined)
    /** Records the answers to the bids at `indices`; returns the indices answered `busy`. */
    const record = (indices: number[], outcomes: OneStatementBid[]): number[] =>
      indices.filter((index, i) => {
        const outcome = outcomes[i]!
        if ('busy' in outcome) return true
        placed[index] = outcome
        return false
      })
    const unplaced = () => bids.flatMap((_, i) => (placed[i] ? [] : [i]))
    for (let attempt = 1; ; attempt++) {
      try {
        const first = unplaced()
        const busy = record(
          first,
          await lots.placeBidsInOneStatement(
            first.map((i) => bids[i]!),
            settings(clock.now()),
          ),
        )
        if (busy.length > 0) {
          // Recorded once the transaction has committed: after a rollback they go again.
          const locked = await this.deps.transact(async (tx) => {
            await lots.waitForLot(tx, bids[0]!.lotId)
            // After the lock: bids that queued behind another transaction are judged when applied.
            const answers = await lots.placeBidsInOneStatement(
              busy.map((i) => bids[i]!),
              settings(clock.now()),
              tx,
            )
            if (answers.some((o) => 'busy' in o))
              throw new Error('numisma_place_bids: busy under its own lock')
            return answers
          })
          record(busy, locked)
        }
        return placed as Placed[]
      } catch (error) {
        if (!isRetryable(error) || attempt >= MAX_ATTEMPTS) throw error
        await new Promise((resolve) => setTimeout(resolve, attempt * 5 + Math.random() * 10))
      }
    }
  }

  /**
   * Pushes a committed bid, and never fails its answer: the bid is committed whatever the push
   * does, so a bus that throws (for one bid of a batch, or all) is logged and each bidder still
   * gets their answer — not a 500 for a bid that stands, or for the batch's later bids.
   */
  private publishSafely(response: BidResult, placed: PlacedPush): void {
    try {
      this.publishBid(response, placed)
    } catch (error) {
      this.deps.log?.error({ err: error, lotId: response.lotId }, 'bid push failed after commit')
    }
  }

  /**
   * Pushes a committed bid. Called straight after commit, with nothing awaited in between, so
   * pushes for one lot go out in commit order.
   */
  private publishBid(response: BidResult, placed: PlacedPush): void {
    this.deps.bus.publish({
      type: 'lot',
      lotId: response.lotId,
      price: response.price,
      bidCount: response.bidCount,
      endsAt: response.endsAt,
      status: lotStatus(
        {
          status: placed.status,
          startsAt: placed.startsAt,
          endsAt: placed.endsAt,
          price: response.price,
          leaderId: placed.leaderId,
          reservePrice: placed.reservePrice,
        },
        placed.now,
      ),
      leader: placed.leader === null ? null : maskBidder(placed.leader),
    })
    if (placed.outbid !== null && response.price !== null) {
      this.deps.bus.publish({
        type: 'outbid',
        userId: placed.outbid,
        lotId: response.lotId,
        price: response.price,
      })
    }
  }

  /**
   * A bid below the committed minimum can only be refused — the price never falls — so on SQLite
   * it is refused before queueing for the write lock, where it would hold up bids that can win.
   * Only for a bidder who does not lead (a leader's minimum depends on their proxy), never for a
   * retry whose first attempt succeeded (that one is replayed inside the transaction), and never
   * for an overdue bidder (the transaction tells them that first). `lot` is the lot as last
   * committed (peekLot).
   *
   * On PostgreSQL bids skip this: the statement refuses a stale bid itself, in the batch it
   * queued for, writing nothing; reading the lot and the increment table first cost every bid
   * two round trips (ADR 030, "Stale bids").
   */
  private async refuseIfStale(
    userId: number,
    request: BidRequest,
    steps: PriceStep[],
    lot: LockedLot | undefined,
    idempotencyKey?: string,
  ) {
    if (!lot || lot.status !== 'open' || lot.leaderId === userId) return
    const result = placeBid(
      toState(lot, []),
      { userId, amount: request.amount, proxy: request.proxy, at: this.deps.clock.now() },
      { steps },
    )
    if (result.ok || result.code !== 'BID_TOO_LOW') return
    if (idempotencyKey && (await this.deps.idempotency.committed(userId, idempotencyKey))) return
    // The transaction refuses an overdue bidder before the engine judges the amount; so does
    // numisma_place_bids, which takes stale bids too (pg-bid-engine.test.ts compares the answers).
    if (await this.deps.lots.committedOverdue(userId)) return
    throw new AppError('BID_TOO_LOW', { minimum: result.minimum })
  }

  /**
   * The lot as the engine may see it: a leader who is an overdue winner (DESIGN §4) has their
   * proxy stopped — the engine never bids automatically for someone who may not bid. The overdue
   * job stops their proxies as it marks them; this covers a proxy that was live again when the mark
   * landed. The price they hold stands. Their stopped proxy is saved with the bid's state.
   */
  private async withoutOverdueLeader(
    tx: Tx,
    lot: LockedLot,
    proxies: LotState['proxies'],
    bidderId: number,
  ): Promise<LotState> {
    const state = toState(lot, proxies)
    const leaderId = lot.leaderId
    if (leaderId === null || leaderId === bidderId) return state
    if (!proxies.some((p) => p.userId === leaderId && p.active)) return state
    if (!(await this.deps.lots.hasOverdueOrders(tx, leaderId))) return state
    return cancelProxy(state, leaderId) ?? state
  }

  async cancelProxy(userId: number, lotId: number): Promise<CancelProxyResult> {
    const { lots, clock } = this.deps
    await this.deps.transact(async (tx) => {
      const lot = await lots.lockLot(tx, lotId)
      const now = clock.now()
      if (!lot) throw new AppError('NOT_FOUND', { lotId })
      if (lot.status !== 'open' || now >= lot.endsAt) throw new AppError('LOT_CLOSED')
      const before = await lots.proxies(tx, lotId)
      const next = cancelProxy(toState(lot, before), userId)
      if (!next) throw new AppError('PROXY_NOT_FOUND')
      await lots.saveState(tx, lotId, next, before, now)
      await lots.markProxyCancelled(tx, lotId, userId, now)
    })
    return { lotId, cancelled: true }
  }

  /** The caller's stake in a lot: their active proxy maximum, and their order if they won it. */
  stakeIn(
    lotId: number,
    userId: number,
  ): Promise<{ myMax: number | null; orderId: number | null }> {
    return this.deps.lots.stakeIn(lotId, userId)
  }

  /** Deposit, quota (deposit × multiplier) and exposure of a user, as last committed (fen). */
  async quotaOf(
    userId: number,
  ): Promise<{ deposit: number; quota: number; exposure: number; freeDeposit: number }> {
    const held = await this.deps.lots.committedExposure(userId)
    const input = this.quotaInput(held)
    const committed = exposure(input)
    return {
      deposit: input.deposit,
      quota: quotaLimit(input.deposit, input.multiplier),
      exposure: committed,
      // What the move back to the balance and a withdrawal would let out now (they judge it again
      // under the lock): the screens show this rather than work it out without the overdue claim.
      freeDeposit: freeDeposit({
        deposit: input.deposit,
        exposure: committed,
        multiplier: input.multiplier,
        overdue: held.overdue,
      }),
    }
  }

  /**
   * The deposit and exposure inside the caller's write transaction, and what overdue won lots
   * claim of it (`freeDeposit` of packages/domain judges them all), under the lock a bid takes on
   * the user's exposure: a use case that takes deposit away (back to the balance, a withdrawal)
   * and a bid then cannot both count on the same deposit.
   */
  async heldDeposit(tx: Tx, userId: number): Promise<DepositHeld> {
    const held = await this.deps.lots.exposure(tx, userId, { lock: true })
    const input = this.quotaInput(held)
    return {
      deposit: input.deposit,
      exposure: exposure(input),
      multiplier: this.deps.options.quotaMultiplier,
      overdue: held.overdue,
    }
  }

  // Reads.

  async history(
    lotId: number,
    viewer: number | null,
    query: BidHistoryQuery,
  ): Promise<{ data: BidRecord[]; page: number; pageSize: number; total: number }> {
    await this.requireLot(lotId)
    const { rows, total } = await this.deps.reads.bidHistory(lotId, {
      offset: (query.page - 1) * query.pageSize,
      limit: query.pageSize,
    })
    return {
      data: rows.map((r) => ({
        bidder: r.user_id === viewer ? r.display : maskBidder(r.display),
        amount: r.amount,
        auto: r.auto === 1,
        at: new Date(r.created_at).toISOString(),
        mine: r.user_id === viewer,
      })),
      page: query.page,
      pageSize: query.pageSize,
      total,
    }
  }

  async priceSteps(): Promise<PriceStepRow[]> {
    return (await this.deps.reads.priceSteps()).map((r) => ({ from: r.from_amount, step: r.step }))
  }

  /** My proxy bids, newest first, optionally in one state. */
  async proxyBids(userId: number, state?: EntrustState): Promise<Entrust[]> {
    const now = this.deps.clock.now()
    const items = (await this.deps.reads.proxiesOf(userId)).map((row) => ({
      ...toLotCard(row, now),
      maxAmount: row.max_amount,
      state: this.stateOfProxy(row, userId, now),
      updatedAt: new Date(row.proxy_updated_at).toISOString(),
    }))
    return state ? items.filter((i) => i.state === state) : items
  }

  async proxyBidCounts(userId: number): Promise<EntrustCounts> {
    const now = this.deps.clock.now()
    const counts: EntrustCounts = { active: 0, outbid: 0, won: 0, lost: 0, cancelled: 0 }
    for (const row of await this.deps.reads.proxiesOf(userId)) {
      counts[this.stateOfProxy(row, userId, now)]++
    }
    return counts
  }

  /** Lots I have bid on: leading, outbid, won, lost. */
  async trades(userId: number, state?: TradeState): Promise<Trade[]> {
    const now = this.deps.clock.now()
    const items = (await this.deps.reads.lotsBidOn(userId)).map((row) => {
      const card = toLotCard(row, now)
      return {
        ...card,
        state: tradeState(card.status, row.leader_id === userId),
        myHighest: row.my_highest ?? 0,
      }
    })
    return state ? items.filter((i) => i.state === state) : items
  }

  /** Counters for the user centre (open lots bid on, watches, active proxies, unpaid orders). */
  counts(userId: number) {
    return this.deps.reads.counts(userId)
  }

  // Watches.

  async watch(userId: number, lotId: number): Promise<WatchState> {
    await this.requireLot(lotId)
    await this.deps.watches.watch(userId, lotId, this.deps.clock.now())
    return { lotId, watching: true }
  }

  async unwatch(userId: number, lotId: number): Promise<WatchState> {
    await this.deps.watches.unwatch(userId, lotId)
    return { lotId, watching: false }
  }

  async watchStates(userId: number, lotIds: number[]): Promise<WatchState[]> {
    const ids = [...new Set(lotIds)]
    const watched = await this.deps.watches.watchedAmong(userId, ids)
    return ids.map((lotId) => ({ lotId, watching: watched.has(lotId) }))
  }

  async watchedLots(userId: number): Promise<LotCard[]> {
    const now = this.deps.clock.now()
    return (await this.deps.watches.watchedLots(userId)).map((row) => toLotCard(row, now))
  }

  // Helpers.

  private async requireLot(lotId: number): Promise<void> {
    if (!(await this.deps.reads.lotExists(lotId))) throw new AppError('NOT_FOUND', { lotId })
  }

  private stateOfProxy(
    row: Awaited<ReturnType<BiddingReads['proxiesOf']>>[number],
    userId: number,
    now: number,
  ): EntrustState {
    return entrustState(lotStatusOf(row, now), row.leader_id === userId, row.cancelled_at !== null)
  }

  /** Display names for push messages; they do not change once an account exists. */
  private async displayOf(tx: Tx, userId: number): Promise<string | null> {
    const cached = this.displayNames.get(userId)
    if (cached !== undefined) return cached
    const row = await this.deps.lots.leaderDisplay(tx, userId)
    if (!row) return null
    if (this.displayNames.size > 50_000) this.displayNames.clear()
    this.displayNames.set(userId, row.display)
    return row.display
  }

  /**
   * The increment table, read for every bid: an operator may replace it (staff price-steps), and
   * a bid on any instance is judged by the table as last committed, with no cache to go stale.
   * One read of a dozen rows beside the bid's own queries.
   */
  private async steps(): Promise<PriceStep[]> {
    return (await this.priceSteps()).map((r) => ({ from: r.from, step: r.step }))
  }

  private quotaInput(held: Exposure): QuotaInput {
    const lots = new Map<number, LotExposure>()
    for (const l of held.leading) lots.set(l.id, { lotId: l.id, leadingAt: l.price, proxyMax: 0 })
    for (const p of held.proxies) {
      const entry = lots.get(p.lot_id) ?? { lotId: p.lot_id, leadingAt: 0, proxyMax: 0 }
      lots.set(p.lot_id, { ...entry, proxyMax: p.max_amount })
    }
    return {
      deposit: held.deposit,
      multiplier: this.deps.options.quotaMultiplier,
      lots: [...lots.values()],
      unpaidOrders: held.unpaidOrders,
    }
  }

  private async checkQuota(tx: Tx, userId: number, lotId: number, commitment: number) {
    const input = this.quotaInput(await this.deps.lots.exposure(tx, userId, { lock: true }))
    if (!withinQuota(input, lotId, commitment)) {
      const limit = quotaLimit(input.deposit, input.multiplier)
      throw new AppError('QUOTA_EXCEEDED', {
        limit,
        deposit: input.deposit,
        exposure: exposure(input),
        recharge: '/account/quotaRecharge',
      })
    }
  }
}
