import type { LotStatus } from './lot-status'

/** Where a bidder stands on a lot they bid on ("my bids", spec §7 @trade). */
export type TradeState = 'leading' | 'outbid' | 'won' | 'lost'

/** Where a proxy bid stands ("my proxy bids", spec §7 @entrust). */
export type EntrustState = 'active' | 'outbid' | 'won' | 'lost' | 'cancelled'

export function tradeState(status: LotStatus, leads: boolean): TradeState {
  if (status === 'sold' || status === 'unsold') return status === 'sold' && leads ? 'won' : 'lost'
  return leads ? 'leading' : 'outbid'
}

export function entrustState(status: LotStatus, leads: boolean, cancelled: boolean): EntrustState {
  if (cancelled) return 'cancelled'
  const trade = tradeState(status, leads)
  return trade === 'leading' ? 'active' : trade
}
