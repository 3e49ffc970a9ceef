import type { LedgerRefType } from '@numisma/contracts/ledger-labels'
import { sql } from 'kysely'
import type { Dialect } from '../../platform/db'
import type { Tx } from '../../platform/transactions'

/** PostgreSQL sums and counts bigint columns to strings (numeric); SQLite to numbers. */
const num = (value: number | string | bigint | null | undefined): number => Number(value ?? 0)

export interface DeskUserRow {
  id: number
  mobile: string
  display: string
  created_at: number
}

export interface RefundOrderRow {
  id: number
  user_id: number
  mobile: string
  kind: string
  status: string
  title: string
  mall_item_id: number | null
  quantity: number
  amount: number
  discount: number
  fee: number
  total: number
  user_coupon_id: number | null
  pay_method: string | null
  paid_at: number | null
}

export interface TransferRefRow {
  transferId: number
  type: LedgerRefType
  id: number
  /** The reason staff typed (a refund's); null otherwise. */
  reason: string | null
}

export interface RefundRow {
  id: number
  order_id: number
  user_id: number
  kind: string
  amount: number
  fee: number
  reason: string
  transfer_id: number
  staff_id: number
  balance_before: number
  balance_after: number
  created_at: number
}

/**
 * The cashier desk's SQL (issue 12): reads across users, orders and the ledger for the lookup,
 * the refund's own writes (the order, its stock and coupon, the refund row) and the daily report's
 * sums. The ledger's postings themselves go through modules/ledger (LedgerService.post).
 */
export class StaffMoneyRepository {
  constructor(
    private readonly db: Tx,
    private readonly dialect: Dialect,
  ) {}

  async user(by: { mobile?: string; id?: number }): Promise<DeskUserRow | undefined> {
    let query = this.db.selectFrom('users').select(['id', 'mobile', 'display', 'created_at'])
    query =
      by.id !== undefined
        ? query.where('id', '=', by.id)
        : query.where('mobile', '=', by.mobile ?? '')
    return query.executeTakeFirst()
  }

  async userExists(tx: Tx, userId: number): Promise<boolean> {
    return (
      (await tx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst()) !==
      undefined
    )
  }

  async orderSummary(userId: number): Promise<{ status: string; count: number; total: number }[]> {
    const rows = await this.db
      .selectFrom('orders')
      .select([
        'status',
        sql<number | string>`count(*)`.as('count'),
        sql<number | string>`coalesce(sum(total), 0)`.as('total'),
      ])
      .where('user_id', '=', userId)
      .groupBy('status')
      .orderBy('status')
      .execute()
    return rows.map((r) => ({ status: r.status, count: num(r.count), total: num(r.total) }))
  }

