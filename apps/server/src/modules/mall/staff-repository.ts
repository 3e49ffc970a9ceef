import {
  type Expression,
  type ExpressionBuilder,
  type Selectable,
  type SqlBool,
  sql,
  type Updateable,
} from 'kysely'
import type { Dialect } from '../../platform/db'
import type { DB, MallItemsTable } from '../../platform/schema'
import type { Tx } from '../../platform/transactions'

export type StaffMallItemRow = Selectable<MallItemsTable> & {
  category_name: string | null
  reserved: number
}

export interface MallItemFilter {
  keyword?: string
  onSale?: boolean
  offset: number
  limit: number
}

/** `%` and `_` typed in a search box are letters, not wildcards. */
const likePattern = (text: string): string =>
  `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** The SQL of staff's mall-item settings: the list, edits, stock adjustments, on/off sale. */
export class StaffMallRepository {
  constructor(private readonly dialect: Dialect) {}

  private items(tx: Tx) {
    return (
      tx
        .selectFrom('mall_items')
        .leftJoin('mall_categories', 'mall_categories.id', 'mall_items.category_id')
        .selectAll('mall_items')
        .select('mall_categories.name as category_name')
        // Units in unpaid mall orders; cast so PostgreSQL returns int8 (a number), not numeric.
        .select((eb) =>
          sql<number>`cast(coalesce(${eb
            .selectFrom('orders')
            .select(sql`sum(${sql.ref('orders.quantity')})`.as('q'))
            .whereRef('orders.mall_item_id', '=', 'mall_items.id')
            .where('orders.kind', '=', 'mall')
            .where('orders.status', '=', 'pending_payment')}, 0) as bigint)`.as('reserved'),
        )
    )
  }

  async list(tx: Tx, filter: MallItemFilter): Promise<{ rows: StaffMallItemRow[]; total: number }> {
    const matches = (eb: ExpressionBuilder<DB, 'mall_items'>) => {
      const terms: Expression<SqlBool>[] = []
      if (filter.keyword) {
        const pattern = sql`${likePattern(filter.keyword)} escape '\\'`
        terms.push(
          eb.or([
            eb(sql`lower(${sql.ref('mall_items.title')})`, 'like', pattern),
            eb(sql`lower(${sql.ref('mall_items.product_no')})`, 'like', pattern),
          ]),
        )
      }
      if (filter.onSale !== undefined)
        terms.push(eb('mall_items.on_sale', '=', filter.onSale ? 1 : 0))
      return eb.and(terms)
    }
    const rows = await this.items(tx)
      .where(matches)
      .orderBy('mall_items.id', 'desc')
      .offset(filter.offset)
      .limit(filter.limit)
      .execute()
    const count = await tx
      .selectFrom('mall_items')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where(matches)
      .executeTakeFirstOrThrow()
    return { rows, total: Number(count.n) }
  }

  find(tx: Tx, id: number): Promise<StaffMallItemRow | undefined> {
    return this.items(tx).where('mall_items.id', '=', id).executeTakeFirst()
  }

  /**
   * The item's row, locked until the transaction ends: on PostgreSQL the lock a purchase takes
   * (orders' `lockMallItem`, FOR NO KEY UPDATE), so an adjustment and a purchase apply one at a
   * time; on SQLite the write transaction already holds the database's single write lock.
   */
  async lock(tx: Tx, id: number): Promise<{ id: number; stock: number } | undefined> {
    let query = tx.selectFrom('mall_items').select(['id', 'stock']).where('id', '=', id)
    if (this.dialect === 'postgres') query = query.forNoKeyUpdate()
    return query.executeTakeFirst()
  }

  async update(tx: Tx, id: number, row: Updateable<MallItemsTable>): Promise<void> {
    await tx.updateTable('mall_items').set(row).where('id', '=', id).execute()
  }

  /** Moves the shelf by `delta`; false, and nothing changed, when it would go below zero. */
  async adjustStock(tx: Tx, id: number, delta: number): Promise<boolean> {
    const updated = await tx
      .updateTable('mall_items')
      .set((eb) => ({ stock: eb('stock', '+', delta) }))
      .where('id', '=', id)
      .where((eb) => eb(eb('stock', '+', delta), '>=', 0))
      .executeTakeFirst()
    return updated.numUpdatedRows === 1n
  }

  /**
   * Whether the mall category exists, its row locked on PostgreSQL until the transaction ends (FOR
   * KEY SHARE, as the foreign key takes it): a concurrent deletion waits and then counts the item
   * filed under it (CATEGORY_IN_USE), or has already deleted it and this finds none. SQLite's write
   * transaction is the lock there.
   */
  async mallCategoryExists(tx: Tx, id: number): Promise<boolean> {
    let query = tx.selectFrom('mall_categories').select('id').where('id', '=', id)
    if (this.dialect === 'postgres') query = query.forKeyShare()
    return (await query.executeTakeFirst()) !== undefined
  }
}
