import type { LotCard, LotDetail } from '@numisma/contracts/catalog'
import { tradeState } from '@numisma/domain/my-bids'

/** Whether the server has settled a lot (no more bidding, whatever the clock says). */
export const isLotClosed = (lot: Pick<LotCard, 'status'>): boolean =>
  lot.status === 'sold' || lot.status === 'unsold'

export type PriceLabelKey = 'lot.soldPrice' | 'lot.currentPrice' | 'lot.startPrice'

/**
 * The price a lot shows and what it is called (i18n key). Only a sold lot has a hammer price. An
 * unsold lot shows its start price as the start price: a highest bid that missed the reserve is
 * not a price the lot went for (the review found "结拍价 ¥1,120" on a lot nobody bought).
 */
export function shownPrice(lot: Pick<LotCard, 'status' | 'price' | 'startPrice'>): {
  labelKey: PriceLabelKey
  fen: number
} {
  switch (lot.status) {
    case 'sold':
    case 'live':
    case 'preview':
      if (lot.price === null) return { labelKey: 'lot.startPrice', fen: lot.startPrice }
      return {
        labelKey: lot.status === 'sold' ? 'lot.soldPrice' : 'lot.currentPrice',
        fen: lot.price,
      }
    case 'unsold':
      return { labelKey: 'lot.startPrice', fen: lot.startPrice }
  }
}

/** The highest bid of an unsold lot (it did not reach the reserve); null when nobody bid. */
export function unsoldHighestBid(lot: Pick<LotCard, 'status' | 'price'>): number | null {
  return lot.status === 'unsold' ? lot.price : null
}

/**
 * Where the caller ended on a closed lot: `won` (the server says so, and their order is waiting)
 * or `lost` when they took part; null while the lot is open and for onlookers. The rule is
 * domain's, the same one "my bids" files lots under.
 */
export function closedStanding(
  lot: Pick<LotDetail, 'status' | 'won'>,
  tookPart: boolean,
): 'won' | 'lost' | null {
  if (!isLotClosed(lot) || !(tookPart || lot.won)) return null
  return tradeState(lot.status, lot.won) === 'won' ? 'won' : 'lost'
}
