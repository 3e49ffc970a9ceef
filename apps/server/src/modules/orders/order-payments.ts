import { MIN_TOTAL } from '@numisma/domain/coupons'
import { REMITTANCE_HOLD_MS } from '@numisma/domain/fees'
import type { Database } from '../../platform/db'
import type { Tx } from '../../platform/transactions'
import type { PayableOrder, PayableOrders } from '../payments/ports'
import type { CouponHolds } from './coupon-holds'
import { PayableRepository } from './payable-repository'
import { OrdersRepository } from './repository'

export interface OrderPaymentsDeps {
  payable: PayableRepository
  /** The category chain a coupon's scope is judged on (shared with placing an order). */
  orders: Pick<OrdersRepository, 'categoryChain'>
  holds: CouponHolds
}

/**
 * The orders module's side of paying (the `PayableOrders` port of modules/payments): locking the
 * orders a payment names, a coupon chosen at payment, waiting for a payment, and being paid.
 * Everything runs in the payment's transaction, after the orders' row locks.
 */
export class OrderPayments implements PayableOrders {
  constructor(private readonly deps: OrderPaymentsDeps) {}

  lock(tx: Tx, orderIds: readonly number[]): Promise<PayableOrder[]> {
    return this.deps.payable.lock(tx, orderIds)
  }

  read(orderIds: readonly number[]): Promise<PayableOrder[]> {
    return this.deps.payable.read(orderIds)
  }

  async applyCoupon(
    tx: Tx,
    order: PayableOrder,
    userCouponId: number,
    now: number,
  ): Promise<PayableOrder | null> {
    const { payable, orders, holds } = this.deps
    if (order.kind !== 'mall' || order.userCouponId !== null) return null
    const item = await payable.mallItemOf(tx, order.id)
    if (!item) return null
    const line = {
      productNo: item.product_no,
      categoryIds: await orders.categoryChain(tx, item.category_id),
      goods: order.goods,
    }
    const claim = await holds.claim(tx, { userId: order.userId, userCouponId, line, now })
    if (!claim) return null
    // As placing an order does: never more than the goods, whatever the coupons module says.
    const discount = Math.min(Math.max(0, claim.saving), order.goods - MIN_TOTAL)
    if (!(await payable.applyDiscount(tx, order.id, userCouponId, discount))) return null
    await holds.lock(tx, userCouponId, order.id)
    return { ...order, userCouponId, discount, total: order.goods + order.fee - discount }
  }

  async attach(
    tx: Tx,
    orders: readonly PayableOrder[],
    paymentId: number,
    method: string,
    now: number,
  ): Promise<void> {
    const ids = orders.map((o) => o.id)
    if ((await this.deps.payable.attach(tx, ids, paymentId, method)) !== ids.length) {
      throw new Error(`orders ${ids.join(',')} are no longer payable; lock them first`)
    }
    if (method === 'remittance') {
      await this.deps.payable.holdForRemittance(tx, ids, now + REMITTANCE_HOLD_MS)
    }
  }

  async markPaid(
    tx: Tx,
    orders: readonly PayableOrder[],
    paymentId: number,
    method: string,
    now: number,
  ): Promise<void> {
    const ids = orders.map((o) => o.id)
    if ((await this.deps.payable.markPaid(tx, ids, { paymentId, method, now })) !== ids.length) {
      throw new Error(`orders ${ids.join(',')} are no longer payable; lock them first`)
    }
    for (const order of orders) {
      if (order.userCouponId !== null) {
        await this.deps.holds.consume(tx, order.userCouponId, order.id, now)
      }
    }
  }
}

/** What app.ts passes to the payments module. */
export const orderPaymentsFor = (database: Database, holds: CouponHolds): OrderPayments =>
  new OrderPayments({
    payable: new PayableRepository(database.db, database.dialect),
    orders: new OrdersRepository(database.db, database.dialect),
    holds,
  })
