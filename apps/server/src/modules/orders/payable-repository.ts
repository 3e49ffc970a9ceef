import { MALL_PAYMENT_MINUTES } from '@numisma/domain/fees'
import type { Kysely } from 'kysely'
import type { Dialect } from '../../platform/db'
import type { DB } from '../../platform/schema'
import type { Tx } from '../../platform/transactions'
import type { PayableOrder } from '../payments/ports'
import { PAYABLE_STATUSES } from '../payments/rules'

const COLUMNS = [
  'orders.id',
  'orders.user_id',
  'orders.kind',
  'orders.status',
  'orders.amount',
  'orders.fee',
  'orders.discount',
  'orders.total',
  'orders.user_coupon_id',
  'orders.pay_method',
  'orders.payment_id',
  'orders.due_at',
] as const

interface Row {
  id: number
  user_id: number
  kind: string
  status: string
  amount: number
  fee: number
  discount: number
  total: number
  user_coupon_id: number | null
  pay_method: string | null
  payment_id: number | null
  due_at: number | null
}

const toPayable = (row: Row): PayableOrder => ({
  id: row.id,
  userId: row.user_id,
  kind: row.kind,
  status: row.status,
  goods: row.amount,
  fee: row.fee,
  discount: row.discount,
  total: row.total,
  userCouponId: row.user_coupon_id,
  payMethod: row.pay_method,
  paymentId: row.payment_id,
  dueAt: row.due_at,
})

/**
 * The SQL of what paying does to orders. Methods taking `tx` run in the payment's transaction;
 * every write is conditional on the order still being payable, so the row lock taken by `lock`
 * is the guard and the condition the last word.
 */
export class PayableRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  async lock(tx: Tx, orderIds: readonly number[]): Promise<PayableOrder[]> {
    if (orderIds.length === 0) return []
    let query = tx
      .selectFrom('orders')
      .select(COLUMNS)
      .where('orders.id', 'in', [...orderIds])
      .orderBy('orders.id')
    if (this.dialect === 'postgres') query = query.forUpdate()
    return (await query.execute()).map(toPayable)
  }

  async read(orderIds: readonly number[]): Promise<PayableOrder[]> {
    if (orderIds.length === 0) return []
    const rows = await this.db
      .selectFrom('orders')
      .select(COLUMNS)
      .where('orders.id', 'in', [...orderIds])
      .orderBy('orders.id')
      .execute()
    return rows.map(toPayable)
  }

  /** The mall item a mall order is for (what a coupon's scope is judged on). */
  mallItemOf(tx: Tx, orderId: number) {
    return tx
      .selectFrom('orders')
      .innerJoin('mall_items', 'mall_items.id', 'orders.mall_item_id')
      .select(['mall_items.product_no', 'mall_items.category_id'])
      .where('orders.id', '=', orderId)
      .executeTakeFirst()
  }

  /** A coupon's saving on an order that had none; false, and nothing changed, if it had one. */
  async applyDiscount(
    tx: Tx,
    orderId: number,
    userCouponId: number,
    discount: number,
  ): Promise<boolean> {
    const updated = await tx
      .updateTable('orders')
      .set((eb) => ({
        user_coupon_id: userCouponId,
        discount,
        total: eb(eb('amount', '+', eb.ref('fee')), '-', discount),
      }))
      .where('id', '=', orderId)
      .where('user_coupon_id', 'is', null)
      .where('status', 'in', PAYABLE_STATUSES)
      .executeTakeFirst()
    return updated.numUpdatedRows === 1n
  }

  async attach(
    tx: Tx,
    orderIds: readonly number[],
    paymentId: number,
    method: string,
  ): Promise<number> {
    const updated = await tx
      .updateTable('orders')
      .set({ payment_id: paymentId, pay_method: method })
      .where('id', 'in', [...orderIds])
      .where('status', 'in', PAYABLE_STATUSES)
      .executeTakeFirst()
    return Number(updated.numUpdatedRows)
  }

  /**
   * The buyer chose bank remittance: an unpaid mall order is held until `until` instead of its 30
   * minutes — once. An order already held (its due time past the 30 minutes from placing) keeps
   * its deadline, so choosing again never stretches a hold. A won lot's due time is not this one.
   */
  async holdForRemittance(tx: Tx, orderIds: readonly number[], until: number): Promise<void> {
    await tx
      .updateTable('orders')
      .set({ due_at: until })
      .where('id', 'in', [...orderIds])
      .where('kind', '=', 'mall')
      .where('status', '=', 'pending_payment')
      .where((eb) => eb('due_at', '<=', eb('created_at', '+', MALL_PAYMENT_MINUTES * 60_000)))
      .execute()
  }

  async markPaid(
    tx: Tx,
    orderIds: readonly number[],
    paid: { paymentId: number; method: string; now: number },
  ): Promise<number> {
    const updated = await tx
      .updateTable('orders')
      .set({
        status: 'paid',
        paid_at: paid.now,
        payment_id: paid.paymentId,
        pay_method: paid.method,
      })
      .where('id', 'in', [...orderIds])
      .where('status', 'in', PAYABLE_STATUSES)
      .executeTakeFirst()
    // 已售 counts units paid for: the mall items of the orders this payment just paid.
    const paidMall = await tx
      .selectFrom('orders')
      .select(['mall_item_id', 'quantity'])
      .where('id', 'in', [...orderIds])
      .where('payment_id', '=', paid.paymentId)
      .where('status', '=', 'paid')
      .where('kind', '=', 'mall')
      .orderBy('mall_item_id')
      .execute()
    for (const order of paidMall) {
      if (order.mall_item_id === null) continue
      await tx
        .updateTable('mall_items')
        .set((eb) => ({ sold: eb('sold', '+', order.quantity) }))
        .where('id', '=', order.mall_item_id)
        .execute()
    }
    return Number(updated.numUpdatedRows)
  }
}
