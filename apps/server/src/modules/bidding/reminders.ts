import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../../platform/clock'
import type { Database } from '../../platform/db'
import type { EventBus } from '../../platform/event-bus'
import { IntervalJob } from '../../platform/interval-job'
import { type Transact, transactor } from '../../platform/transactions'
import { lotLink, type NoticeWriter, noticeWriterFor } from '../notices/writer'
import { type ClaimedReminder, RemindersRepository } from './reminders-repository'

/** DESIGN §4: a watcher is reminded this long before a watched lot ends. */
export const REMINDER_LEAD_MS = 5 * 60 * 1000
const BATCH = 500

export interface ReminderDeps {
  transact: Transact
  reminders: RemindersRepository
  /** Each reminder also lands in the watcher's notices (DESIGN §4), written with its claim. */
  notices: NoticeWriter
  clock: Clock
  bus: EventBus
  /** How long before the end a reminder goes out (default five minutes). */
  leadMs?: number
  log?: FastifyBaseLogger
}

/**
 * Ending-soon reminders (DESIGN §4): each watcher of a lot gets one push, `reminder`, when the lot
 * enters its last five minutes. A reminder is claimed in the database before it is published, so
 * it goes out once per user and lot across instances, soft-close extensions (an extension keeps
 * the lot inside the window; the claim is already there) and unwatching and watching again (the
 * claim is kept in `lot_reminders`, not on the watch). A watcher with no open socket at
 * that moment misses it: at most once, never twice.
 */
export class ReminderJob {
  private readonly job = new IntervalJob(
    () => this.run(),
    (error: unknown) => this.deps.log?.error({ err: error }, 'reminder job failed'),
  )

  constructor(private readonly deps: ReminderDeps) {}

  /** The job over one database, for the composition root and tests. */
  static forDatabase(
    database: Database,
    clock: Clock,
    bus: EventBus,
    options: Pick<ReminderDeps, 'leadMs' | 'log'> & { notices?: NoticeWriter } = {},
  ): ReminderJob {
    return new ReminderJob({
      transact: transactor(database),
      reminders: new RemindersRepository(),
      clock,
      bus,
      ...options,
      notices: options.notices ?? noticeWriterFor(database, clock),
    })
  }

  /** Claims and publishes every reminder due now; returns what it sent. */
  async run(): Promise<ClaimedReminder[]> {
    const { reminders, notices, clock, bus } = this.deps
    const sent: ClaimedReminder[] = []
    for (;;) {
      const batch = await this.deps.transact(async (tx) => {
        const claimed = await reminders.claimDue(
          tx,
          clock.now(),
          this.deps.leadMs ?? REMINDER_LEAD_MS,
          BATCH,
        )
        for (const r of claimed) {
          const endsAt = new Date(r.endsAt).toISOString()
          const params = { lotId: r.lotId, title: r.title, endsAt }
          await notices.add(tx, r.userId, 'ending_soon', params, lotLink(r.lotId))
        }
        return claimed
      })
      for (const reminder of batch) {
        bus.publish({
          type: 'reminder',
          userId: reminder.userId,
          lotId: reminder.lotId,
          title: reminder.title,
          endsAt: new Date(reminder.endsAt).toISOString(),
        })
      }
      sent.push(...batch)
      if (batch.length < BATCH) return sent
    }
  }

  start(intervalMs = 1000): void {
    this.job.start(intervalMs)
  }

  stop(): Promise<void> {
    return this.job.stop()
  }
}
