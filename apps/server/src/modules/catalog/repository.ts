import type { Kysely, Selectable } from 'kysely'
import type { Insertable } from 'kysely'
import type {
  BannersTable,
  DB,
  LotsTable,
  MallItemsTable,
  SpecialsTable,
} from '../../platform/schema'

export type LotRow = Selectable<LotsTable>
export type MallItemRow = Selectable<MallItemsTable>
export type SpecialRow = Selectable<SpecialsTable>
/** A lot with the fields of its special a lot page shows. */
export type LotDetailRow = LotRow & {
  special_title: string
  soft_close_window_seconds: number
  soft_close_extend_seconds: number
}
export interface SpecialAggregate {
  special_id: number
  /** PostgreSQL returns counts and sums of bigints as strings. */
  lot_count: number | string
  bid_count: number | string
  last_ends_at: number | string | null
}

/** All catalogue SQL: categories, banners, specials, lots, mall items and bid history. */
export class CatalogRepository {
  /** Public: the read caches key this database's staff edits by it (platform/read-cache.ts). */
  constructor(readonly db: Kysely<DB>) {}

  listCategories() {
    return this.db.selectFrom('categories').selectAll().orderBy('sort').orderBy('id').execute()
  }

  listMallCategories() {
    return this.db.selectFrom('mall_categories').selectAll().orderBy('sort').orderBy('id').execute()
  }

  listBanners(position: number, now: number) {
    return this.db
      .selectFrom('banners')
      .select(['id', 'title', 'title_en', 'image', 'link'])
      .where('position', '=', position)
      .where('active_from', '<=', now)
      .where((eb) => eb.or([eb('active_until', 'is', null), eb('active_until', '>', now)]))
      .orderBy('sort')
      .orderBy('id')
      .execute()
  }

  /** Specials not yet over (or over within `graceMs`), soonest-ending live ones first. */
  listCurrentSpecials(now: number, graceMs: number): Promise<SpecialRow[]> {
    return this.db
      .selectFrom('specials')
      .selectAll()
      .where('ends_at', '>', now - graceMs)
      .orderBy('starts_at')
      .orderBy('ends_at')
      .orderBy('id')
      .execute()
  }

  findSpecial(id: number): Promise<SpecialRow | undefined> {
    return this.db.selectFrom('specials').selectAll().where('id', '=', id).executeTakeFirst()
  }

  async specialAggregates(ids: number[]): Promise<SpecialAggregate[]> {
    if (ids.length === 0) return []
    return this.db
      .selectFrom('lots')
      .select((eb) => [
        'special_id',
        eb.fn.countAll<number | string>().as('lot_count'),
        eb.fn.coalesce(eb.fn.sum<number | string>('bid_count'), eb.lit(0)).as('bid_count'),
        eb.fn.max<number | string | null>('ends_at').as('last_ends_at'),
      ])
      .where('special_id', 'in', ids)
      .groupBy('special_id')
      .execute()
  }

  /** The first `perSpecial` lots' image lists of each special, for preview strips. */
  async previewImages(ids: number[], perSpecial: number) {
    if (ids.length === 0) return []
    return this.db
      .selectFrom('lots')
      .select(['special_id', 'images'])
      .where('special_id', 'in', ids)
      .where('lot_no', '<=', perSpecial)
      .orderBy('special_id')
      .orderBy('lot_no')
      .execute()
  }

  lotsOfSpecial(specialId: number): Promise<LotRow[]> {
    return this.db
      .selectFrom('lots')
      .selectAll()
      .where('special_id', '=', specialId)
      .orderBy('lot_no')
      .execute()
  }

  findLot(id: number): Promise<LotDetailRow | undefined> {
    return this.db
      .selectFrom('lots')
      .innerJoin('specials', 'specials.id', 'lots.special_id')
      .selectAll('lots')
      .select([
        'specials.title as special_title',
        'specials.soft_close_window_seconds',
        'specials.soft_close_extend_seconds',
      ])
      .where('lots.id', '=', id)
      .executeTakeFirst()
  }

  findMallItem(productNo: string): Promise<MallItemRow | undefined> {
    return this.db
      .selectFrom('mall_items')
      .selectAll()
      .where('product_no', '=', productNo)
      .executeTakeFirst()
  }

  /** Every lot and mall item, for the search index (a few thousand rows at most here). */
  allLots(): Promise<LotRow[]> {
    return this.db.selectFrom('lots').selectAll().execute()
  }

  allMallItems(): Promise<MallItemRow[]> {
    return this.db.selectFrom('mall_items').selectAll().execute()
  }

  // Writers (demo seed now; the operator API later).

  async insertCategory(row: { name: string; name_en: string; icon: string; sort: number }) {
    const { id } = await this.db
      .insertInto('categories')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow()
    return id
  }

  async insertMallCategory(row: {
    parent_id: number | null
    name: string
    name_en: string
    sort: number
  }) {
    const { id } = await this.db
      .insertInto('mall_categories')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow()
    return id
  }

  async insertBanner(row: Insertable<BannersTable>): Promise<void> {
    await this.db.insertInto('banners').values(row).execute()
  }

  async insertSpecial(row: Insertable<SpecialsTable>): Promise<number> {
    const { id } = await this.db
      .insertInto('specials')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow()
    return id
  }

  async insertLots(rows: Insertable<LotsTable>[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 50) {
      await this.db
        .insertInto('lots')
        .values(rows.slice(i, i + 50))
        .execute()
    }
  }

  async insertMallItems(rows: Insertable<MallItemsTable>[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 50) {
      await this.db
        .insertInto('mall_items')
        .values(rows.slice(i, i + 50))
        .execute()
    }
  }

  /** Live lots ending within `withinMs` (the demo roller keeps this from running dry). */
  async countLotsEndingWithin(now: number, withinMs: number): Promise<number> {
    const row = await this.db
      .selectFrom('lots')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('status', '=', 'open')
      .where('starts_at', '<=', now)
      .where('ends_at', '>', now)
      .where('ends_at', '<=', now + withinMs)
      .executeTakeFirstOrThrow()
    return Number(row.n)
  }

  async categoryIds(): Promise<number[]> {
    const rows = await this.db.selectFrom('categories').select('id').orderBy('sort').execute()
    return rows.map((r) => r.id)
  }

  /** No users, specials or mall items yet: a fresh database the demo may fill. */
  async isEmpty(): Promise<boolean> {
    const [user, special, item] = await Promise.all([
      this.db.selectFrom('users').select('id').limit(1).executeTakeFirst(),
      this.db.selectFrom('specials').select('id').limit(1).executeTakeFirst(),
      this.db.selectFrom('mall_items').select('id').limit(1).executeTakeFirst(),
    ])
    return !user && !special && !item
  }
}
