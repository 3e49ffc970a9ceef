import type { Insertable, Kysely, Selectable } from 'kysely'
import type { Dialect } from '../../platform/db'
import type { CouponsTable, DB } from '../../platform/schema'
import type { Tx } from '../../platform/transactions'

export type CouponRow = Selectable<CouponsTable>

/** A received coupon with the terms of the coupon it is one of. */
export interface UserCouponRow {
  id: number
  userId: number
  status: string
  orderId: number | null
  receivedAt: number
  usedAt: number | null
  coupon: CouponRow
}

/** A mall item as the coupon rules see it. */
export interface CouponItem {
  id: number
  productNo: string
  price: number
  categoryId: number | null
}

/** A mall order as offering it a coupon needs it. */
export interface CouponOrder {
  id: number
  userId: number
  kind: string
  status: string
  userCouponId: number | null
  mallItemId: number | null
  /** The goods (price × quantity when it was placed). */
  amount: number
}

const COUPON_COLUMNS = [
  'coupons.id',
  'coupons.title',
  'coupons.kind',
  'coupons.threshold',
  'coupons.amount',
  'coupons.percent',
  'coupons.cap',
  'coupons.total',
  'coupons.issued',
  'coupons.per_user',
  'coupons.starts_at',
  'coupons.ends_at',
  'coupons.product_nos',
  'coupons.category_ids',
  'coupons.created_at',
] as const

const USER_COUPON_COLUMNS = [
  'user_coupons.id as user_coupon_id',
  'user_coupons.user_id',
  'user_coupons.status',
  'user_coupons.order_id',
  'user_coupons.received_at',
  'user_coupons.used_at',
] as const

type JoinedRow = CouponRow & {
  user_coupon_id: number
  user_id: number
  status: string
  order_id: number | null
  received_at: number
  used_at: number | null
}

function toUserCoupon(row: JoinedRow): UserCouponRow {
  const { user_coupon_id, user_id, status, order_id, received_at, used_at, ...coupon } = row
  return {
    id: user_coupon_id,
    userId: user_id,
    status,
    orderId: order_id,
    receivedAt: received_at,
    usedAt: used_at,
    coupon,
  }
}

/**
 * The SQL of coupons and the coupons users received. Methods that take `tx` run in the caller's
 * write transaction; on PostgreSQL their row locks serialise the receivers of one coupon (the
 * coupon row) and the orders that would take one received coupon (its `user_coupons` row).
 */
