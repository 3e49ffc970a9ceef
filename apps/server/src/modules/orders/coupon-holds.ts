import type { CouponLine } from '@numisma/domain/coupons'
import type { Tx } from '../../platform/transactions'

/**
 * What placing, cancelling and expiring a mall order need from coupons, inside the order's own
 * transaction (the coupons module implements it; app.ts passes it in). Each step knows its undo:
 * `lock` is undone by `release`.
 */
export interface CouponHolds {
  /**
   * Locks the caller's received coupon row (PostgreSQL `FOR UPDATE`) and judges it for the line at
   * `now`: the saving it gives, or null when it is not the caller's, not usable (locked, used),
   * outside its window, out of scope, below its threshold or saves nothing.
   */
  claim(
    tx: Tx,
    request: { userId: number; userCouponId: number; line: CouponLine; now: number },
  ): Promise<{ saving: number } | null>
  /** The claimed coupon is held by the new order until it is paid or cancelled. */
  lock(tx: Tx, userCouponId: number, orderId: number): Promise<void>
  /**
   * The unpaid order holding the coupon was cancelled or expired: the coupon is usable again.
   * Only a coupon locked by that order changes, so a second release does nothing.
   */
  release(tx: Tx, userCouponId: number, orderId: number): Promise<void>
  /**
   * The order holding the coupon was paid: the coupon is used (`used_at` = now). Throws if that
   * order does not hold it, rolling the payment back rather than paying with a coupon twice.
   */
  consume(tx: Tx, userCouponId: number, orderId: number, now: number): Promise<void>
}
