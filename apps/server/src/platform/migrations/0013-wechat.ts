import type { Kysely } from 'kysely'
import type { MigrationContext } from './index'

/**
 * The messaging platform (issue 11, DESIGN §7, ADR 017): which of its users (an open id, per
 * official account) is which of ours, the short-lived tokens a first-time open id binds a mobile
 * number with, the OAuth codes already exchanged (each exactly once, across instances), and the
 * platform's server-wide credentials (access token, JS-SDK ticket) shared by every instance.
 */
export function wechat({ id, time }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await id(db.schema.createTable('wechat_links'))
        .addColumn('app_id', 'text', (c) => c.notNull())
        .addColumn('openid', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('unionid', 'text')
        .addColumn('nickname', 'text', (c) => c.notNull())
        .addColumn('avatar', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        // One account per open id, and one open id per account and official account.
        .addUniqueConstraint('wechat_links_openid', ['app_id', 'openid'])
        .addUniqueConstraint('wechat_links_user', ['app_id', 'user_id'])
        .execute()

      await db.schema
        .createTable('wechat_bind_tokens')
        // SHA-256 of the token: the database never holds one that would bind.
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('app_id', 'text', (c) => c.notNull())
        .addColumn('openid', 'text', (c) => c.notNull())
        .addColumn('unionid', 'text')
        .addColumn('nickname', 'text', (c) => c.notNull())
        .addColumn('avatar', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('expires_at', time, (c) => c.notNull())
        .addColumn('used_at', time)
        .execute()
      await db.schema
        .createIndex('wechat_bind_tokens_expiry')
        .on('wechat_bind_tokens')
        .column('expires_at')
        .execute()

      // A code claimed here is never sent to the platform again, by any instance.
      await db.schema
        .createTable('wechat_oauth_codes')
        .addColumn('app_id', 'text', (c) => c.notNull())
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('claimed_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('wechat_oauth_codes_pk', ['app_id', 'code_hash'])
        .execute()
      await db.schema
        .createIndex('wechat_oauth_codes_claimed')
        .on('wechat_oauth_codes')
        .column('claimed_at')
        .execute()

      // 'mp.access_token', 'mp.jsapi_ticket': one value for all instances; `lease_until` is the
      // refresh lock (the instance that set it fetches, the others wait for the new value).
      await db.schema
        .createTable('platform_tokens')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('expires_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .addColumn('lease_until', time, (c) => c.notNull().defaultTo(0))
        .execute()
    },

    // Indexes go with their tables.
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('platform_tokens').execute()
      await db.schema.dropTable('wechat_oauth_codes').execute()
      await db.schema.dropTable('wechat_bind_tokens').execute()
      await db.schema.dropTable('wechat_links').execute()
    },
  }
}
