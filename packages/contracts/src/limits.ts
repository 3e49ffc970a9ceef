/**
 * Limits the server's schemas enforce and the web app's forms apply before sending, zod-free: the
 * forms are part of the item pages' first load, which does not load zod (issue 13).
 */

/** The highest bid or proxy maximum, in fen (bidding.ts `BidRequestSchema`). */
export const BID_AMOUNT_MAX = 100_000_000_000

/** The most units of a mall item one order buys (mall.ts `CreateOrderRequestSchema`). */
export const ORDER_QUANTITY_MAX = 999
