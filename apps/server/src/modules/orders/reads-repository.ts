import type { Kysely } from 'kysely'
import type { DB } from '../../platform/schema'
import { ORDER_ROW_COLUMNS } from './order-columns'
import type { LockedMallItem } from './repository'

/** An order is a deal (成交) once paid, whatever happens to its delivery after. */
const DEAL_STATUSES = ['paid', 'delivery_applied', 'shipped', 'completed']

/** A mall item read outside any transaction: the same fields a purchase judges under its lock. */
export type MallItemSnapshot = LockedMallItem

/**
 * Order reads outside the write transactions: the caller's orders with what they bought, and an
 * item's purchase records. Reads only.
 */
export class OrderReads {
  constructor(private readonly db: Kysely<DB>) {}

  /** Orders with the lot or mall item each is for (title, pictures, lot id or product number). */
  private orderRows() {
    return this.db
      .selectFrom('orders')
      .leftJoin('lots', 'lots.id', 'orders.lot_id')
      .leftJoin('mall_items', 'mall_items.id', 'orders.mall_item_id')
      .select(ORDER_ROW_COLUMNS)
  }

  /** The user's orders pending payment, newest first. */
  pendingOf(userId: number) {
    return (
      this.orderRows()
        .where('orders.user_id', '=', userId)
        // Overdue won lots can still be paid (DESIGN §4) and are listed with the rest.
        .where('orders.status', 'in', ['pending_payment', 'overdue'])
        .orderBy('orders.created_at', 'desc')
        .orderBy('orders.id', 'desc')
        .execute()
    )
  }

  /** Every order of the user, whatever its status, newest first. */
  allOf(userId: number) {
    return this.orderRows()
      .where('orders.user_id', '=', userId)
      .orderBy('orders.created_at', 'desc')
      .orderBy('orders.id', 'desc')
      .execute()
  }

  /**
   * One page of the user's orders of these statuses (and kind, when given), newest first, and how
   * many there are: the order groups of spec §4 (ORDER_GROUP_STATUSES).
   */
  async groupOf(
    userId: number,
    filter: { statuses: readonly string[]; kind?: string },
    page: { offset: number; limit: number },
  ) {
    const kinds = filter.kind === undefined ? ['auction', 'mall'] : [filter.kind]
    const [rows, total] = await Promise.all([
      this.orderRows()
        .where('orders.user_id', '=', userId)
        .where('orders.status', 'in', [...filter.statuses])
        .where('orders.kind', 'in', kinds)
        .orderBy('orders.created_at', 'desc')
        .orderBy('orders.id', 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute(),
      this.db
        .selectFrom('orders')
        .where('orders.user_id', '=', userId)
        .where('orders.status', 'in', [...filter.statuses])
        .where('orders.kind', 'in', kinds)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirst(),
    ])
    return { rows, total: Number(total?.n ?? 0) }
  }

  order(orderId: number) {
    return this.orderRows().where('orders.id', '=', orderId).executeTakeFirst()
  }

  /** A mall item as last committed, without a lock: what a purchase checks before it queues. */
  async mallItem(productNo: string): Promise<MallItemSnapshot | undefined> {
    const row = await this.db
      .selectFrom('mall_items')
      .select(['id', 'product_no', 'category_id', 'price', 'stock', 'limit_per_user', 'on_sale'])
      .where('product_no', '=', productNo)
      .executeTakeFirst()
    return (
      row && {
        id: row.id,
        productNo: row.product_no,
        categoryId: row.category_id,
        price: row.price,
        stock: row.stock,
        limitPerUser: row.limit_per_user,
        onSale: row.on_sale === 1,
      }
    )
  }

  async mallItemId(productNo: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('mall_items')
      .select('id')
      .where('product_no', '=', productNo)
      .executeTakeFirst()
    return row?.id
  }

  /** One page of an item's paid purchases (deals), newest first, and how many in all. */
  async purchaseRecords(mallItemId: number, page: { offset: number; limit: number }) {
    const live = this.db
      .selectFrom('orders')
      .where('orders.mall_item_id', '=', mallItemId)
      .where('orders.kind', '=', 'mall')
      .where('orders.status', 'in', DEAL_STATUSES)
    const [rows, total] = await Promise.all([
      live
        .innerJoin('users', 'users.id', 'orders.user_id')
        .select(['orders.user_id', 'users.display', 'orders.quantity', 'orders.created_at'])
        .orderBy('orders.created_at', 'desc')
        .orderBy('orders.id', 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute(),
      live.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst(),
    ])
    return { rows, total: Number(total?.n ?? 0) }
  }
}

export type OrderRow = NonNullable<Awaited<ReturnType<OrderReads['order']>>>
