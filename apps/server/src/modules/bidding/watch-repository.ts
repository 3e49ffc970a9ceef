import type { Kysely } from 'kysely'
import type { DB } from '../../platform/schema'

/** Watches (关注) on lots: the only bidding table a user writes outside a bid. */
export class WatchRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async watch(userId: number, lotId: number, now: number): Promise<void> {
    await this.db
      .insertInto('watches')
      .values({ user_id: userId, lot_id: lotId, created_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'lot_id']).doNothing())
      .execute()
  }

  async unwatch(userId: number, lotId: number): Promise<void> {
    await this.db
      .deleteFrom('watches')
      .where('user_id', '=', userId)
      .where('lot_id', '=', lotId)
      .execute()
  }

  async watchedAmong(userId: number, lotIds: number[]): Promise<Set<number>> {
    if (lotIds.length === 0) return new Set()
    const rows = await this.db
      .selectFrom('watches')
      .select('lot_id')
      .where('user_id', '=', userId)
      .where('lot_id', 'in', lotIds)
      .execute()
    return new Set(rows.map((r) => r.lot_id))
  }

  watchedLots(userId: number) {
    return this.db
      .selectFrom('watches')
      .innerJoin('lots', 'lots.id', 'watches.lot_id')
      .selectAll('lots')
      .where('watches.user_id', '=', userId)
      .orderBy('watches.created_at', 'desc')
      .execute()
  }
}
