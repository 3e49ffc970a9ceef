import type { Kysely } from 'kysely'
import type { DB } from '../../platform/schema'

/** What the mall module reads about an item and one user's stake in it. */
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

  /**
   * A user's watch on an item and the units they hold in its orders that were not cancelled
   * (pending payment counts: the per-user limit holds those units too). Unknown item: nothing.
   */
  async viewerOf(productNo: string, userId: number): Promise<{ watched: boolean; bought: number }> {
    const [watch, bought] = await Promise.all([
      this.db
        .selectFrom('mall_watches')
        .innerJoin('mall_items', 'mall_items.id', 'mall_watches.mall_item_id')
        .select('mall_watches.user_id')
        .where('mall_items.product_no', '=', productNo)
        .where('mall_watches.user_id', '=', userId)
        .executeTakeFirst(),
      this.db
        .selectFrom('orders')
        .innerJoin('mall_items', 'mall_items.id', 'orders.mall_item_id')
        // PostgreSQL sums integers as bigint, which arrives as a string.
        .select((eb) => eb.fn.sum<number | string | null>('orders.quantity').as('n'))
        .where('mall_items.product_no', '=', productNo)
        .where('orders.user_id', '=', userId)
        .where('orders.kind', '=', 'mall')
        .where('orders.status', '!=', 'cancelled')
        .executeTakeFirst(),
    ])
    return { watched: watch !== undefined, bought: Number(bought?.n ?? 0) }
  }
}
