import { queryOptions, useQuery } from '@tanstack/react-query'
import type { Trade, TradeState } from '@numisma/contracts/bidding'
import { request } from '../../../lib/api-client'
import { readSession } from '../../../lib/cookies'
import { listOf } from '../../../lib/list-of'
import { MY_BIDDING_KEY } from './query-keys'
import { lazySchema } from '../../../lib/lazy-schema'

const tradesSchema = lazySchema(() =>
  import('@numisma/contracts/bidding').then((m) => listOf(m.TradeSchema)),
)

/** GET /user/{userId}/@trade: every lot I have bid on (one call; the tabs filter it). */
export function getMyBids(userId: string, state?: TradeState): Promise<Trade[]> {
  return request({
    path: `/user/${encodeURIComponent(userId)}/@trade`,
    query: { state },
    defaultError: 'GET_BID_INFO_FAILED',
    schema: tradesSchema,
  })
}

export function getMyBidsQueryOptions() {
  return queryOptions({
    queryKey: [...MY_BIDDING_KEY, 'trade'],
    queryFn: () => getMyBids(readSession()?.userId ?? ''),
  })
}

export function useMyBids() {
  return useQuery(getMyBidsQueryOptions())
}

/**
 * Whether the caller has ever bid on a lot, from my bids rather than the lot's history: the history
 * comes a page at a time, and a bid older than its first page would be missed there.
 */
export function hasBidOnQueryOptions(lotId: number) {
  return queryOptions({
    ...getMyBidsQueryOptions(),
    select: (trades: Trade[]) => trades.some((trade) => trade.id === lotId),
  })
}

export function useHasBidOn(lotId: number | undefined) {
  return useQuery({ ...hasBidOnQueryOptions(lotId ?? 0), enabled: lotId !== undefined })
}
