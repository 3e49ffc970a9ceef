import { couponRefusal, couponSaving } from '@numisma/domain/coupons'
import type { Database } from '../../platform/db'
import type { Tx } from '../../platform/transactions'
import type { CouponHolds } from '../orders/coupon-holds'
import { ruleOf } from './mappers'
import { CouponRepository } from './repository'

type HoldRepository = Pick<
  CouponRepository,
  'lockUserCoupon' | 'lockFor' | 'releaseFrom' | 'useFrom'
>

/**
 * The coupons module's side of placing, cancelling and expiring a mall order (the `CouponHolds`
 * the orders module declares), run inside the order's transaction. A received coupon is one row;
 * every change to it is conditional on its status, so two orders never both hold it and a
 * release happens once.
 */
export class CouponHoldService implements CouponHolds {
  constructor(private readonly coupons: HoldRepository) {}

  async claim(
    tx: Tx,
    request: Parameters<CouponHolds['claim']>[1],
  ): Promise<{ saving: number } | null> {
    const held = await this.coupons.lockUserCoupon(tx, request.userCouponId)
    if (!held || held.userId !== request.userId || held.status !== 'usable') return null
    const rule = ruleOf(held.coupon)
    if (couponRefusal(rule, request.line, request.now) !== null) return null
    const saving = couponSaving(rule, request.line.goods)
    return saving > 0 ? { saving } : null
  }

  async lock(tx: Tx, userCouponId: number, orderId: number): Promise<void> {
    // `claim` took the row lock and saw it usable in this transaction, so this cannot miss; if a
    // caller skipped the claim, failing here rolls its order back rather than using a coupon twice.
    if (!(await this.coupons.lockFor(tx, userCouponId, orderId))) {
      throw new Error(`user coupon ${userCouponId} is not usable; claim it first`)
    }
  }

  async release(tx: Tx, userCouponId: number, orderId: number): Promise<void> {
    await this.coupons.releaseFrom(tx, userCouponId, orderId)
  }

  async consume(tx: Tx, userCouponId: number, orderId: number, now: number): Promise<void> {
    // The paying order is locked and still holds its coupon (only its own cancel releases it),
    // so this cannot miss; if it does, the payment rolls back rather than spend a coupon twice.
    if (!(await this.coupons.useFrom(tx, userCouponId, orderId, now))) {
      throw new Error(`user coupon ${userCouponId} is not held by order ${orderId}`)
    }
  }
}

/** The holds app.ts passes to the orders module. */
export const couponHoldsFor = (database: Database): CouponHoldService =>
  new CouponHoldService(new CouponRepository(database.db, database.dialect))