export class CouponRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  async insertCoupon(tx: Tx, row: Insertable<CouponsTable>): Promise<number> {
    const { id } = await tx
      .insertInto('coupons')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow()
    return id
  }

  /** Which of these mall category ids exist. */
  async existingCategoryIds(ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return []
    const rows = await this.db
      .selectFrom('mall_categories')
      .select('id')
      .where('id', 'in', [...ids])
      .execute()
    return rows.map((r) => r.id)
  }

  /** Which of these product numbers exist. */
  async existingProductNos(productNos: readonly string[]): Promise<string[]> {
    if (productNos.length === 0) return []
    const rows = await this.db
      .selectFrom('mall_items')
      .select('product_no')
      .where('product_no', 'in', [...productNos])
      .execute()
    return rows.map((r) => r.product_no)
  }

  /** Reads a coupon for update: on PostgreSQL this row lock serialises its receivers. */
  async lockCoupon(tx: Tx, couponId: number): Promise<CouponRow | undefined> {
    let query = tx.selectFrom('coupons').select(COUPON_COLUMNS).where('id', '=', couponId)
    if (this.dialect === 'postgres') query = query.forUpdate()
    return query.executeTakeFirst()
  }

  /** How many of the coupon the user has received (used or not). */
  async receivedCount(tx: Tx, couponId: number, userId: number): Promise<number> {
    const row = await tx
      .selectFrom('user_coupons')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('coupon_id', '=', couponId)
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow()
    return Number(row.n)
  }

  /** Hands one out: counts it against the total and records it as the user's. */
  async issue(tx: Tx, couponId: number, userId: number, now: number): Promise<number> {
    await tx
      .updateTable('coupons')
      .set((eb) => ({ issued: eb('issued', '+', 1) }))
      .where('id', '=', couponId)
      .execute()
    const { id } = await tx
      .insertInto('user_coupons')
      .values({ coupon_id: couponId, user_id: userId, status: 'usable', received_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
    return id
  }

  /** Coupons whose window contains `now`, in the order they were created. */
  async couponsOpenAt(now: number): Promise<CouponRow[]> {
    return this.db
      .selectFrom('coupons')
      .select(COUPON_COLUMNS)
      .where('starts_at', '<=', now)
      .where('ends_at', '>', now)
      .orderBy('id')
      .execute()
  }

  /** How many of each coupon the user has received. */
  async receivedCounts(userId: number, couponIds: readonly number[]): Promise<Map<number, number>> {
    if (couponIds.length === 0) return new Map()
    const rows = await this.db
      .selectFrom('user_coupons')
      .select(['coupon_id', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('user_id', '=', userId)
      .where('coupon_id', 'in', [...couponIds])
      .groupBy('coupon_id')
      .execute()
    return new Map(rows.map((r) => [r.coupon_id, Number(r.n)]))
  }

  async mallItem(productNo: string): Promise<CouponItem | undefined> {
    const row = await this.db
      .selectFrom('mall_items')
      .select(['id', 'product_no', 'price', 'category_id'])
      .where('product_no', '=', productNo)
      .executeTakeFirst()
    return (
      row && {
        id: row.id,
        productNo: row.product_no,
        price: row.price,
        categoryId: row.category_id,
      }
    )
  }

  async mallItemById(id: number): Promise<CouponItem | undefined> {
    const row = await this.db
      .selectFrom('mall_items')
      .select(['id', 'product_no', 'price', 'category_id'])
      .where('id', '=', id)
      .executeTakeFirst()
    return (
      row && {
        id: row.id,
        productNo: row.product_no,
        price: row.price,
        categoryId: row.category_id,
      }
    )
  }

  async order(orderId: number): Promise<CouponOrder | undefined> {
    const row = await this.db
      .selectFrom('orders')
      .select(['id', 'user_id', 'kind', 'status', 'user_coupon_id', 'mall_item_id', 'amount'])
      .where('id', '=', orderId)
      .executeTakeFirst()
    return (
      row && {
        id: row.id,
        userId: row.user_id,
        kind: row.kind,
        status: row.status,
        userCouponId: row.user_coupon_id,
        mallItemId: row.mall_item_id,
        amount: row.amount,
      }
    )
  }

  /** The user's coupons in a status whose window has not ended at `now`. */
  async userCouponsIn(userId: number, status: string, now: number): Promise<UserCouponRow[]> {
    const rows = await this.db
      .selectFrom('user_coupons')
      .innerJoin('coupons', 'coupons.id', 'user_coupons.coupon_id')
      .select([...COUPON_COLUMNS, ...USER_COUPON_COLUMNS])
      .where('user_coupons.user_id', '=', userId)
      .where('user_coupons.status', '=', status)
      .where('coupons.ends_at', '>', now)
      .orderBy('user_coupons.id')
      .execute()
    return rows.map(toUserCoupon)
  }

  /** How many usable coupons whose window has not ended at `now` the user holds. */
  async usableCount(userId: number, now: number): Promise<number> {
    const row = await this.db
      .selectFrom('user_coupons')
      .innerJoin('coupons', 'coupons.id', 'user_coupons.coupon_id')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_coupons.user_id', '=', userId)
      .where('user_coupons.status', '=', 'usable')
      .where('coupons.ends_at', '>', now)
      .executeTakeFirstOrThrow()
    return Number(row.n)
  }

  /** Every coupon the user received, newest first. */
  async userCoupons(userId: number): Promise<UserCouponRow[]> {
    const rows = await this.db
      .selectFrom('user_coupons')
      .innerJoin('coupons', 'coupons.id', 'user_coupons.coupon_id')
      .select([...COUPON_COLUMNS, ...USER_COUPON_COLUMNS])
      .where('user_coupons.user_id', '=', userId)
      .orderBy('user_coupons.received_at', 'desc')
      .orderBy('user_coupons.id', 'desc')
      .execute()
    return rows.map(toUserCoupon)
  }

  /**
   * Reads a received coupon for update: on PostgreSQL this lock (of the `user_coupons` row only)
   * is what keeps two orders from both taking it.
   */
  async lockUserCoupon(tx: Tx, userCouponId: number): Promise<UserCouponRow | undefined> {
    let query = tx
      .selectFrom('user_coupons')
      .innerJoin('coupons', 'coupons.id', 'user_coupons.coupon_id')
      .select([...COUPON_COLUMNS, ...USER_COUPON_COLUMNS])
      .where('user_coupons.id', '=', userCouponId)
    if (this.dialect === 'postgres') query = query.forUpdate('user_coupons')
    const row = await query.executeTakeFirst()
    return row && toUserCoupon(row)
  }

  /** Usable → locked by the order; false, and nothing changed, when it was not usable. */
  async lockFor(tx: Tx, userCouponId: number, orderId: number): Promise<boolean> {
    const updated = await tx
      .updateTable('user_coupons')
      .set({ status: 'locked', order_id: orderId })
      .where('id', '=', userCouponId)
      .where('status', '=', 'usable')
      .executeTakeFirst()
    return updated.numUpdatedRows === 1n
  }

  /** Locked by the order → usable; false, and nothing changed, when that order does not hold it. */
  async releaseFrom(tx: Tx, userCouponId: number, orderId: number): Promise<boolean> {
    const updated = await tx
      .updateTable('user_coupons')
      .set({ status: 'usable', order_id: null })
      .where('id', '=', userCouponId)
      .where('status', '=', 'locked')
      .where('order_id', '=', orderId)
      .executeTakeFirst()
    return updated.numUpdatedRows === 1n
  }

  /** Locked by the order → used (the order was paid); false when that order does not hold it. */
  async useFrom(tx: Tx, userCouponId: number, orderId: number, now: number): Promise<boolean> {
    const updated = await tx
      .updateTable('user_coupons')
      .set({ status: 'used', used_at: now })
      .where('id', '=', userCouponId)
      .where('status', '=', 'locked')
      .where('order_id', '=', orderId)
      .executeTakeFirst()
    return updated.numUpdatedRows === 1n
  }
}
