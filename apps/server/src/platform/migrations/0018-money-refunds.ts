import type { Kysely } from 'kysely'
import type { MigrationContext } from './index'

/**
 * Refunds of paid orders by the cashier (issue 12, the console's money area): one row per order
 * (the unique order id is the last guard against refunding twice), naming the ledger transfer
 * that gave the money back, who did it and why. Also an index for the daily ledger report, which
 * reads a day's transfers by time.
 */
export function moneyRefunds({ id, time }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await id(db.schema.createTable('order_refunds'))
        .addColumn('order_id', 'integer', (c) => c.notNull().unique().references('orders.id'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        // What went back to the balance (goods less discount, plus the fee), and the fee in it.
        .addColumn('amount', time, (c) => c.notNull())
        .addColumn('fee', time, (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('transfer_id', 'integer', (c) => c.notNull().references('ledger_transfers.id'))
        .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff_users.id'))
        .addColumn('balance_before', time, (c) => c.notNull())
        .addColumn('balance_after', time, (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .execute()
      await db.schema
        .createIndex('ledger_transfers_created')
        .on('ledger_transfers')
        .column('created_at')
        .execute()
    },
  }
}
