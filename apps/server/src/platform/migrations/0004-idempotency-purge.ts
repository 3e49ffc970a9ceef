import type { Kysely, Migration } from 'kysely'
import type { MigrationContext } from './index'

/** Idempotency keys are purged by age (DESIGN §2: kept 24 h); the purge reads by `created_at`. */
export function idempotencyPurge(_ctx: MigrationContext): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('idempotency_keys_created')
        .on('idempotency_keys')
        .column('created_at')
        .execute()
    },
  }
}
