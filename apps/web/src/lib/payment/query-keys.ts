/**
 * Query keys of payments and recharges: the success page polls one payment, the recharge page one
 * recharge, both under one root.
 */
export const PAYMENTS_KEY = ['payments'] as const
export const RECHARGES_KEY = ['recharges'] as const
