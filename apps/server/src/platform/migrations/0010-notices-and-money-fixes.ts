import { type Kysely, sql } from 'kysely'
import type { MigrationContext } from './index'

/**
 * The user's notices (DESIGN §4: reminders "land in their notices"; the user centre counts the
 * unread ones), and what the money review found missing: when a prepay id was issued (the platform
 * lets one lapse after two hours, so a later pay request needs a fresh one), and what staff
 * actually received for a remittance notice (it may differ from what the payer announced).
 */
export function noticesAndMoneyFixes({ id, time }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await id(db.schema.createTable('notices'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        // What happened, e.g. 'outbid', 'ending_soon', 'lot_won', 'remittance_confirmed'.
        .addColumn('kind', 'text', (c) => c.notNull())
        // JSON object of the facts the web app renders the notice from in the reader's language.
        .addColumn('params', 'text', (c) => c.notNull().defaultTo('{}'))
        // An in-app path the notice opens, e.g. /productDetail?id=12.
        .addColumn('link', 'text')
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('read_at', time)
        .execute()
      await db.schema.createIndex('notices_user').on('notices').columns(['user_id', 'id']).execute()
      // The user centre counts unread notices on every visit.
      await db.schema
        .createIndex('notices_unread')
        .on('notices')
        .column('user_id')
        .where(sql.ref('read_at'), 'is', null)
        .execute()

      await db.schema.alterTable('payments').addColumn('prepay_at', time).execute()
      await db.schema.alterTable('recharges').addColumn('prepay_at', time).execute()
      await db.schema.alterTable('remittances').addColumn('amount_received', time).execute()
    },
  }
}
