import { DEFAULT_PRICE_STEPS } from '@numisma/domain/increments'
import type { CreateTableBuilder, Kysely } from 'kysely'
import type { MigrationContext } from './index'

/** The descriptive columns lots and mall items share (the facts a collector reads). */
function itemColumns<T extends string, C extends string>(table: CreateTableBuilder<T, C>) {
  return table
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('subtitle', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('images', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('grade_code', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('grading_service', 'text')
    .addColumn('cert_no', 'text')
    .addColumn('year', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('denomination', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('material', 'text', (c) => c.notNull().defaultTo(''))
}

/**
 * The catalogue: categories, the mall category tree, banners, specials, lots (with their bid
 * history) and mall items, and the increment table as data.
 */
export function catalog({ id, time }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await id(db.schema.createTable('categories'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_en', 'text', (c) => c.notNull())
        .addColumn('icon', 'text', (c) => c.notNull())
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .execute()

      await id(db.schema.createTable('mall_categories'))
        .addColumn('parent_id', 'integer', (c) => c.references('mall_categories.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .execute()

      await id(db.schema.createTable('banners'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('image', 'text', (c) => c.notNull())
        .addColumn('link', 'text', (c) => c.notNull())
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('active_from', time, (c) => c.notNull())
        .addColumn('active_until', time)
        .execute()

      await id(db.schema.createTable('specials'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('subtitle', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('cover', 'text', (c) => c.notNull())
        .addColumn('starts_at', time, (c) => c.notNull())
        .addColumn('ends_at', time, (c) => c.notNull())
        .addColumn('stagger_seconds', 'integer', (c) => c.notNull().defaultTo(30))
        .addColumn('soft_close_window_seconds', 'integer', (c) => c.notNull().defaultTo(300))
        .addColumn('soft_close_extend_seconds', 'integer', (c) => c.notNull().defaultTo(300))
        .addColumn('created_at', time, (c) => c.notNull())
        .execute()
      await db.schema.createIndex('specials_ends').on('specials').column('ends_at').execute()

      const lots = id(db.schema.createTable('lots'))
        .addColumn('special_id', 'integer', (c) => c.notNull().references('specials.id'))
        .addColumn('lot_no', 'integer', (c) => c.notNull())
        .addColumn('category_id', 'integer', (c) => c.references('categories.id'))
      await itemColumns(lots)
        .addColumn('start_price', time, (c) => c.notNull())
        .addColumn('reserve_price', time)
        .addColumn('starts_at', time, (c) => c.notNull())
        .addColumn('ends_at', time, (c) => c.notNull())
        .addColumn('export_banned', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
        .addColumn('price', time)
        .addColumn('bid_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('leader_id', 'integer', (c) => c.references('users.id'))
        .addColumn('created_at', time, (c) => c.notNull())
        .execute()
      await db.schema
        .createIndex('lots_special')
        .on('lots')
        .columns(['special_id', 'lot_no'])
        .unique()
        .execute()
      await db.schema.createIndex('lots_ends').on('lots').columns(['status', 'ends_at']).execute()

      await id(db.schema.createTable('bids'))
        .addColumn('lot_id', 'integer', (c) => c.notNull().references('lots.id'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('amount', time, (c) => c.notNull())
        .addColumn('auto', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', time, (c) => c.notNull())
        .execute()
      await db.schema.createIndex('bids_lot').on('bids').columns(['lot_id', 'id']).execute()

      await db.schema
        .createTable('price_steps')
        .addColumn('from_amount', time, (c) => c.primaryKey())
        .addColumn('step', time, (c) => c.notNull())
        .execute()
      await (db as Kysely<{ price_steps: { from_amount: number; step: number } }>)
        .insertInto('price_steps')
        .values(DEFAULT_PRICE_STEPS.map((s) => ({ from_amount: s.from, step: s.step })))
        .execute()

      const mallItems = id(db.schema.createTable('mall_items'))
        .addColumn('product_no', 'text', (c) => c.notNull().unique())
        .addColumn('category_id', 'integer', (c) => c.references('mall_categories.id'))
      await itemColumns(mallItems)
        .addColumn('price', time, (c) => c.notNull())
        .addColumn('stock', 'integer', (c) => c.notNull())
        .addColumn('sold', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('limit_per_user', 'integer')
        .addColumn('on_sale', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('export_banned', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', time, (c) => c.notNull())
        .execute()
    },
  }
}
