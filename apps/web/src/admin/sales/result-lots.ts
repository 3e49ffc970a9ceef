import type { ResultLot, SalesBuyer } from '@numisma/contracts/staff-sales'

/**
 * Whom a results row names: the buyer of a lot sold, or — for a lot unsold below its reserve — the
 * highest bidder, whom the house may call to negotiate. Nobody otherwise.
 */
export function shownBuyer(
  lot: Pick<ResultLot, 'buyer' | 'highestBidder' | 'unsoldReason'>,
): { buyer: SalesBuyer; role: 'buyer' | 'highestBidder' } | null {
  if (lot.buyer) return { buyer: lot.buyer, role: 'buyer' }
  if (lot.unsoldReason === 'reserve_not_met' && lot.highestBidder)
    return { buyer: lot.highestBidder, role: 'highestBidder' }
  return null
}
