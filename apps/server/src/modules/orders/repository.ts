import { categoryAncestry } from '@numisma/domain/category-tree'
import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../../platform/db'
import type { DB } from '../../platform/schema'
import type { Tx } from '../../platform/transactions'

/** A mall item as placing an order judges it, read under its row lock. */
export interface LockedMallItem {
  id: number
  productNo: string
  categoryId: number | null
  price: number
  stock: number
  limitPerUser: number | null
  onSale: boolean
}

/** An order as cancelling it needs it, read under its row lock. */
export interface LockedOrder {
  id: number
  userId: number
  kind: string
  status: string
  mallItemId: number | null
  quantity: number
  userCouponId: number | null
  payMethod: string | null
  dueAt: number | null
}

export interface NewMallOrder {
  userId: number
  mallItemId: number
  quantity: number
  /** Price × quantity (the goods). */
  amount: number
  discount: number
  userCouponId: number | null
  dueAt: number
  now: number
}

/**
 * The SQL of placing, cancelling and expiring mall orders. Methods that take `tx` run in the
 * caller's write transaction; on PostgreSQL the row locks they take are what serialise buyers of
 * one item (the item row) and cancellers of one order (the order row). Every transaction locks an
 * item before a coupon, so buying and cancelling never wait on each other in a cycle.
 */
