import type { Tx } from '../../platform/transactions'

/**
 * What paying needs from other modules, and what other modules need from paying; app.ts wires the
 * implementations in (a module never imports another's repository).
 */

/** The payment password (modules/account implements it). */
export interface PayPasswordCheck {
  /**
   * Checks the caller's payment password before money moves from their balance. Throws
   * PAY_PASSWORD_NOT_SET, PAY_LOCKED (5 wrong tries lock payment for 3 hours) or
   * PAY_PASSWORD_WRONG (the try is counted); returns when it is right (the count is reset).
   * Runs outside any transaction: hashing is slow, and a wrong try must be counted even though
   * the payment is refused.
   */
  verify(userId: number, password: string | undefined): Promise<void>
}

/** Paying orders from a balance inside another use case's transaction (a confirmed remittance). */
export interface OrderSettlement {
  /**
   * Pays the user's named pending orders from their balance in the caller's transaction, as one
   * payment; orders that are no longer payable are skipped, and nothing is paid when the balance
   * does not cover the rest. Returns the payment id, or null when nothing was paid.
   */
  settleFromBalance(
    tx: Tx,
    userId: number,
    orderIds: readonly number[],
    now: number,
  ): Promise<number | null>
}

/** An order as paying judges it, read under its row lock (or, for a preview, as last committed). */
export interface PayableOrder {
  id: number
  userId: number
  kind: string
  status: string
  goods: number
  fee: number
  discount: number
  total: number
  userCouponId: number | null
  payMethod: string | null
  paymentId: number | null
  dueAt: number | null
}

/**
 * What paying does to orders (modules/orders implements it in its own files; app.ts passes it in).
 * Methods taking `tx` run in the payment's transaction; orders are always locked before anything
 * else a payment touches (coupons, then ledger accounts).
 */
export interface PayableOrders {
  /** Locks the orders (in id order, so payers cannot deadlock); ids that do not exist are absent. */
  lock(tx: Tx, orderIds: readonly number[]): Promise<PayableOrder[]>
  /** The orders as last committed (previews; nothing is locked). */
  read(orderIds: readonly number[]): Promise<PayableOrder[]>
  /**
   * Applies the caller's coupon to a locked mall order that has none: claims it for the order's
   * line, holds it for the order and takes its saving off the order's total. Null, and nothing
   * changed, when the coupon does not apply to that order.
   */
  applyCoupon(
    tx: Tx,
    order: PayableOrder,
    userCouponId: number,
    now: number,
  ): Promise<PayableOrder | null>
  /**
   * The orders wait for this payment (`payment_id`, `pay_method`); choosing remittance at `now`
   * gives a mall order REMITTANCE_HOLD_MS from its first such choice (packages/domain/src/fees.ts).
   */
  attach(
    tx: Tx,
    orders: readonly PayableOrder[],
    paymentId: number,
    method: string,
    now: number,
  ): Promise<void>
  /**
   * The orders are paid by this payment: `paid`, `paid_at`, `payment_id`, `pay_method`, and the
   * coupon each holds is used. Throws (rolling the payment back) if one is no longer payable.
   */
  markPaid(
    tx: Tx,
    orders: readonly PayableOrder[],
    paymentId: number,
    method: string,
    now: number,
  ): Promise<void>
}
