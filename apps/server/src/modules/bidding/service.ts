import type { BidRequest, BidResult } from '@numisma/contracts/bidding'
import { cancelProxy, type LotState, placeBid } from '@numisma/domain/bid-engine'
import type { PriceStep } from '@numisma/domain/increments'
import { lotStatus } from '@numisma/domain/lot-status'
import {
  exposure,
  type LotExposure,
  type QuotaInput,
  quotaLimit,
  withinQuota,
} from '@numisma/domain/quota'
import { endAfterBid } from '@numisma/domain/soft-close'
import type { Clock } from '../../platform/clock'
import type { Database } from '../../platform/db'
import { AppError } from '../../platform/errors'
import type { EventBus } from '../../platform/event-bus'
import { IdempotencyStore, requestHash } from '../../platform/idempotency'
import { writeTransaction, type Tx } from '../../platform/transactions'
import { maskBidder } from './mask'
import { BiddingReads } from './reads-repository'
import { BiddingRepository, type LockedLot } from './repository'

export interface BiddingOptions {
  quotaMultiplier: number
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
 * Bids and proxy cancellations. Each runs in one write transaction that locks the lot, so bids on
 * a lot are applied one at a time, with the end-time check inside; pushes go out after commit.
 */
export class BiddingService {
  private readonly repo: BiddingRepository
  private readonly reads: BiddingReads
  private readonly idempotency = new IdempotencyStore()

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly bus: EventBus,
    private readonly options: BiddingOptions,
  ) {
    this.repo = new BiddingRepository(database.dialect)
    this.reads = new BiddingReads(database.db)
  }

