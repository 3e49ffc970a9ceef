import type { Kysely } from 'kysely'
import type { MigrationContext } from './index'

/**
 * Ending-soon reminders (DESIGN §4): `reminded_at` records that a watcher was reminded of a lot,
 * so the reminder goes out once per user and lot whatever the instances and soft-close extensions.
 * The index serves the reminder job: the watchers of the few lots about to end, not yet reminded.
 */
export function watchReminders({ time }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('watches').addColumn('reminded_at', time).execute()
      await db.schema
        .createIndex('watches_lot_reminded')
        .on('watches')
        .columns(['lot_id', 'reminded_at'])
        .execute()
    },
  }
}
