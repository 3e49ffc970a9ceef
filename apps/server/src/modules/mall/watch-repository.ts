import type { Kysely } from 'kysely'
import type { DB } from '../../platform/schema'

/** Watches (关注) on mall items: a user's own list, written outside any purchase. */
export class MallWatchRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Watching twice keeps the first watch (and its place in the list). */
  async watch(userId: number, mallItemId: number, now: number): Promise<void> {
    await this.db
      .insertInto('mall_watches')
      .values({ user_id: userId, mall_item_id: mallItemId, created_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'mall_item_id']).doNothing())
      .execute()
  }

  async unwatch(userId: number, mallItemId: number): Promise<void> {
    await this.db
      .deleteFrom('mall_watches')
      .where('user_id', '=', userId)
      .where('mall_item_id', '=', mallItemId)
      .execute()
  }

  /** The items a user watches with when each was watched, newest watch first. */
  watchedItems(userId: number) {
    return this.db
      .selectFrom('mall_watches')
      .innerJoin('mall_items', 'mall_items.id', 'mall_watches.mall_item_id')
      .selectAll('mall_items')
      .select('mall_watches.created_at as watched_at')
      .where('mall_watches.user_id', '=', userId)
      .orderBy('mall_watches.created_at', 'desc')
      .orderBy('mall_watches.mall_item_id', 'desc')
      .execute()
  }

  async count(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom('mall_watches')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirst()
    return Number(row?.n ?? 0)
  }
}
