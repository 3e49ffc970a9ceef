import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../../platform/clock'
import type { Database } from '../../platform/db'
import { IntervalJob } from '../../platform/interval-job'
import { type Transact, transactor, type Tx } from '../../platform/transactions'
import type { CouponHolds } from './coupon-holds'
import { OrdersRepository } from './repository'
import { couponStep, hasExpired, stockStep, unwindMallOrder } from './steps'

/** At most this many orders per run, so a backlog never holds a run for long. */
const BATCH = 100
/** An order whose cancel failed is passed over this long, then tried again. */
export const RETRY_FAILED_AFTER_MS = 2 * 60_000
/** At most this many failing orders are remembered; past that, the oldest are tried again sooner. */
const MAX_FAILING = 1_000
/** Batches per run when orders a notice awaits fill them (they are passed over, not cancelled). */
const MAX_ROUNDS = 10

/**
 * Which of `orderIds` a remittance notice waiting for staff names (modules/finance provides it,
 * app wiring passes it in): the buyer has sent the money, so the order waits for staff.
 */
export type AwaitingRemittance = (tx: Tx, orderIds: readonly number[]) => Promise<Set<number>>

export interface MallOrderExpiryDeps {
  transact: Transact
  orders: OrdersRepository
  holds: CouponHolds
  clock: Clock
  log?: FastifyBaseLogger
  /**
   * Without it the job cannot tell which remittance orders staff still have to decide, so it
   * leaves every order whose buyer chose remittance alone (the composition root always passes it).
   */
  awaiting?: AwaitingRemittance
  /**
   * Which of the orders an open counter cash booking holds (modules/bookings, through app.ts): its
   * buyer pays cash at the counter on the booked day, so the order is paid offline and stays.
   */
  bookedAtCounter?: AwaitingRemittance
}

/**
 * Cancels unpaid mall orders past their due time (DESIGN §5: 30 minutes; REMITTANCE_HOLD_MS from
 * the choice for an order whose buyer chose bank remittance, kept while a notice waiting for staff
 * names it), returning their stock and coupon. Each order is cancelled in its own
 * short transaction by the same steps as a buyer's cancel, locking the order, then its item, then
 * its coupon — the order a purchase takes item and coupon in — so expiry never deadlocks with
 * buying. On PostgreSQL an order another instance (or its buyer) holds is skipped (`FOR UPDATE
 * SKIP LOCKED`); the due check is repeated under the lock and the status flips conditionally, so
 * each order expires exactly once however many instances run the job.
 */
export class MallOrderExpiry {
  /** Orders whose cancel failed, with the time they may be tried again (this instance only). */
  private readonly failing = new Map<number, number>()
  private readonly job = new IntervalJob(
    () => this.sweep(),
    (error: unknown) => this.deps.log?.error({ err: error }, 'mall order expiry failed'),
  )
  private readonly stock
  private readonly coupon

  constructor(private readonly deps: MallOrderExpiryDeps) {
    this.stock = stockStep(deps.orders)
    this.coupon = couponStep(deps.holds)
  }

  /** The job over one database, for the composition root and tests. */
  static forDatabase(
    database: Database,
    clock: Clock,
    holds: CouponHolds,
    options: Pick<MallOrderExpiryDeps, 'log' | 'awaiting' | 'bookedAtCounter'> = {},
  ): MallOrderExpiry {
    return new MallOrderExpiry({
      transact: transactor(database),
      orders: new OrdersRepository(database.db, database.dialect),
      holds,
      clock,
      ...options,
    })
  }

  /**
   * One bounded run; returns the ids of the orders this run cancelled. An order that fails to
   * cancel is logged and passed over, so it neither stops the orders after it nor, run after run,
   * takes the front of the batch: it is left out for RETRY_FAILED_AFTER_MS, then tried again.
   */
  async sweep(): Promise<number[]> {
    const { orders, clock } = this.deps
    const start = clock.now()
    for (const [id, retryAt] of this.failing) if (retryAt <= start) this.failing.delete(id)
    const skip = new Set(this.failing.keys())
    const expired: number[] = []
    // Orders a notice awaits are due but stay: passed over for the rest of this run, and the batch
    // is read again, so however many of them there are they never hold up the orders behind.
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const due = await orders.dueMallOrders(start, BATCH, [...skip])
      let awaited = 0
      for (const { id } of due) {
        try {
          const outcome = await this.expire(id)
          if (outcome === 'expired') expired.push(id)
          if (outcome === 'awaited') {
            awaited++
            skip.add(id)
          }
        } catch (error) {
          this.deps.log?.error({ err: error, orderId: id }, 'mall order expiry failed for an order')
          this.passOver(id, clock.now() + RETRY_FAILED_AFTER_MS)
        }
      }
      if (awaited === 0 || due.length < BATCH) break
    }
    return expired
  }

  /** Cancels one due order in its own transaction, unless it is no longer due, held or awaited. */
  private expire(id: number): Promise<'expired' | 'kept' | 'awaited'> {
    const { orders, clock, awaiting, bookedAtCounter } = this.deps
    return this.deps.transact(async (tx) => {
      const order = await orders.lockOrder(tx, id, { skipLocked: true })
      const now = clock.now()
      // Re-judged under the lock: the buyer may have paid, cancelled or chosen remittance.
      if (!order || !hasExpired(order, now)) return 'kept'
      // Booked under the order's lock, so a booking is committed before us or finds it cancelled.
      if (bookedAtCounter && (await bookedAtCounter(tx, [id])).has(id)) return 'awaited'
      if (order.payMethod === 'remittance') {
        if (!awaiting) return 'awaited'
        // After the order's lock: a notice filed meanwhile has committed, or waits for us and then
        // finds the order cancelled (ORDER_NOT_PAYABLE).
        if ((await awaiting(tx, [id])).has(id)) return 'awaited'
      }
      const unwound = await unwindMallOrder(tx, order, now, {
        orders,
        stock: this.stock,
        coupon: this.coupon,
      })
      return unwound ? 'expired' : 'kept'
    })
  }

  private passOver(id: number, retryAt: number): void {
    this.failing.delete(id)
    this.failing.set(id, retryAt)
    // A Map keeps insertion order: the first key is the one remembered longest.
    if (this.failing.size > MAX_FAILING) this.failing.delete(this.failing.keys().next().value!)
  }

  start(intervalMs = 5_000): void {
    this.job.start(intervalMs)
  }

  stop(): Promise<void> {
    return this.job.stop()
  }
}