export class OrdersRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Reads a mall item for update: on PostgreSQL this row lock serialises its buyers. `FOR NO KEY
   * UPDATE`, the lock the stock update takes anyway: it excludes other buyers but not the key-share
   * lock a new row referencing the item takes for its foreign key, so watching the item never
   * queues behind a purchase of it.
   */
  async lockMallItem(tx: Tx, productNo: string): Promise<LockedMallItem | undefined> {
    let query = tx
      .selectFrom('mall_items')
      .select(['id', 'product_no', 'category_id', 'price', 'stock', 'limit_per_user', 'on_sale'])
      .where('product_no', '=', productNo)
    if (this.dialect === 'postgres') query = query.forNoKeyUpdate()
    const row = await query.executeTakeFirst()
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

  /**
   * Units of an item the user holds in mall orders that are not cancelled (paid or not): what the
   * per-user limit counts, in the purchase's transaction, and what the item page shows (`tx` the
   * database, as last committed), so the two cannot drift.
   */
  async unitsHeld(tx: Tx, userId: number, mallItemId: number): Promise<number> {
    const row = await tx
      .selectFrom('orders')
      // Cast so PostgreSQL returns int8 (parsed to a number), not numeric (a string).
      .select(sql<number>`cast(coalesce(sum(${sql.ref('quantity')}), 0) as bigint)`.as('units'))
      .where('mall_item_id', '=', mallItemId)
      .where('user_id', '=', userId)
      .where('kind', '=', 'mall')
      .where('status', '!=', 'cancelled')
      .executeTakeFirst()
    return row?.units ?? 0
  }

  /** Units held as last committed, outside any transaction (the item page's `boughtByMe`). */
  committedUnitsHeld(userId: number, mallItemId: number): Promise<number> {
    return this.unitsHeld(this.db, userId, mallItemId)
  }

  /**
   * A mall category and every category above it, read in the caller's transaction. Placing an
   * order takes the chain from the catalogue before its transaction (`MallOrderDeps.categoryChain`);
   * this in-transaction read is for paying, where a coupon is judged under the payment's locks and
   * SQLite's one connection allows no read outside it. The walk itself is the domain's.
   */
  async categoryChain(tx: Tx, categoryId: number | null): Promise<number[]> {
    if (categoryId === null) return []
    const rows = await tx.selectFrom('mall_categories').select(['id', 'parent_id']).execute()
    return categoryAncestry(
      rows.map((r) => ({ id: r.id, parentId: r.parent_id })),
      categoryId,
    )
  }

  /**
   * Takes units off the shelf; false, and nothing changed, when fewer are left. `sold` counts paid
   * units and moves when an order is paid, not here.
   */
  async reserveStock(tx: Tx, mallItemId: number, quantity: number): Promise<boolean> {
    const updated = await tx
      .updateTable('mall_items')
      .set((eb) => ({ stock: eb('stock', '-', quantity) }))
      .where('id', '=', mallItemId)
      .where('stock', '>=', quantity)
      .executeTakeFirst()
    return updated.numUpdatedRows === 1n
  }

  /** Puts units of a cancelled order back on the shelf. */
  async returnStock(tx: Tx, mallItemId: number, quantity: number): Promise<void> {
    await tx
      .updateTable('mall_items')
      .set((eb) => ({ stock: eb('stock', '+', quantity) }))
      .where('id', '=', mallItemId)
      .execute()
  }

  async insertMallOrder(tx: Tx, order: NewMallOrder): Promise<number> {
    const { id } = await tx
      .insertInto('orders')
      .values({
        user_id: order.userId,
        kind: 'mall',
        lot_id: null,
        mall_item_id: order.mallItemId,
        quantity: order.quantity,
        amount: order.amount,
        fee: 0,
        discount: order.discount,
        total: order.amount - order.discount,
        status: 'pending_payment',
        due_at: order.dueAt,
        created_at: order.now,
        paid_at: null,
        user_coupon_id: order.userCouponId,
        pay_method: null,
        cancelled_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    return id
  }

  /**
   * Reads an order for update. `skipLocked` (the expiry job, PostgreSQL): an order another
   * transaction holds is passed over rather than waited for.
   */
  async lockOrder(
    tx: Tx,
    orderId: number,
    options: { skipLocked?: boolean } = {},
  ): Promise<LockedOrder | undefined> {
    let query = tx
      .selectFrom('orders')
      .select([
        'id',
        'user_id',
        'kind',
        'status',
        'mall_item_id',
        'quantity',
        'user_coupon_id',
        'pay_method',
        'due_at',
      ])
      .where('id', '=', orderId)
    if (this.dialect === 'postgres') {
      query = options.skipLocked ? query.forUpdate().skipLocked() : query.forUpdate()
    }
    const row = await query.executeTakeFirst()
    return (
      row && {
        id: row.id,
        userId: row.user_id,
        kind: row.kind,
        status: row.status,
        mallItemId: row.mall_item_id,
        quantity: row.quantity,
        userCouponId: row.user_coupon_id,
        payMethod: row.pay_method,
        dueAt: row.due_at,
      }
    )
  }

  /** Cancels an unpaid order; false when it was no longer pending payment (cancelled already). */
  async markCancelled(tx: Tx, orderId: number, now: number): Promise<boolean> {
    const updated = await tx
      .updateTable('orders')
      .set({ status: 'cancelled', cancelled_at: now })
      .where('id', '=', orderId)
      .where('status', '=', 'pending_payment')
      .executeTakeFirst()
    return updated.numUpdatedRows === 1n
  }

  /**
   * Unpaid mall orders past their due time (for a remittance order, the end of its hold), oldest
   * first, as last committed (the expiry job locks and re-checks each one), but for `skip`.
   */
  dueMallOrders(
    now: number,
    limit: number,
    skip: readonly number[] = [],
  ): Promise<{ id: number }[]> {
    const query = this.dueMallOrdersQuery(now, limit)
    return (skip.length === 0 ? query : query.where('id', 'not in', [...skip])).execute()
  }

  /**
   * The query of `dueMallOrders`, for tests that read its plan. It reads the partial index
   * `orders_mall_due` (migration 0008: unpaid mall orders only, in (due_at, id) order); its kind and
   * status are literals rather than parameters so a planner proves that match even for a plan made
   * without the parameters' values (a PostgreSQL generic plan).
   */
  dueMallOrdersQuery(now: number, limit: number) {
    return this.db
      .selectFrom('orders')
      .select('id')
      .where('kind', '=', sql.lit('mall'))
      .where('status', '=', sql.lit('pending_payment'))
      .where('due_at', '<=', now)
      .orderBy('due_at')
      .orderBy('id')
      .limit(limit)
  }
}
