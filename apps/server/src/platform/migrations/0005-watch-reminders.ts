import type { Kysely } from 'kysely'
import type { MigrationContext } from './index'

/**
 * Ending-soon reminders (DESIGN §4): a row in `lot_reminders` records that a user was reminded of
 * a lot, so the reminder goes out once per user and lot whatever the instances and soft-close
 * extensions. Its own table, keyed (user_id, lot_id), rather than a column on `watches`: unwatching
 * deletes the watch, and a column would go with it, so watching again in the last five minutes
 * would remind a second time. The index on `watches.lot_id` serves the reminder job, which starts
 * from the few lots about to end and looks up their watchers.
 */
export function watchReminders({ time }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('lot_reminders')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('lot_id', 'integer', (c) => c.notNull().references('lots.id'))
        .addColumn('sent_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('lot_reminders_pk', ['user_id', 'lot_id'])
        .execute()
      await db.schema.createIndex('watches_lot').on('watches').column('lot_id').execute()
    },
  }
}
