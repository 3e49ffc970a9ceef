import { type Kysely, sql } from 'kysely'
import type { MigrationContext } from './index'

/**
 * Delivery (issue 10, DESIGN §6, §9 "Delivery"): shipments of paid orders in storage — express to
 * an address or self-pickup by appointment — and counter cash bookings of unpaid orders. The
 * rules are packages/domain/src/delivery.ts and order-status.ts; money (the delivery fees, the cash
 * taken at the counter) moves in the ledger and the rows name the transfer.
 */
export function delivery({ id, time }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await id(db.schema.createTable('shipments'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        // 'express' | 'pickup'
        .addColumn('method', 'text', (c) => c.notNull())
        // 'applied' | 'shipped' | 'completed'
        .addColumn('status', 'text', (c) => c.notNull())
        // Express: the address as it was when applied (JSON ShipmentAddress) and its country code.
        .addColumn('address', 'text')
        .addColumn('country_id', 'text')
        // Pickup: a China calendar day YYYY-MM-DD and one of PICKUP_SLOTS.
        .addColumn('pickup_date', 'text')
        .addColumn('pickup_slot', 'text')
        .addColumn('insured', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('declared_value', time, (c) => c.notNull())
        .addColumn('shipping_fee', time, (c) => c.notNull())
        .addColumn('insurance_fee', time, (c) => c.notNull())
        .addColumn('storage_fee', time, (c) => c.notNull())
        .addColumn('total', time, (c) => c.notNull())
        // The ledger transfer that took the fees (null when the total was 0).
        .addColumn('transfer_id', 'integer', (c) => c.references('ledger_transfers.id'))
        .addColumn('carrier', 'text')
        .addColumn('tracking_no', 'text')
        .addColumn('applied_at', time, (c) => c.notNull())
        .addColumn('shipped_at', time)
        .addColumn('completed_at', time)
        // Shipped + 15 days: when it completes by itself unless the buyer confirms first.
        .addColumn('auto_complete_at', time)
        .execute()
      await db.schema
        .createIndex('shipments_user')
        .on('shipments')
        .columns(['user_id', 'id'])
        .execute()
      // The auto-completion job starts from shipped shipments past their time.
      await db.schema
        .createIndex('shipments_auto_complete')
        .on('shipments')
        .columns(['auto_complete_at', 'id'])
        .where(sql.ref('status'), '=', 'shipped')
        .execute()
      await db.schema
        .createTable('shipment_orders')
        .addColumn('shipment_id', 'integer', (c) => c.notNull().references('shipments.id'))
        .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id'))
        .addPrimaryKeyConstraint('shipment_orders_pk', ['shipment_id', 'order_id'])
        .execute()
      // An order goes out in one shipment only: the backstop to the service's row locks.
      await db.schema
        .createIndex('shipment_orders_order')
        .on('shipment_orders')
        .column('order_id')
        .unique()
        .execute()

      await id(db.schema.createTable('bookings'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('date', 'text', (c) => c.notNull())
        .addColumn('slot', 'text', (c) => c.notNull())
        // 'booked' | 'completed' | 'cancelled'
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('total', time, (c) => c.notNull())
        // The ledger transfer of the cash taken at the counter, once completed.
        .addColumn('transfer_id', 'integer', (c) => c.references('ledger_transfers.id'))
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('completed_at', time)
        .execute()
      await db.schema
        .createIndex('bookings_user')
        .on('bookings')
        .columns(['user_id', 'id'])
        .execute()
      await db.schema
        .createTable('booking_orders')
        .addColumn('booking_id', 'integer', (c) => c.notNull().references('bookings.id'))
        .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id'))
        .addPrimaryKeyConstraint('booking_orders_pk', ['booking_id', 'order_id'])
        .execute()
      await db.schema
        .createIndex('booking_orders_order')
        .on('booking_orders')
        .column('order_id')
        .execute()

      // Places taken per counter slot, pickups and cash bookings alike: the row a booking locks
      // and counts up with a conditional update, so a slot is never overbooked under concurrency.
      await db.schema
        .createTable('slot_counts')
        .addColumn('date', 'text', (c) => c.notNull())
        .addColumn('slot', 'text', (c) => c.notNull())
        .addColumn('booked', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('slot_counts_pk', ['date', 'slot'])
        .execute()
    },
  }
}