  async bid(userId: number, request: BidRequest, idempotencyKey?: string): Promise<BidResult> {
    const hash = requestHash(request)
    // Read before the transaction: on SQLite a query outside it would wait for the connection
    // the transaction holds.
    const steps = await this.steps()
    await this.refuseIfStale(userId, request, steps, idempotencyKey)
    const outcome = await writeTransaction(this.database, async (tx) => {
      const now = this.clock.now()
      const lot = await this.repo.lockLot(tx, request.lotId)
      // After the lot lock, so a concurrent retry with the same key waits and then replays.
      if (idempotencyKey) {
        const claim = await this.idempotency.claim<BidResult>(tx, userId, idempotencyKey, hash, now)
        if (claim.kind === 'replay') return { kind: 'replay' as const, response: claim.result }
      }
      if (!lot) throw new AppError('NOT_FOUND', { lotId: request.lotId })
      if (lot.status !== 'open') throw new AppError('LOT_CLOSED')
      const before = await this.repo.proxies(tx, lot.id)
      const result = placeBid(
        toState(lot, before),
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
      await this.repo.saveState(tx, lot.id, state, before, now)
      await this.repo.insertChanges(tx, lot.id, result.changes, now)
      const mine = state.proxies.find((p) => p.userId === userId && p.active)
      const response: BidResult = {
        lotId: lot.id,
        price: state.price,
        bidCount: state.bidCount,
        endsAt: new Date(endsAt).toISOString(),
        leading: result.leading,
        myMax: mine ? mine.max : null,
      }
      if (idempotencyKey) await this.idempotency.complete(tx, userId, idempotencyKey, response)
      const leader = state.leaderId === null ? null : await this.displayOf(tx, state.leaderId)
      return {
        kind: 'placed' as const,
        leader,
        response,
        state,
        outbid: result.outbid,
        lot,
      }
    })

    if (outcome.kind === 'replay') return outcome.response
    // Published straight after commit, with nothing awaited in between, so pushes for one lot
    // go out in commit order.
    const { response, state, outbid, lot, leader } = outcome
    this.bus.publish({
      type: 'lot',
      lotId: lot.id,
      price: state.price,
      bidCount: state.bidCount,
      endsAt: response.endsAt,
      status: lotStatus(
        {
          status: lot.status,
          startsAt: lot.startsAt,
          endsAt: state.endsAt,
          price: state.price,
          leaderId: state.leaderId,
          reservePrice: lot.reservePrice,
        },
        this.clock.now(),
      ),
      leader: leader === null ? null : maskBidder(leader),
    })
    if (outbid !== null && state.price !== null) {
      this.bus.publish({ type: 'outbid', userId: outbid, lotId: lot.id, price: state.price })
    }
    return response
  }

  /**
   * A bid below the committed minimum can only be refused — the price never falls — so it is
   * refused before queueing for the lot's write lock, where it would hold up bids that can win.
   * Only for a bidder who does not lead (a leader's minimum depends on their proxy) and never for
   * a retry whose first attempt succeeded (that one is replayed inside the transaction).
   */
  private async refuseIfStale(
    userId: number,
    request: BidRequest,
    steps: PriceStep[],
    idempotencyKey?: string,
  ) {
    const lot = await this.repo.peekLot(this.database.db, request.lotId)
    if (!lot || lot.status !== 'open' || lot.leaderId === userId) return
    const result = placeBid(
      toState(lot, []),
      { userId, amount: request.amount, proxy: request.proxy, at: this.clock.now() },
      { steps },
    )
    if (result.ok || result.code !== 'BID_TOO_LOW') return
    if (idempotencyKey && (await this.idempotency.find(this.database.db, userId, idempotencyKey))) {
      return
    }
    throw new AppError('BID_TOO_LOW', { minimum: result.minimum })
  }

  async cancelProxy(userId: number, lotId: number): Promise<{ lotId: number; cancelled: true }> {
    await writeTransaction(this.database, async (tx) => {
      const now = this.clock.now()
      const lot = await this.repo.lockLot(tx, lotId)
      if (!lot) throw new AppError('NOT_FOUND', { lotId })
      if (lot.status !== 'open' || now >= lot.endsAt) throw new AppError('LOT_CLOSED')
      const before = await this.repo.proxies(tx, lotId)
      const next = cancelProxy(toState(lot, before), userId)
      if (!next) throw new AppError('PROXY_NOT_FOUND')
      await this.repo.saveState(tx, lotId, next, before, now)
      await this.repo.markProxyCancelled(tx, lotId, userId, now)
    })
    return { lotId, cancelled: true }
  }

  /** The caller's stake in a lot: their active proxy maximum, and their order if they won it. */
  async stakeIn(
    lotId: number,
    userId: number,
  ): Promise<{ myMax: number | null; orderId: number | null }> {
    const [proxy, order] = await Promise.all([
      this.repo.myMax(this.database.db, lotId, userId),
      this.repo.auctionOrderOf(this.database.db, lotId, userId),
    ])
    return {
      myMax: proxy && proxy.active === 1 ? proxy.max_amount : null,
      orderId: order?.id ?? null,
    }
  }

  private readonly displayNames = new Map<number, string>()
  private stepCache: { at: number; steps: PriceStep[] } | undefined

  /** Display names for push messages; they do not change once an account exists. */
  private async displayOf(tx: Tx, userId: number): Promise<string | null> {
    const cached = this.displayNames.get(userId)
    if (cached !== undefined) return cached
    const row = await this.repo.leaderDisplay(tx, userId)
    if (!row) return null
    if (this.displayNames.size > 50_000) this.displayNames.clear()
    this.displayNames.set(userId, row.display)
    return row.display
  }

  /** The increment table (an operator may change it), re-read at most every 10 s. */
  private async steps(): Promise<PriceStep[]> {
    const now = this.clock.now()
    if (this.stepCache && Math.abs(now - this.stepCache.at) < 10_000) return this.stepCache.steps
    const rows = await this.reads.priceSteps()
    const steps = rows.map((r) => ({ from: r.from_amount, step: r.step }))
    this.stepCache = { at: now, steps }
    return steps
  }

  /** Deposit, quota (deposit × multiplier) and exposure of a user, as last committed (fen). */
  async quotaOf(userId: number): Promise<{ deposit: number; quota: number; exposure: number }> {
    const input = this.quotaInput(await this.repo.exposure(this.database.db, userId))
    return {
      deposit: input.deposit,
      quota: quotaLimit(input.deposit, input.multiplier),
      exposure: exposure(input),
    }
  }

  private quotaInput(held: Awaited<ReturnType<BiddingRepository['exposure']>>): QuotaInput {
    const lots = new Map<number, LotExposure>()
    for (const l of held.leading)
      lots.set(l.id, { lotId: l.id, leadingAt: l.price ?? 0, proxyMax: 0 })
    for (const p of held.proxies) {
      const entry = lots.get(p.lot_id) ?? { lotId: p.lot_id, leadingAt: 0, proxyMax: 0 }
      lots.set(p.lot_id, { ...entry, proxyMax: p.max_amount })
    }
    return {
      deposit: held.deposit,
      multiplier: this.options.quotaMultiplier,
      lots: [...lots.values()],
      unpaidOrders: held.unpaidOrders,
    }
  }

  private async checkQuota(tx: Tx, userId: number, lotId: number, commitment: number) {
    const input = this.quotaInput(await this.repo.exposure(tx, userId))
    const deposit = input.deposit
    if (!withinQuota(input, lotId, commitment)) {
      throw new AppError('QUOTA_EXCEEDED', {
        limit: deposit * this.options.quotaMultiplier,
        deposit,
        recharge: '/account/quotaRecharge',
      })
    }
  }
}
