/**
 * The buyer's handling fee on a won lot, in basis points of the hammer price, rounded up to the
 * fen (DESIGN §4 "price + handling fee"; the rate is ours: docs/decisions/005-bidding.md).
 */
export const DEFAULT_HANDLING_FEE_BPS = 1000

export function handlingFee(hammer: number, bps = DEFAULT_HANDLING_FEE_BPS): number {
  return Math.ceil((hammer * bps) / 10_000)
}

/** Payment for a won lot is due this long after closing. */
export const AUCTION_PAYMENT_DAYS = 3

/** An unpaid mall order is cancelled this long after it was placed (DESIGN §5). */
export const MALL_PAYMENT_MINUTES = 30

/**
 * A mall order whose buyer chose bank remittance keeps its stock and coupon this long from that
 * (first) choice, then expires unless a remittance notice waiting for staff names it (ADR 012,
 * amendment): a transfer takes a day or two, a hold must still end.
 */
export const REMITTANCE_HOLD_MS = 3 * 24 * 60 * 60 * 1000

/** The messaging-app channel's fee on a deposit recharge, in basis points (0.6 %). */
export const RECHARGE_FEE_BPS = 60

/** The channel's fee on a recharge, paid on top by the user: rounded up to the fen. */
export function rechargeFee(amount: number, bps = RECHARGE_FEE_BPS): number {
  return Math.ceil((amount * bps) / 10_000)
}
