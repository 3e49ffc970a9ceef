import { type Kysely, sql } from 'kysely'
import type { MigrationContext } from './index'

/**
 * Shipping addresses (issue 10, ADR 014). Deleted rows go for good: a shipment copies the address
 * it ships to, so nothing refers to an address row after the fact. One default per user is kept by
 * the service under a lock on the user's row; the partial unique index is the backstop.
 */
export function addresses({ id, time }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await id(db.schema.createTable('addresses'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('mobile', 'text', (c) => c.notNull())
        // ISO 3166-1 alpha-2, e.g. CN.
        .addColumn('country_id', 'text', (c) => c.notNull())
        // GB/T 2260 codes with the names they had when the address was saved (codes can retire).
        .addColumn('province_id', 'text')
        .addColumn('province_name', 'text')
        .addColumn('city_id', 'text')
        .addColumn('city_name', 'text')
        .addColumn('detail', 'text', (c) => c.notNull())
        .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .execute()
      await db.schema
        .createIndex('addresses_user')
        .on('addresses')
        .columns(['user_id', 'id'])
        .execute()
      await db.schema
        .createIndex('addresses_one_default')
        .on('addresses')
        .column('user_id')
        .unique()
        // A literal, not a parameter: PostgreSQL takes none in CREATE INDEX.
        .where(sql<boolean>`is_default = 1`)
        .execute()
    },
  }
}
