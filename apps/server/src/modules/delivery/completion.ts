import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../../platform/clock'
import type { Database } from '../../platform/db'
import { IntervalJob } from '../../platform/interval-job'
import { type Transact, transactor } from '../../platform/transactions'
import { moveShipment } from './moves'
import { DeliveryRepository } from './repository'

/** At most this many shipments completed per run, so a backlog never holds a run for long. */
const BATCH = 100

export interface CompletionJobDeps {
  transact: Transact
  clock: Clock
  repo: Pick<
    DeliveryRepository,
    'lockDue' | 'orderIdsOf' | 'lockOrders' | 'markShipped' | 'markCompleted' | 'setOrderStatus'
  >
  log?: FastifyBaseLogger
}

/**
 * Goods are received by themselves 15 days after shipping (DESIGN §6, `autoComplete` of
 * packages/domain/src/order-status.ts): shipped shipments past `auto_complete_at` complete with
 * their orders. One batch per transaction: the shipments first, `FOR UPDATE SKIP LOCKED` on
 * PostgreSQL (another instance's run, or a buyer confirming, passes by), then their orders — the
 * order every shipment change locks in — and the conditional status flip makes each complete
 * exactly once.
 */
export class CompletionJob {
  private readonly job = new IntervalJob(
    () => this.sweep(),
    (error: unknown) => this.deps.log?.error({ err: error }, 'delivery completion job failed'),
  )

  constructor(private readonly deps: CompletionJobDeps) {}

  static forDatabase(
    database: Database,
    clock: Clock,
    options: { log?: FastifyBaseLogger } = {},
  ): CompletionJob {
    return new CompletionJob({
      transact: transactor(database),
      clock,
      repo: new DeliveryRepository(database.db, database.dialect),
      ...options,
    })
  }

  /** One bounded run; returns the ids of the shipments it completed. */
  sweep(): Promise<number[]> {
    const { repo, clock, log } = this.deps
    return this.deps.transact(async (tx) => {
      const due = await repo.lockDue(tx, clock.now(), BATCH)
      const orderIds = await repo.orderIdsOf(
        tx,
        due.map((s) => s.id),
      )
      const completed: number[] = []
      for (const shipment of due) {
        const orders = await repo.lockOrders(tx, orderIds.get(shipment.id) ?? [])
        // After the locks: a shipment the buyer confirmed meanwhile is no longer shipped.
        const moved = await moveShipment(tx, repo, {
          shipment,
          orders,
          event: 'autoComplete',
          now: clock.now(),
        })
        if (moved.ok) completed.push(shipment.id)
        else log?.warn({ shipmentId: shipment.id, code: moved.code }, 'shipment not completed')
      }
      return completed
    })
  }

  start(intervalMs = 60_000): void {
    this.job.start(intervalMs)
  }

  stop(): Promise<void> {
    return this.job.stop()
  }
}
