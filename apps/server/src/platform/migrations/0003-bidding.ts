import { type Kysely, sql } from 'kysely'
import type { MigrationContext } from './index'

/**
 * Bidding: proxy maxima, the ledger (a user's deposit is an account; 0006 renames its kind),
 * auction orders, watches and the idempotency store for money- and bid-changing calls.
 */
export function bidding({ id, time }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('lots')
        .addColumn('leader_since', time, (c) => c.notNull().defaultTo(0))
        .execute()
      await db.schema.createIndex('sessions_sid').on('sessions').column('sid_hash').execute()
      await db.schema
        .createIndex('lots_leader')
        .on('lots')
        .columns(['leader_id', 'status'])
        .execute()

      await db.schema
        .createTable('proxies')
        .addColumn('lot_id', 'integer', (c) => c.notNull().references('lots.id'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('max_amount', time, (c) => c.notNull())
        .addColumn('since', time, (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull())
        .addColumn('cancelled_at', time)
        .addColumn('updated_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('proxies_pk', ['lot_id', 'user_id'])
        .execute()
      await db.schema
        .createIndex('proxies_user')
        .on('proxies')
        .columns(['user_id', 'active'])
        .execute()
      await db.schema.createIndex('bids_user').on('bids').columns(['user_id', 'lot_id']).execute()

      await id(db.schema.createTable('ledger_accounts'))
        // 0 for the platform's own accounts (revenue, clearing, fees).
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('balance', time, (c) => c.notNull().defaultTo(0))
        .addUniqueConstraint('ledger_accounts_owner', ['user_id', 'kind'])
        // The ledger's own rule, kept by the database too: no user account goes negative.
        .addCheckConstraint('ledger_user_not_negative', sql`user_id = 0 or balance >= 0`)
        .execute()
      await id(db.schema.createTable('ledger_transfers'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('memo', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', time, (c) => c.notNull())
        .execute()
      await id(db.schema.createTable('ledger_postings'))
        .addColumn('transfer_id', 'integer', (c) => c.notNull().references('ledger_transfers.id'))
        .addColumn('account_id', 'integer', (c) => c.notNull().references('ledger_accounts.id'))
        .addColumn('amount', time, (c) => c.notNull())
        .execute()
      await db.schema
        .createIndex('ledger_postings_account')
        .on('ledger_postings')
        .column('account_id')
        .execute()

      await id(db.schema.createTable('orders'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('lot_id', 'integer', (c) => c.references('lots.id').unique())
        .addColumn('mall_item_id', 'integer', (c) => c.references('mall_items.id'))
        .addColumn('quantity', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('amount', time, (c) => c.notNull())
        .addColumn('fee', time, (c) => c.notNull())
        .addColumn('total', time, (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('due_at', time)
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('paid_at', time)
        .execute()
      await db.schema
        .createIndex('orders_user')
        .on('orders')
        .columns(['user_id', 'status'])
        .execute()

      await db.schema
        .createTable('watches')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('lot_id', 'integer', (c) => c.notNull().references('lots.id'))
        .addColumn('created_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('watches_pk', ['user_id', 'lot_id'])
        .execute()

      await db.schema
        .createTable('idempotency_keys')
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'key'])
        .execute()
    },
  }
}
