import type { PushLot } from '@numisma/contracts/push'
import type { LiveView } from '@numisma/contracts/staff-sales'
import { reserveMet } from '@numisma/domain/lot-status'
import { saleTotals } from '@numisma/domain/sales-totals'

/** The push socket takes at most this many lots per subscribe (contracts/push). */
export const LIVE_SUBSCRIBE_MAX = 200

/**
 * A lot update from the push socket applied to the live view: the lot's price, bid count, end
 * (soft close) and status, its reserve judged again and the totals summed again by the domain's
 * rule. The leader's id and mobile come with the next read (the socket only names them masked).
 * An update older than what the view holds (fewer bids) is ignored.
 */
export function applyLotUpdate<V extends LiveView>(view: V, update: PushLot): V {
  const index = view.lots.findIndex((lot) => lot.id === update.lotId)
  if (index < 0) return view
  const lot = view.lots[index]!
  if (update.bidCount < lot.bidCount) return view
  const changed = {
    ...lot,
    price: update.price,
    bidCount: update.bidCount,
    endsAt: update.endsAt,
    status: update.status,
    reserveMet: reserveMet({ price: update.price, reservePrice: lot.reservePrice }),
  }
  const lots = view.lots.map((l, i) => (i === index ? changed : l))
  return { ...view, lots, totals: saleTotals(lots) }
}

/** The lots still worth following: those not closed, first by lot number, within the cap. */
export function lotsToFollow(view: LiveView): number[] {
  return view.lots
    .filter((lot) => lot.status === 'live' || lot.status === 'preview')
    .slice(0, LIVE_SUBSCRIBE_MAX)
    .map((lot) => lot.id)
}

/** Server time minus this browser's clock, from when the view was read. */
export function clockOffset(serverTime: string, receivedAt: number): number {
  const server = Date.parse(serverTime)
  return Number.isNaN(server) ? 0 : server - receivedAt
}
