import { chinaDate } from '@numisma/domain/delivery'
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../../platform/clock'
import type { Database } from '../../platform/db'
import { IntervalJob } from '../../platform/interval-job'
import { type Transact, transactor } from '../../platform/transactions'
import { BookingsRepository } from './repository'
import type { SlotPlaces } from './service'

/** At most this many bookings ended per run, so a backlog never holds a run for long. */
const BATCH = 100

export interface BookingExpiryDeps {
  transact: Transact
  clock: Clock
  bookings: Pick<BookingsRepository, 'lockEnded' | 'decide'>
  /** Gives a slot's place back (modules/delivery's slot counts, through app.ts). */
  slots: Pick<SlotPlaces, 'release'>
  log?: FastifyBaseLogger
}

/**
 * Ends the counter cash bookings whose day is over (China time) and the buyer did not come: each
 * is cancelled and its slot's place given back, so its orders are no longer paid offline and
 * their own clocks (the mall expiry, the overdue job, forfeits) run again. One batch per
 * transaction: the bookings `FOR UPDATE SKIP LOCKED` on PostgreSQL (another instance's run, or
 * staff closing one, passes by), then the conditional status flip, so each ends exactly once.
 */
export class BookingExpiry {
  private readonly job = new IntervalJob(
    () => this.sweep(),
    (error: unknown) => this.deps.log?.error({ err: error }, 'booking expiry job failed'),
  )

  constructor(private readonly deps: BookingExpiryDeps) {}

  static forDatabase(
    database: Database,
    clock: Clock,
    slots: Pick<SlotPlaces, 'release'>,
    options: { log?: FastifyBaseLogger } = {},
  ): BookingExpiry {
    return new BookingExpiry({
      transact: transactor(database),
      clock,
      bookings: new BookingsRepository(database.db, database.dialect),
      slots,
      ...options,
    })
  }

  /** One bounded run; returns the ids of the bookings it ended. */
  sweep(): Promise<number[]> {
    const { bookings, clock, slots } = this.deps
    return this.deps.transact(async (tx) => {
      const ended = await bookings.lockEnded(tx, chinaDate(clock.now()), BATCH)
      const cancelled: number[] = []
      for (const booking of ended) {
        // Under the lock: a booking staff closed meanwhile is no longer open, and stays as it is.
        if (!(await bookings.decide(tx, booking.id, { status: 'cancelled' }))) continue
        await slots.release(tx, booking.date, booking.slot)
        cancelled.push(booking.id)
      }
      if (cancelled.length > 0) this.deps.log?.info({ bookingIds: cancelled }, 'bookings ended')
      return cancelled
    })
  }

  start(intervalMs = 60_000): void {
    this.job.start(intervalMs)
  }

  stop(): Promise<void> {
    return this.job.stop()
  }
}
