import type { Kysely } from 'kysely'
import type { Dialect } from '../../platform/db'
import type { DB } from '../../platform/schema'

export interface ClaimedReminder {
  userId: number
  lotId: number
  title: string
  endsAt: number
}

/** SQL of the ending-soon reminders (DESIGN §4): watches whose lot ends within the lead time. */
export class RemindersRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Marks up to `limit` due reminders as sent and returns them: the watches, not yet reminded, of
   * open lots that have started and end in (now, now + leadMs]. One conditional UPDATE … RETURNING,
   * so a watch is claimed by exactly one caller: on PostgreSQL the rows are picked `FOR UPDATE SKIP
   * LOCKED` (two instances take different rows instead of queueing), and the outer
   * `reminded_at IS NULL` is re-checked on the row's latest version; SQLite runs one writer at a
   * time.
   */
  async claimDue(now: number, leadMs: number, limit: number): Promise<ClaimedReminder[]> {
    const claimed = await this.db
      .updateTable('watches')
      .set({ reminded_at: now })
      .where('reminded_at', 'is', null)
      .where((eb) => {
        let due = eb
          .selectFrom('watches as w')
          .innerJoin('lots as l', 'l.id', 'w.lot_id')
          .select(['w.user_id', 'w.lot_id'])
          .where('w.reminded_at', 'is', null)
          .where('l.status', '=', 'open')
          .where('l.starts_at', '<=', now)
          .where('l.ends_at', '>', now)
          .where('l.ends_at', '<=', now + leadMs)
          .orderBy('l.ends_at')
          .limit(limit)
        if (this.dialect === 'postgres') due = due.forUpdate('w').skipLocked()
        return eb(eb.refTuple('user_id', 'lot_id'), 'in', due.$asTuple('user_id', 'lot_id'))
      })
      .returning(['user_id', 'lot_id'])
      .execute()
    if (claimed.length === 0) return []

    // The lot's title and its end as it stands now (a soft close may have moved it).
    const lots = await this.db
      .selectFrom('lots')
      .select(['id', 'title', 'ends_at'])
      .where(
        'id',
        'in',
        claimed.map((c) => c.lot_id),
      )
      .execute()
    const byId = new Map(lots.map((lot) => [lot.id, lot]))
    return claimed.flatMap((c) => {
      const lot = byId.get(c.lot_id)
      return lot
        ? [{ userId: c.user_id, lotId: c.lot_id, title: lot.title, endsAt: lot.ends_at }]
        : []
    })
  }
}
