import type { LotStatus } from './lot-status'

/** The part of a lot a sale's totals read. */
export interface TotalledLot {
  status: LotStatus
  price: number | null
  bidCount: number
  watchers?: number
}

export interface SaleTotals {
  lots: number
  sold: number
  unsold: number
  hammer: number
  bids: number
  watchers: number
  sellThrough: number
}

/**
 * What a sale has taken so far (issue 12's live view and closing results): the server answers
 * with it, and the console sums again as push updates change prices and statuses, by this one rule.
 * Sell-through is sold over closed lots (per cent, one decimal): an unfinished sale is judged by
 * what has been decided.
 */
export function saleTotals(lots: readonly TotalledLot[]): SaleTotals {
  let sold = 0
  let unsold = 0
  let hammer = 0
  let bids = 0
  let watchers = 0
  for (const lot of lots) {
    bids += lot.bidCount
    watchers += lot.watchers ?? 0
    if (lot.status === 'sold') {
      sold += 1
      hammer += lot.price ?? 0
    } else if (lot.status === 'unsold') {
      unsold += 1
    }
  }
  const closed = sold + unsold
  return {
    lots: lots.length,
    sold,
    unsold,
    hammer,
    bids,
    watchers,
    sellThrough: closed === 0 ? 0 : Math.round((sold / closed) * 1000) / 10,
  }
}

/**
 * Why a lot closed unsold (issue 12's results): bids that stopped below the reserve — the house
 * may still negotiate with the highest bidder — or no bid at all. Null when neither explains it.
 */
export function unsoldReason(lot: {
  price: number | null
  bidCount: number
  reservePrice: number | null
}): 'reserve_not_met' | 'no_bids' | null {
  if (lot.price === null || lot.bidCount === 0) return 'no_bids'
  return lot.reservePrice !== null && lot.price < lot.reservePrice ? 'reserve_not_met' : null
}
