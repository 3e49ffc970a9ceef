import { type Kysely, sql } from 'kysely'
import type { MigrationContext } from './index'

/**
 * The mall (DESIGN §5): coupons and the coupons users received, mall watches, and what a mall
 * order adds to `orders` — the coupon it holds and its discount, how the buyer chose to pay (an
 * unpaid order the buyer pays by bank remittance does not expire), and when it was cancelled.
 *
 * A received coupon is a row of its own (`user_coupons`), not a counter: locking one for an order
 * is a conditional update of that row (`status = 'usable'`), so two orders can never both take it.
 * A coupon's scope is two JSON lists, read only by the coupon rules in packages/domain.
 */
export function mall({ id, time }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await id(db.schema.createTable('coupons'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('threshold', time, (c) => c.notNull().defaultTo(0))
        .addColumn('amount', time)
        .addColumn('percent', 'integer')
        .addColumn('cap', time)
        .addColumn('total', 'integer', (c) => c.notNull())
        .addColumn('issued', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('per_user', 'integer', (c) => c.notNull())
        .addColumn('starts_at', time, (c) => c.notNull())
        .addColumn('ends_at', time, (c) => c.notNull())
        .addColumn('product_nos', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('category_ids', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('created_at', time, (c) => c.notNull())
        .execute()
      await db.schema.createIndex('coupons_window').on('coupons').column('ends_at').execute()

      await id(db.schema.createTable('user_coupons'))
        .addColumn('coupon_id', 'integer', (c) => c.notNull().references('coupons.id'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        // 'usable' | 'locked' (an unpaid order holds it) | 'used'; expiry is read from the coupon.
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('usable'))
        .addColumn('order_id', 'integer', (c) => c.references('orders.id'))
        .addColumn('received_at', time, (c) => c.notNull())
        .addColumn('used_at', time)
        .execute()
      await db.schema
        .createIndex('user_coupons_user')
        .on('user_coupons')
        .columns(['user_id', 'status'])
        .execute()
      await db.schema
        .createIndex('user_coupons_coupon')
        .on('user_coupons')
        .columns(['coupon_id', 'user_id'])
        .execute()

      await db.schema
        .createTable('mall_watches')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('mall_item_id', 'integer', (c) => c.notNull().references('mall_items.id'))
        .addColumn('created_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('mall_watches_pk', ['user_id', 'mall_item_id'])
        .execute()

      await db.schema
        .alterTable('orders')
        .addColumn('discount', time, (c) => c.notNull().defaultTo(0))
        .execute()
      await db.schema
        .alterTable('orders')
        .addColumn('user_coupon_id', 'integer', (c) => c.references('user_coupons.id'))
        .execute()
      await db.schema.alterTable('orders').addColumn('pay_method', 'text').execute()
      await db.schema.alterTable('orders').addColumn('cancelled_at', time).execute()
      // The expiry job reads unpaid mall orders oldest due first. Partial, so it holds only those
      // (not the paid history, nor unpaid auction orders, which never expire this way) and its
      // order is the job's: a run reads its batch off the front without sorting.
      await db.schema
        .createIndex('orders_mall_due')
        .on('orders')
        .columns(['due_at', 'id'])
        .where(sql.ref('kind'), '=', 'mall')
        .where(sql.ref('status'), '=', 'pending_payment')
        .execute()
      // The per-user limit and the purchase records start from one item's orders.
      await db.schema
        .createIndex('orders_mall_item')
        .on('orders')
        .columns(['mall_item_id', 'user_id'])
        .execute()
    },
  }
}
