import type { Kysely } from 'kysely'
import type { MigrationContext } from './index'

/** Identity, sessions, SMS codes, replay nonces and staff: what sign-in and signing need. */
export function foundation({ id, time }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute()

      await id(db.schema.createTable('users'))
        .addColumn('mobile', 'text', (c) => c.notNull().unique())
        .addColumn('display', 'text', (c) => c.notNull())
        .addColumn('avatar', 'text')
        .addColumn('created_at', time, (c) => c.notNull())
        .execute()

      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('sid_hash', 'text', (c) => c.notNull())
        .addColumn('device_id', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('expires_at', time, (c) => c.notNull())
        .addColumn('revoked_at', time)
        .execute()
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute()

      await id(db.schema.createTable('sms_codes'))
        .addColumn('mobile', 'text', (c) => c.notNull())
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('expires_at', time, (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('consumed_at', time)
        .execute()
      await db.schema
        .createIndex('sms_codes_mobile')
        .on('sms_codes')
        .columns(['mobile', 'created_at'])
        .execute()

      await db.schema
        .createTable('request_nonces')
        .addColumn('nonce', 'text', (c) => c.primaryKey())
        .addColumn('expires_at', time, (c) => c.notNull())
        .execute()
      await db.schema
        .createIndex('request_nonces_expiry')
        .on('request_nonces')
        .column('expires_at')
        .execute()

      await id(db.schema.createTable('staff_users'))
        .addColumn('username', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .execute()

      await db.schema
        .createTable('staff_sessions')
        .addColumn('sid_hash', 'text', (c) => c.primaryKey())
        .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff_users.id'))
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('expires_at', time, (c) => c.notNull())
        .execute()
    },
  }
}
