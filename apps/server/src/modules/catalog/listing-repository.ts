import { type Insertable, sql } from 'kysely'
import type { Dialect } from '../../platform/db'
import type { LotsTable, MallItemsTable, SpecialsTable } from '../../platform/schema'
import type { Tx } from '../../platform/transactions'
import type { SpecialRow } from './repository'

/**
 * The SQL of putting things up for sale (operators' specials, lots and mall items). Every method
 * runs in the caller's write transaction, so a number is read and used under one lock.
 */
export class ListingRepository {
  constructor(private readonly dialect: Dialect) {}

  async insertSpecial(tx: Tx, row: Insertable<SpecialsTable>): Promise<number> {
    const { id } = await tx
      .insertInto('specials')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow()
    return id
  }

  /**
   * The special, locked until the transaction ends, so lots of one special are numbered one at a
   * time: on PostgreSQL by this row lock; on SQLite the write transaction (BEGIN IMMEDIATE) already
   * holds the database's single write lock.
   */
  lockSpecial(tx: Tx, id: number): Promise<SpecialRow | undefined> {
    let query = tx.selectFrom('specials').selectAll().where('id', '=', id)
    if (this.dialect === 'postgres') query = query.forUpdate()
    return query.executeTakeFirst()
  }

  /** The highest lot number in the special, 0 when it has none. */
  async lastLotNo(tx: Tx, specialId: number): Promise<number> {
    const row = await tx
      .selectFrom('lots')
      .select((eb) => eb.fn.max<number | string | null>('lot_no').as('n'))
      .where('special_id', '=', specialId)
      .executeTakeFirst()
    return Number(row?.n ?? 0)
  }

  /**
   * Whether an auction category (`categories`) or a mall category (`mall_categories`) exists, so a
   * listing filed under a missing one is refused by name rather than by the foreign key. On
   * PostgreSQL the row stays locked (FOR KEY SHARE, what the foreign key itself takes) until the
   * transaction ends: a concurrent deletion waits and then counts this listing (CATEGORY_IN_USE),
   * or has already deleted it and this finds none. SQLite's write transaction is the lock there.
   */
  async categoryExists(
    tx: Tx,
    tree: 'categories' | 'mall_categories',
    id: number,
  ): Promise<boolean> {
    let query = tx.selectFrom(tree).select('id').where('id', '=', id)
    if (this.dialect === 'postgres') query = query.forKeyShare()
    return (await query.executeTakeFirst()) !== undefined
  }

  async insertLot(tx: Tx, row: Insertable<LotsTable>): Promise<number> {
    const { id } = await tx.insertInto('lots').values(row).returning('id').executeTakeFirstOrThrow()
    return id
  }

  /**
   * Takes the id the next mall item will have from the database's own counter, which never hands
   * out a number twice (not even after a rollback or a deletion): PostgreSQL's sequence, SQLite's
   * AUTOINCREMENT counter (safe to read and advance because the write transaction holds the lock).
   */
  async reserveMallItemId(tx: Tx): Promise<number> {
    if (this.dialect === 'postgres') {
      const { rows } = await sql<{
        id: number
      }>`select nextval(pg_get_serial_sequence('mall_items', 'id')) as id`.execute(tx)
      return rows[0]!.id
    }
    const { rows } = await sql<{ id: number }>`
      select max(
        coalesce((select seq from sqlite_sequence where name = 'mall_items'), 0),
        coalesce((select max(id) from mall_items), 0)
      ) + 1 as id`.execute(tx)
    return rows[0]!.id
  }

  async insertMallItem(tx: Tx, row: Insertable<MallItemsTable> & { id: number }): Promise<void> {
    await tx.insertInto('mall_items').values(row).execute()
  }
}
