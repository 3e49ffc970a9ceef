import { type Kysely, sql } from 'kysely'
import type { MigrationContext } from './index'

/**
 * Money (DESIGN §3, §4, §6): payment passwords, payments of one or more orders, deposit recharges,
 * the company's bank accounts, bank remittance notices and withdrawals. Every movement of money
 * itself stays in the ledger (ledger_transfers / ledger_postings); these tables hold what the
 * movements are about and their state, and name the transfer that settled them.
 */
export function money({ id, time }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('pay_passwords')
        .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id'))
        // argon2id of the password with the server's pepper; never logged or returned.
        .addColumn('hash', 'text', (c) => c.notNull())
        .addColumn('failed_tries', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('locked_until', time)
        .addColumn('updated_at', time, (c) => c.notNull())
        .execute()

      await id(db.schema.createTable('payments'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        // 'balance' | 'wechat' | 'remittance'
        .addColumn('method', 'text', (c) => c.notNull())
        // 'pending' | 'paid' | 'failed'
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('amount', time, (c) => c.notNull())
        // The platform's prepay id (messaging-app pay) and its transaction id once paid.
        .addColumn('prepay_id', 'text', (c) => c.unique())
        .addColumn('transaction_id', 'text', (c) => c.unique())
        .addColumn('transfer_id', 'integer', (c) => c.references('ledger_transfers.id'))
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('paid_at', time)
        .execute()
      await db.schema
        .createIndex('payments_user')
        .on('payments')
        .columns(['user_id', 'id'])
        .execute()
      await db.schema
        .createTable('payment_orders')
        .addColumn('payment_id', 'integer', (c) => c.notNull().references('payments.id'))
        .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id'))
        .addPrimaryKeyConstraint('payment_orders_pk', ['payment_id', 'order_id'])
        .execute()
      await db.schema
        .createIndex('payment_orders_order')
        .on('payment_orders')
        .column('order_id')
        .execute()
      await db.schema
        .alterTable('orders')
        .addColumn('payment_id', 'integer', (c) => c.references('payments.id'))
        .execute()
      // The overdue job starts from unpaid auction orders past their due time.
      await db.schema
        .createIndex('orders_auction_due')
        .on('orders')
        .columns(['due_at', 'id'])
        .where(sql.ref('kind'), '=', 'auction')
        .where(sql.ref('status'), '=', 'pending_payment')
        .execute()

      await id(db.schema.createTable('recharges'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('amount', time, (c) => c.notNull())
        .addColumn('fee', time, (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('prepay_id', 'text', (c) => c.unique())
        .addColumn('transaction_id', 'text', (c) => c.unique())
        .addColumn('transfer_id', 'integer', (c) => c.references('ledger_transfers.id'))
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('paid_at', time)
        .execute()

      await id(db.schema.createTable('company_banks'))
        .addColumn('bank_name', 'text', (c) => c.notNull())
        .addColumn('branch', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('account_name', 'text', (c) => c.notNull())
        .addColumn('account_no', 'text', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .execute()

      await id(db.schema.createTable('remittances'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('company_bank_id', 'integer', (c) => c.notNull().references('company_banks.id'))
        .addColumn('amount', time, (c) => c.notNull())
        .addColumn('payer_name', 'text', (c) => c.notNull())
        .addColumn('payer_bank', 'text', (c) => c.notNull())
        .addColumn('remitted_on', 'text', (c) => c.notNull())
        // JSON array of order ids the money is for.
        .addColumn('order_ids', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('receipt', 'text')
        // 'submitted' | 'confirmed' | 'rejected'
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('note', 'text')
        .addColumn('transfer_id', 'integer', (c) => c.references('ledger_transfers.id'))
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('decided_at', time)
        .execute()
      await db.schema
        .createIndex('remittances_user')
        .on('remittances')
        .columns(['user_id', 'id'])
        .execute()

      await id(db.schema.createTable('withdrawals'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('amount', time, (c) => c.notNull())
        // 'balance' | 'deposit': the account the money was reserved from.
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('bank_name', 'text', (c) => c.notNull())
        .addColumn('account_name', 'text', (c) => c.notNull())
        .addColumn('account_no', 'text', (c) => c.notNull())
        // 'requested' | 'paid' | 'refused'
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('note', 'text')
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('decided_at', time)
        .execute()
      await db.schema
        .createIndex('withdrawals_user')
        .on('withdrawals')
        .columns(['user_id', 'id'])
        .execute()
    },
  }
}
