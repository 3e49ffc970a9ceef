import type { Insertable, Kysely, Selectable, Updateable } from 'kysely'
import type { Dialect } from '../../platform/db'
import type { BannersTable, CategoriesTable, DB, MallCategoriesTable } from '../../platform/schema'
import type { Tx } from '../../platform/transactions'

export type CategoryRow = Selectable<CategoriesTable> & { lots: number | string }
export type MallCategoryRow = Selectable<MallCategoriesTable> & { items: number | string }
export type BannerRow = Selectable<BannersTable>

/**
 * The SQL of the shop's catalogue settings: auction and mall categories, home banners. Writers run
 * in the caller's write transaction (on SQLite it holds the single write lock; on PostgreSQL the
 * rows they change are locked first), so an order is read and written under one lock.
 */
export class SettingsRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  // Auction categories.

  categories(tx: Tx = this.db): Promise<CategoryRow[]> {
    return tx
      .selectFrom('categories')
      .selectAll('categories')
      .select((eb) =>
        eb
          .selectFrom('lots')
          .select(eb.fn.countAll<number | string>().as('n'))
          .whereRef('lots.category_id', '=', 'categories.id')
          .as('lots'),
      )
      .orderBy('sort')
      .orderBy('id')
      .execute() as Promise<CategoryRow[]>
  }

  async lockCategories(tx: Tx): Promise<void> {
    if (this.dialect === 'postgres')
      await tx.selectFrom('categories').select('id').forUpdate().execute()
  }

  async insertCategory(tx: Tx, row: Insertable<CategoriesTable>): Promise<number> {
    const { id } = await tx
      .insertInto('categories')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow()
    return id
  }

  async updateCategory(tx: Tx, id: number, row: Updateable<CategoriesTable>): Promise<void> {
    await tx.updateTable('categories').set(row).where('id', '=', id).execute()
  }

  /** The row, locked (a lot filed under it meanwhile waits for its foreign-key check). */
  async lockCategory(tx: Tx, id: number): Promise<CategoryRow | undefined> {
    let query = tx.selectFrom('categories').selectAll().where('id', '=', id)
    if (this.dialect === 'postgres') query = query.forUpdate()
    const row = await query.executeTakeFirst()
    if (!row) return undefined
    const used = await tx
      .selectFrom('lots')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('category_id', '=', id)
      .executeTakeFirstOrThrow()
    return { ...row, lots: used.n }
  }

  async deleteCategory(tx: Tx, id: number): Promise<void> {
    await tx.deleteFrom('categories').where('id', '=', id).execute()
  }

  // Mall categories.

  mallCategories(tx: Tx = this.db): Promise<MallCategoryRow[]> {
    return tx
      .selectFrom('mall_categories')
      .selectAll('mall_categories')
      .select((eb) =>
        eb
          .selectFrom('mall_items')
          .select(eb.fn.countAll<number | string>().as('n'))
          .whereRef('mall_items.category_id', '=', 'mall_categories.id')
          .as('items'),
      )
      .orderBy('sort')
      .orderBy('id')
      .execute() as Promise<MallCategoryRow[]>
  }

  async lockMallCategories(tx: Tx): Promise<void> {
    if (this.dialect === 'postgres')
      await tx.selectFrom('mall_categories').select('id').forUpdate().execute()
  }

  async insertMallCategory(tx: Tx, row: Insertable<MallCategoriesTable>): Promise<number> {
    const { id } = await tx
      .insertInto('mall_categories')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow()
    return id
  }

  async updateMallCategory(
    tx: Tx,
    id: number,
    row: Updateable<MallCategoriesTable>,
  ): Promise<void> {
    await tx.updateTable('mall_categories').set(row).where('id', '=', id).execute()
  }

  /** The row, locked, with its items and sub-categories counted under the lock. */
  async lockMallCategory(
    tx: Tx,
    id: number,
  ): Promise<(MallCategoryRow & { children: number | string }) | undefined> {
    let query = tx.selectFrom('mall_categories').selectAll().where('id', '=', id)
    if (this.dialect === 'postgres') query = query.forUpdate()
    const row = await query.executeTakeFirst()
    if (!row) return undefined
    const count = (table: 'mall_items' | 'mall_categories', column: 'category_id' | 'parent_id') =>
      tx
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where(column, '=', id)
        .executeTakeFirstOrThrow()
    const items = await count('mall_items', 'category_id')
    const children = await count('mall_categories', 'parent_id')
    return { ...row, items: items.n, children: children.n }
  }

  async deleteMallCategory(tx: Tx, id: number): Promise<void> {
    await tx.deleteFrom('mall_categories').where('id', '=', id).execute()
  }

  /** The category lists of every coupon (JSON arrays), to find the coupons that name one. */
  async couponCategoryLists(tx: Tx): Promise<{ id: number; category_ids: string }[]> {
    return tx.selectFrom('coupons').select(['id', 'category_ids']).execute()
  }

  // Banners.

  banners(tx: Tx = this.db): Promise<BannerRow[]> {
    return tx
      .selectFrom('banners')
      .selectAll()
      .orderBy('position')
      .orderBy('sort')
      .orderBy('id')
      .execute()
  }

  findBanner(tx: Tx, id: number): Promise<BannerRow | undefined> {
    let query = tx.selectFrom('banners').selectAll().where('id', '=', id)
    if (this.dialect === 'postgres') query = query.forUpdate()
    return query.executeTakeFirst()
  }

  async insertBanner(tx: Tx, row: Insertable<BannersTable>): Promise<number> {
    const { id } = await tx
      .insertInto('banners')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow()
    return id
  }

  async updateBanner(tx: Tx, id: number, row: Updateable<BannersTable>): Promise<void> {
    await tx.updateTable('banners').set(row).where('id', '=', id).execute()
  }

  async deleteBanner(tx: Tx, id: number): Promise<void> {
    await tx.deleteFrom('banners').where('id', '=', id).execute()
  }
}
