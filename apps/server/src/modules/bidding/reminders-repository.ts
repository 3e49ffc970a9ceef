import type { Tx } from '../../platform/transactions'

export interface ClaimedReminder {
  userId: number
  lotId: number
  title: string
  endsAt: number
}

/** SQL of the ending-soon reminders (DESIGN §4): watches whose lot ends within the lead time. */
export class RemindersRepository {
  /**
   * Claims up to `limit` due reminders and returns them: the watchers of open lots that have
   * started and end in (now, now + leadMs], who have not been reminded of that lot. One
   * INSERT … SELECT … ON CONFLICT DO NOTHING RETURNING into `lot_reminders`, keyed (user_id,
   * lot_id), so a reminder is claimed by exactly one caller: two instances that pick the same
   * watches meet on the key, the second waits for the first's insert (PostgreSQL) or its write lock
   * (SQLite) and skips those rows, and only the inserted ones come back. The claim outlives the
   * watch, so unwatching and watching again does not remind twice. In the caller's write
   * transaction, so the notices written for the claimed reminders commit with the claim.
   */
  async claimDue(tx: Tx, now: number, leadMs: number, limit: number): Promise<ClaimedReminder[]> {
    const claimed = await tx
      .insertInto('lot_reminders')
      .columns(['user_id', 'lot_id', 'sent_at'])
      .expression((eb) =>
        eb
          .selectFrom('watches as w')
          .innerJoin('lots as l', 'l.id', 'w.lot_id')
          .select([
            'w.user_id',
            'w.lot_id',
            // Typed: PostgreSQL would read an untyped parameter in a SELECT list as text.
            eb.cast<number>(eb.val(now), 'bigint').as('sent_at'),
          ])
          .where('l.status', '=', 'open')
          .where('l.starts_at', '<=', now)
          .where('l.ends_at', '>', now)
          .where('l.ends_at', '<=', now + leadMs)
          .where((inner) =>
            inner.not(
              inner.exists(
                inner
                  .selectFrom('lot_reminders as r')
                  .select('r.user_id')
                  .whereRef('r.user_id', '=', 'w.user_id')
                  .whereRef('r.lot_id', '=', 'w.lot_id'),
              ),
            ),
          )
          // A total order: two instances inserting the same rows take their keys in the same
          // order, so one waits for the other instead of each waiting for the other (deadlock).
          .orderBy('l.ends_at')
          .orderBy('w.lot_id')
          .orderBy('w.user_id')
          .limit(limit),
      )
      .onConflict((oc) => oc.columns(['user_id', 'lot_id']).doNothing())
      .returning(['user_id', 'lot_id'])
      .execute()
    if (claimed.length === 0) return []

    // The lot's title and its end as it stands now (a soft close may have moved it).
    const lots = await tx
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
