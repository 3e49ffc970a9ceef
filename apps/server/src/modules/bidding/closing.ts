import { AUCTION_PAYMENT_DAYS, handlingFee } from '@numisma/domain/fees'
import { closingOutcome } from '@numisma/domain/lot-status'
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../../platform/clock'
import type { Database } from '../../platform/db'
import type { EventBus } from '../../platform/event-bus'
import { writeTransaction } from '../../platform/transactions'

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
export class ClosingSweeper {
  private timer: NodeJS.Timeout | undefined
  private running: Promise<unknown> | undefined

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly bus: EventBus,
    private readonly options: { feeBps?: number; log?: FastifyBaseLogger } = {},
  ) {}

  async sweep(): Promise<ClosedLot[]> {
    const closed = await writeTransaction(this.database, async (tx) => {
      const now = this.clock.now()
      let due = tx
        .selectFrom('lots')
        .select(['id', 'price', 'leader_id', 'reserve_price', 'bid_count', 'ends_at'])
        .where('status', '=', 'open')
        .where('ends_at', '<=', now)
        .orderBy('ends_at')
        .limit(BATCH)
      if (this.database.dialect === 'postgres') due = due.forUpdate().skipLocked()
      const lots = await due.execute()
      const result: ClosedLot[] = []
      for (const lot of lots) {
        const outcome = closingOutcome({
          price: lot.price,
          leaderId: lot.leader_id,
          reservePrice: lot.reserve_price,
        })
        const updated = await tx
          .updateTable('lots')
          .set({ status: outcome })
          .where('id', '=', lot.id)
          .where('status', '=', 'open')
          .executeTakeFirst()
        if (updated.numUpdatedRows !== 1n) continue
        if (outcome === 'sold' && lot.leader_id !== null && lot.price !== null) {
          const fee = handlingFee(lot.price, this.options.feeBps)
          await tx
            .insertInto('orders')
            .values({
              user_id: lot.leader_id,
              kind: 'auction',
              lot_id: lot.id,
              mall_item_id: null,
              quantity: 1,
              amount: lot.price,
              fee,
              total: lot.price + fee,
              status: 'pending_payment',
              due_at: now + AUCTION_PAYMENT_DAYS * DAY,
              created_at: now,
              paid_at: null,
            })
            .onConflict((oc) => oc.column('lot_id').doNothing())
            .execute()
        }
        await tx.updateTable('proxies').set({ active: 0 }).where('lot_id', '=', lot.id).execute()
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
      this.bus.publish({
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
    this.timer = setInterval(() => {
      if (this.running) return
      this.running = this.sweep()
        .catch((error: unknown) => this.options.log?.error({ err: error }, 'closing sweep failed'))
        .finally(() => (this.running = undefined))
    }, intervalMs)
    this.timer.unref()
  }

  async stop(): Promise<void> {
    clearInterval(this.timer)
    await this.running
  }
}
