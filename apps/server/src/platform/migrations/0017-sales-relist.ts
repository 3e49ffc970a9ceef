import type { Kysely } from 'kysely'
import type { MigrationContext } from './index'

/**
 * Issue 12 · the console's sales area: a lot that did not sell (or whose winner forfeited) is
 * relisted once, as a new lot in a later special. One row per relisted lot; its primary key is
 * what makes a second relist impossible, whatever the race.
 */
export function salesRelist({ time }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('lot_relists')
        .addColumn('lot_id', 'integer', (c) => c.primaryKey().references('lots.id'))
        .addColumn('new_lot_id', 'integer', (c) => c.notNull().unique().references('lots.id'))
        .addColumn('special_id', 'integer', (c) => c.notNull().references('specials.id'))
        .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff_users.id'))
        .addColumn('created_at', time, (c) => c.notNull())
        .execute()
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('lot_relists').execute()
    },
  }
}
