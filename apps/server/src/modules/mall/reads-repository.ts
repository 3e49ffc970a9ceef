import type { Kysely } from 'kysely'
import type { DB } from '../../platform/schema'

/** What the mall module reads about an item and one user's watch on it. */
export class MallReads {
  constructor(private readonly db: Kysely<DB>) {}

  async itemIdOf(productNo: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('mall_items')
      .select('id')
      .where('product_no', '=', productNo)
      .executeTakeFirst()
    return row?.id
  }

  /** Whether the user watches the item (false for an unknown item). */
  async watched(productNo: string, userId: number): Promise<boolean> {
    const watch = await this.db
      .selectFrom('mall_watches')
      .innerJoin('mall_items', 'mall_items.id', 'mall_watches.mall_item_id')
      .select('mall_watches.user_id')
      .where('mall_items.product_no', '=', productNo)
      .where('mall_watches.user_id', '=', userId)
      .executeTakeFirst()
    return watch !== undefined
  }
}
