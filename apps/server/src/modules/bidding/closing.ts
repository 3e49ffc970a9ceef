import { AUCTION_PAYMENT_DAYS, handlingFee } from '@numisma/domain/fees'
import { closingOutcome } from '@numisma/domain/lot-status'
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../../platform/clock'
import type { Database } from '../../platform/db'
import type { EventBus } from '../../platform/event-bus'
import { IntervalJob } from '../../platform/interval-job'
import { type Transact, transactor } from '../../platform/transactions'
import { type NoticeWriter, noticeWriterFor, payLink } from '../notices/writer'
import { BiddingRepository } from './repository'

const DAY = 24 * 60 * 60 * 1000
const BATCH = 100

export interface ClosedLot {
  lotId: number
  outcome: 'sold' | 'unsold'
  winnerId: number | null
  price: number | null
  bidCount: number
  endsAt: number
}

/**
 * Closes lots whose end has passed (DESIGN §4 "Closing"): sold when a leader holds it at or above
 * the reserve — the winner's auction order (hammer + handling fee, due in 3 days) is created in the
 * same transaction — otherwise unsold. On PostgreSQL `FOR UPDATE SKIP LOCKED` lets several
 * instances sweep together; the status check and the unique lot_id on orders make each close
 * happen exactly once.
 */
export interface ClosingDeps {
  transact: Transact
  lots: BiddingRepository
  clock: Clock
  bus: EventBus
  /** The winner's `lot_won` notice is written with their order. */
  notices: NoticeWriter
  /** The handling fee in basis points of the hammer price (default 10 %). */
  feeBps?: number
  log?: FastifyBaseLogger
}

export class ClosingSweeper {
  private readonly job = new IntervalJob(
    () => this.sweep(),
    (error: unknown) => this.deps.log?.error({ err: error }, 'closing sweep failed'),
  )

  constructor(private readonly deps: ClosingDeps) {}

  /** The sweeper over one database, for the composition root and tests. */
  static forDatabase(
    database: Database,
    clock: Clock,
    bus: EventBus,
    options: Pick<ClosingDeps, 'feeBps' | 'log'> & { notices?: NoticeWriter } = {},
  ): ClosingSweeper {
    return new ClosingSweeper({
      transact: transactor(database),
      lots: new BiddingRepository(database.db, database.dialect),
      clock,
      bus,
      ...options,
      notices: options.notices ?? noticeWriterFor(database, clock),
    })
  }

  async sweep(): Promise<ClosedLot[]> {
    const { lots: repo, clock, bus } = this.deps
    const closed = await this.deps.transact(async (tx) => {
      const now = clock.now()
      const lots = await repo.dueLots(tx, now, BATCH)
      const result: ClosedLot[] = []
      for (const lot of lots) {
        const outcome = closingOutcome({
          price: lot.price,
          leaderId: lot.leader_id,
          reservePrice: lot.reserve_price,
        })
        if (!(await repo.markClosed(tx, lot.id, outcome))) continue
        if (outcome === 'sold' && lot.leader_id !== null && lot.price !== null) {
          const fee = handlingFee(lot.price, this.deps.feeBps)
          const dueAt = now + AUCTION_PAYMENT_DAYS * DAY
          const orderId = await repo.createAuctionOrder(tx, {
            userId: lot.leader_id,
            lotId: lot.id,
            hammer: lot.price,
            fee,
            dueAt,
            now,
          })
          if (orderId !== undefined) {
            await this.deps.notices.add(
              tx,
              lot.leader_id,
              'lot_won',
              {
                lotId: lot.id,
                title: lot.title,
                price: lot.price,
                orderId,
                dueAt: new Date(dueAt).toISOString(),
              },
              payLink(orderId),
            )
          }
        }
        await repo.deactivateProxies(tx, lot.id)
        result.push({
          lotId: lot.id,
          outcome,
          winnerId: outcome === 'sold' ? lot.leader_id : null,
          price: lot.price,
          bidCount: lot.bid_count,
          endsAt: lot.ends_at,
        })
      }
      return result
    })
    for (const lot of closed) {
      bus.publish({
        type: 'lot',
        lotId: lot.lotId,
        price: lot.price,
        bidCount: lot.bidCount,
        endsAt: new Date(lot.endsAt).toISOString(),
        status: lot.outcome,
        leader: null,
      })
    }
    return closed
  }

  start(intervalMs = 1000): void {
    this.job.start(intervalMs)
  }

  stop(): Promise<void> {
    return this.job.stop()
  }
}
