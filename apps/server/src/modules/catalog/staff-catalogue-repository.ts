import type { StaffSpecialsQuery } from '@numisma/contracts/staff-catalogue'
import { type Kysely, sql, type Updateable } from 'kysely'
import type { Dialect } from '../../platform/db'
import type { DB, LotsTable, SpecialsTable } from '../../platform/schema'
import type { Tx } from '../../platform/transactions'
import { staggeredEnd } from '@numisma/domain/soft-close'
import type { LotRow, SpecialRow } from './repository'

/** A special with its lots' totals. */
export interface SpecialWithTotals extends SpecialRow {
  lot_count: number
  bid_count: number
  /** The last lot's end, or the special's own end when it has no lots. */
  over_at: number
}

type TotalsRow = SpecialRow & {
  lot_count: number | string | null
  bid_count: number | string | null
  last_ends_at: number | string | null
}

const withTotals = (row: TotalsRow): SpecialWithTotals => ({
  ...row,
  lot_count: Number(row.lot_count ?? 0),
  bid_count: Number(row.bid_count ?? 0),
  over_at: Math.max(row.ends_at, Number(row.last_ends_at ?? 0)),
})

const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`)

/** The console's reads and edits of specials and lots (all SQL of the catalogue area). */
export class StaffCatalogueRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  private specialsWithTotals(db: Tx) {
    const totals = db
      .selectFrom('lots')
      .select((eb) => [
        'special_id',
        eb.fn.countAll<number | string>().as('lot_count'),
        eb.fn.sum<number | string>('bid_count').as('bid_count'),
        eb.fn.max<number | string | null>('ends_at').as('last_ends_at'),
      ])
      .groupBy('special_id')
      .as('t')
    return db
      .selectFrom('specials as s')
      .leftJoin(totals, 't.special_id', 's.id')
      .selectAll('s')
      .select(['t.lot_count', 't.bid_count', 't.last_ends_at'])
  }

  /** A page of specials, newest start first, filtered by status at `now` and part of the title. */
  async listSpecials(
    query: StaffSpecialsQuery,
    now: number,
  ): Promise<{ rows: SpecialWithTotals[]; total: number }> {
    let base = this.specialsWithTotals(this.db)
    // The special is over once its last lot is (lots close one after another).
    const overAt = sql<number>`coalesce(case when t.last_ends_at > s.ends_at then t.last_ends_at else s.ends_at end, s.ends_at)`
    if (query.status === 'preview') base = base.where('s.starts_at', '>', now)
    if (query.status === 'live') base = base.where('s.starts_at', '<=', now).where(overAt, '>', now)
    if (query.status === 'ended') base = base.where(overAt, '<=', now)
    if (query.keyword) {
      // `%`, `_` and `\` typed in the search box are letters; case is ignored on both databases.
      const pattern = `%${escapeLike(query.keyword.toLowerCase())}%`
      base = base.where(sql<boolean>`lower(${sql.ref('s.title')}) like ${pattern} escape '\\'`)
    }
    const [rows, count] = await Promise.all([
      base
        .orderBy('s.starts_at', 'desc')
        .orderBy('s.id', 'desc')
        .limit(query.pageSize)
        .offset((query.page - 1) * query.pageSize)
        .execute(),
      this.db
        .selectFrom(base.as('b'))
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow(),
    ])
    return { rows: rows.map(withTotals), total: Number(count.n) }
  }

  async findSpecial(id: number, tx: Tx = this.db): Promise<SpecialWithTotals | undefined> {
    const row = await this.specialsWithTotals(tx).where('s.id', '=', id).executeTakeFirst()
    return row ? withTotals(row) : undefined
  }

  lotsOfSpecial(specialId: number, tx: Tx = this.db): Promise<LotRow[]> {
    return tx
      .selectFrom('lots')
      .selectAll()
      .where('special_id', '=', specialId)
      .orderBy('lot_no')
      .execute()
  }

  /** The lot, locked until the transaction ends (bids take the same lock; SQLite's write lock). */
  lockLot(tx: Tx, id: number): Promise<LotRow | undefined> {
    let query = tx.selectFrom('lots').selectAll().where('id', '=', id)
    if (this.dialect === 'postgres') query = query.forUpdate()
    return query.executeTakeFirst()
  }

  async updateSpecial(tx: Tx, id: number, row: Updateable<SpecialsTable>): Promise<void> {
    await tx.updateTable('specials').set(row).where('id', '=', id).execute()
  }

  /** Every lot of the special starts with it and ends on its staggered place (DESIGN §4). */
  async retimeLots(
    tx: Tx,
    specialId: number,
    special: { startsAt: number; endsAt: number; staggerSeconds: number },
  ): Promise<void> {
    await tx
      .updateTable('lots')
      .set({
        starts_at: special.startsAt,
        // Literals: integers of ours, and PostgreSQL cannot type a bare parameter in arithmetic.
        ends_at: sql<number>`${sql.lit(special.endsAt)} + (lot_no - 1) * ${sql.lit(special.staggerSeconds * 1000)}`,
      })
      .where('special_id', '=', specialId)
      .execute()
  }

  async updateLot(tx: Tx, id: number, row: Updateable<LotsTable>): Promise<void> {
    await tx.updateTable('lots').set(row).where('id', '=', id).execute()
  }

  /**
   * Removes a lot that never took a bid, with the watches and reminders collectors had on it (a
   * withdrawn lot is nothing to watch).
   */
  async deleteLot(tx: Tx, id: number): Promise<void> {
    await tx.deleteFrom('lot_reminders').where('lot_id', '=', id).execute()
    await tx.deleteFrom('watches').where('lot_id', '=', id).execute()
    await tx.deleteFrom('lots').where('id', '=', id).execute()
  }

  /**
   * Closes the gap a withdrawn lot left: the lots after it move one number up, each ending on its
   * new staggered place. One at a time in order, so the (special, lot number) key is never shared.
   */
  async closeGap(
    tx: Tx,
    specialId: number,
    afterLotNo: number,
    special: { endsAt: number; staggerSeconds: number },
  ): Promise<void> {
    const later = await tx
      .selectFrom('lots')
      .select(['id', 'lot_no'])
      .where('special_id', '=', specialId)
      .where('lot_no', '>', afterLotNo)
      .orderBy('lot_no')
      .execute()
    for (const lot of later) {
      const lotNo = lot.lot_no - 1
      await tx
        .updateTable('lots')
        .set({
          lot_no: lotNo,
          ends_at: staggeredEnd(special.endsAt, lotNo, special.staggerSeconds),
        })
        .where('id', '=', lot.id)
        .execute()
    }
  }

  listCategories() {
    return this.db.selectFrom('categories').select(['id', 'name', 'name_en']).execute()
  }
}
