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