  /** The user's postings, newest first, with their transfers. */
  async ledgerLines(userId: number, page: number, pageSize: number) {
    const base = this.db
      .selectFrom('ledger_postings as p')
      .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
      .innerJoin('ledger_transfers as t', 't.id', 'p.transfer_id')
      .where('a.user_id', '=', userId)
    const total = await base
      .select(sql<number | string>`count(*)`.as('n'))
      .executeTakeFirstOrThrow()
    const rows = await base
      .select([
        't.id as transferId',
        't.kind',
        't.memo',
        'a.kind as account',
        'p.amount',
        't.created_at',
      ])
      .orderBy('p.id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute()
    return { rows, total: num(total.n) }
  }

  /**
   * What the given transfers belong to, through the tables that keep a transfer's id: a payment's
   * orders, a remittance, a shipment's fees, a recharge, a counter booking and its orders, a
   * refund's order (with the reason staff typed).
   */
  async transferRefs(transferIds: readonly number[]): Promise<TransferRefRow[]> {
    if (transferIds.length === 0) return []
    const ids = [...transferIds]
    const db = this.db
    const [payments, remittances, shipments, recharges, bookings, refunds] = await Promise.all([
      db
        .selectFrom('payments as p')
        .innerJoin('payment_orders as po', 'po.payment_id', 'p.id')
        .select(['p.transfer_id', 'po.order_id as id'])
        .where('p.transfer_id', 'in', ids)
        .orderBy('po.order_id')
        .execute(),
      db
        .selectFrom('remittances')
        .select(['transfer_id', 'id'])
        .where('transfer_id', 'in', ids)
        .execute(),
      db
        .selectFrom('shipments')
        .select(['transfer_id', 'id'])
        .where('transfer_id', 'in', ids)
        .execute(),
      db
        .selectFrom('recharges')
        .select(['transfer_id', 'id'])
        .where('transfer_id', 'in', ids)
        .execute(),
      db
        .selectFrom('bookings as b')
        .leftJoin('booking_orders as bo', 'bo.booking_id', 'b.id')
        .select(['b.transfer_id', 'b.id', 'bo.order_id'])
        .where('b.transfer_id', 'in', ids)
        .orderBy('bo.order_id')
        .execute(),
      db
        .selectFrom('order_refunds')
        .select(['transfer_id', 'order_id as id', 'reason'])
        .where('transfer_id', 'in', ids)
        .execute(),
    ])
    const row = (transferId: number | null, type: LedgerRefType, id: number, reason?: string) => ({
      transferId: transferId ?? 0,
      type,
      id,
      reason: reason ?? null,
    })
    return [
      ...payments.map((r) => row(r.transfer_id, 'order', r.id)),
      ...remittances.map((r) => row(r.transfer_id, 'remittance', r.id)),
      ...shipments.map((r) => row(r.transfer_id, 'shipment', r.id)),
      ...recharges.map((r) => row(r.transfer_id, 'recharge', r.id)),
      ...bookings.flatMap((r) => [
        row(r.transfer_id, 'booking', r.id),
        ...(r.order_id === null ? [] : [row(r.transfer_id, 'order', r.order_id)]),
      ]),
      ...refunds.map((r) => row(r.transfer_id, 'order', r.id, r.reason)),
    ]
  }

  // Refunds.

  /** The order with what the refund desk shows of it, locked for update (PostgreSQL). */
  async lockOrder(tx: Tx, orderId: number): Promise<RefundOrderRow | undefined> {
    let query = this.orderQuery(tx).where('o.id', '=', orderId)
    if (this.dialect === 'postgres') query = query.forUpdate('o')
    return query.executeTakeFirst()
  }

  async order(orderId: number): Promise<RefundOrderRow | undefined> {
    return this.orderQuery(this.db).where('o.id', '=', orderId).executeTakeFirst()
  }

  private orderQuery(tx: Tx) {
    return tx
      .selectFrom('orders as o')
      .innerJoin('users as u', 'u.id', 'o.user_id')
      .leftJoin('lots as l', 'l.id', 'o.lot_id')
      .leftJoin('mall_items as m', 'm.id', 'o.mall_item_id')
      .select([
        'o.id',
        'o.user_id',
        'u.mobile',
        'o.kind',
        'o.status',
        sql<string>`coalesce(l.title, m.title, '')`.as('title'),
        'o.mall_item_id',
        'o.quantity',
        'o.amount',
        'o.discount',
        'o.fee',
        'o.total',
        'o.user_coupon_id',
        'o.pay_method',
        'o.paid_at',
      ])
  }

  /** paid → cancelled; false when it was no longer paid (refunded by someone else first). */
  async markRefunded(tx: Tx, orderId: number, now: number): Promise<boolean> {
    const updated = await tx
      .updateTable('orders')
      .set({ status: 'cancelled', cancelled_at: now })
      .where('id', '=', orderId)
      .where('status', '=', 'paid')
      .executeTakeFirst()
    return updated.numUpdatedRows === 1n
  }

  /** The refunded units go back on the shelf and no longer count as sold. */
  async returnSoldStock(tx: Tx, mallItemId: number, quantity: number): Promise<void> {
    await tx
      .updateTable('mall_items')
      .set((eb) => ({
        stock: eb('stock', '+', quantity),
        sold: sql<number>`case when sold >= ${quantity} then sold - ${quantity} else 0 end`,
      }))
      .where('id', '=', mallItemId)
      .execute()
  }

  /** The coupon the refunded order used is usable again (only if that order used it). */
  async returnUsedCoupon(tx: Tx, userCouponId: number, orderId: number): Promise<boolean> {
    const updated = await tx
      .updateTable('user_coupons')
      .set({ status: 'usable', order_id: null, used_at: null })
      .where('id', '=', userCouponId)
      .where('order_id', '=', orderId)
      .where('status', 'in', ['used', 'locked'])
      .executeTakeFirst()
    return updated.numUpdatedRows === 1n
  }

  async insertRefund(tx: Tx, refund: Omit<RefundRow, 'id' | 'kind'>): Promise<number> {
    const { id } = await tx
      .insertInto('order_refunds')
      .values(refund)
      .returning('id')
      .executeTakeFirstOrThrow()
    return id
  }

  private refundQuery(tx: Tx) {
    return tx
      .selectFrom('order_refunds as r')
      .innerJoin('orders as o', 'o.id', 'r.order_id')
      .select([
        'r.id',
        'r.order_id',
        'r.user_id',
        'o.kind',
        'r.amount',
        'r.fee',
        'r.reason',
        'r.transfer_id',
        'r.staff_id',
        'r.balance_before',
        'r.balance_after',
        'r.created_at',
      ])
  }

  async refund(tx: Tx, id: number): Promise<RefundRow | undefined> {
    return this.refundQuery(tx).where('r.id', '=', id).executeTakeFirst()
  }

  async refunds(page: number, pageSize: number): Promise<{ rows: RefundRow[]; total: number }> {
    const total = await this.db
      .selectFrom('order_refunds')
      .select(sql<number | string>`count(*)`.as('n'))
      .executeTakeFirstOrThrow()
    const rows = await this.refundQuery(this.db)
      .orderBy('r.id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute()
    return { rows, total: num(total.n) }
  }
}
