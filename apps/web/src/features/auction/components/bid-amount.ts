import { BID_AMOUNT_MAX } from '@numisma/contracts/limits'
import { minimumBidFor } from '@numisma/domain/bid-engine'
import { isOnGrid, nearestOnGrid, type PriceStep } from '@numisma/domain/increments'

/**
 * The amounts the bid bar offers, from domain's grid over the increment table the server serves
 * (GET /bidding/price-step): an operator can change the table, so the web keeps no copy of it.
 * Every function needs a non-empty table.
 */

export type BidMode = 'direct' | 'proxy'

export interface BidFloorInput {
  price: number | null
  startPrice: number
  leading: boolean
  myMax: number | null
}

/** The most a bid may be (the request schema's ceiling). */
export const MAX_BID = BID_AMOUNT_MAX

/** The lowest amount the server accepts, by the engine's own rule (packages/domain). */
export function minimumBid(lot: BidFloorInput, mode: BidMode, steps: readonly PriceStep[]): number {
  // A leader's direct bid is refused outright (ALREADY_LEADING); the bar offers them the proxy.
  return minimumBidFor(lot, { leading: mode === 'proxy' && lot.leading, myMax: lot.myMax }, steps)
}

/** One grid step down from a valid amount; undefined when that would go below `minimum`. */
export function previousAmount(
  amount: number,
  minimum: number,
  steps: readonly PriceStep[],
): number | undefined {
  const below = isOnGrid(amount - 1, steps) ? amount - 1 : nearestOnGrid(amount - 1, steps).below
  return below === null || below < minimum ? undefined : below
}

/** The amount the stepper shows: the collector's choice while still valid, else the minimum. */
export function effectiveAmount(
  chosen: number | null,
  minimum: number,
  steps: readonly PriceStep[],
): number {
  return chosen !== null && chosen >= minimum && isOnGrid(chosen, steps) ? chosen : minimum
}

/** What a typed amount (whole yuan, as the keypad gives it) means for the bid. */
export type TypedBid =
  | { kind: 'empty' }
  | { kind: 'valid'; amount: number }
  | { kind: 'below-minimum'; minimum: number }
  /** Not on the grid: the one or two nearest valid amounts not below the minimum. */
  | { kind: 'off-grid'; amount: number; choices: number[] }
  | { kind: 'too-high'; maximum: number }

export function checkTypedBid(
  yuan: string,
  minimum: number,
  steps: readonly PriceStep[],
): TypedBid {
  const digits = yuan.trim()
  if (!/^\d+$/.test(digits)) return { kind: 'empty' }
  const amount = Number(digits) * 100
  if (amount < minimum) return { kind: 'below-minimum', minimum }
  if (amount > MAX_BID) return { kind: 'too-high', maximum: MAX_BID }
  if (isOnGrid(amount, steps)) return { kind: 'valid', amount }
  const { below, above } = nearestOnGrid(amount, steps)
  const choices = [below, above].filter(
    (choice): choice is number => choice !== null && choice >= minimum && choice <= MAX_BID,
  )
  return { kind: 'off-grid', amount, choices }
}
