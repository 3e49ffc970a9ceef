import type { Forfeit } from '@numisma/contracts/account'
import { forfeitDeposit, type Leg } from '@numisma/domain/postings'
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../../platform/clock'
import type { Database } from '../../platform/db'
import { AppError } from '../../platform/errors'
import { type IdempotencyStore, requestHash } from '../../platform/idempotency'
import { IntervalJob } from '../../platform/interval-job'
import { type Transact, transactor, type Tx } from '../../platform/transactions'
import { OverdueRepository } from './overdue-repository'

/** At most this many orders per run, so a backlog never holds a run for long. */
const BATCH = 100

export interface OverdueJobDeps {
  transact: Transact
  orders: Pick<OverdueRepository, 'lockDue' | 'markOverdue'>
  clock: Clock
  log?: FastifyBaseLogger
}

/**
 * Marks won lots unpaid past their due time (3 days after the close, DESIGN §4) `overdue`: their
 * winner cannot bid until they pay (BiddingService refuses BIDDER_OVERDUE), and staff may take the
 * deposit for the lot. One batch per transaction: only order rows are locked, so nothing can
 * deadlock with it; `FOR UPDATE SKIP LOCKED` lets another instance (or a payer holding an order)
 * pass, and the conditional update makes each order overdue exactly once.
 */
export class OverdueJob {
  private readonly job = new IntervalJob(
    () => this.sweep(),
    (error: unknown) => this.deps.log?.error({ err: error }, 'overdue job failed'),
  )

  constructor(private readonly deps: OverdueJobDeps) {}

  static forDatabase(
    database: Database,
    clock: Clock,
    options: Pick<OverdueJobDeps, 'log'> = {},
  ): OverdueJob {
    return new OverdueJob({
      transact: transactor(database),
      orders: new OverdueRepository(database.db, database.dialect),
      clock,
      ...options,
    })
  }

  /** One bounded run; returns the ids of the orders this run made overdue. */
  sweep(): Promise<number[]> {
    const { orders, clock } = this.deps
    return this.deps.transact(async (tx) => {
      const due = await orders.lockDue(tx, clock.now(), BATCH)
      // After the locks: an order paid while we waited is no longer pending and is left alone.
      return orders.markOverdue(tx, due, clock.now())
    })
  }

  start(intervalMs = 60_000): void {
    this.job.start(intervalMs)
  }

  stop(): Promise<void> {
    return this.job.stop()
  }
}

export interface ForfeitDeps {
  transact: Transact
  clock: Clock
  orders: Pick<OverdueRepository, 'lockOrder' | 'markForfeited'>
  ledger: {
    post(
      tx: Tx,
      userId: number,
      transfer: { kind: string; memo: string; now: number },
      legs: readonly Leg[],
    ): Promise<number>
  }
  /** The user's deposit under the lock bids take on their exposure (BiddingService.heldDeposit). */
  heldDeposit(tx: Tx, userId: number): Promise<{ deposit: number }>
  idempotency: IdempotencyStore
}

/**
 * Staff take an overdue winner's deposit for the lot they did not pay for (DESIGN §4, Zhaoonline's
 * rule): min(hammer, deposit), once. The order is then closed as `cancelled` (the winner has lost
 * the lot, which staff may relist) and the transfer's memo names it — `forfeit order 42` is the
 * record of what was taken. A closed order no longer counts as exposure or keeps its winner from
 * bidding.
 */
export class ForfeitService {
  constructor(private readonly deps: ForfeitDeps) {}

  forfeit(
    orderId: number,
    actor: { idempotencyOwner: number; idempotencyKey?: string },
  ): Promise<Forfeit> {
    const { orders, clock, ledger, idempotency } = this.deps
    return this.deps.transact(async (tx) => {
      const order = await orders.lockOrder(tx, orderId)
      if (!order || order.kind !== 'auction') throw new AppError('NOT_FOUND', { orderId })
      // The deposit under the exposure lock, after the order's: the order bids and payments take.
      const { deposit } = await this.deps.heldDeposit(tx, order.userId)
      const now = clock.now()
      const key = actor.idempotencyKey
      if (key !== undefined) {
        const claim = await idempotency.claim<Forfeit>(
          tx,
          actor.idempotencyOwner,
          key,
          requestHash({ forfeit: orderId }),
          now,
        )
        if (claim.kind === 'replay') return claim.result
      }
      // An auction order is cancelled only by a forfeit: a second one finds it decided.
      if (order.status === 'cancelled') throw new AppError('NOT_PENDING', { status: order.status })
      if (order.status !== 'overdue') {
        throw new AppError('ORDER_NOT_OVERDUE', { status: order.status })
      }
      if (!(await orders.markForfeited(tx, orderId, now))) throw new AppError('NOT_PENDING')
      const taken = Math.min(order.hammer, deposit)
      if (taken > 0) {
        await ledger.post(
          tx,
          order.userId,
          { kind: 'forfeit', memo: `forfeit order ${orderId}`, now },
          forfeitDeposit(taken),
        )
      }
      const result: Forfeit = {
        orderId,
        userId: order.userId,
        hammer: order.hammer,
        taken,
        deposit: deposit - taken,
        status: 'cancelled',
      }
      if (key !== undefined) await idempotency.complete(tx, actor.idempotencyOwner, key, result)
      return result
    })
  }
}
