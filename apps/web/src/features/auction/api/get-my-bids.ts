import { queryOptions, useQuery } from '@tanstack/react-query'
import { TradeSchema, type Trade, type TradeState } from '@numisma/contracts/bidding'
import { request } from '../../../lib/api-client'
import { readSession } from '../../../lib/cookies'
import { listOf } from '../../../lib/list-of'
import { MY_BIDDING_KEY } from './query-keys'

/** GET /user/{userId}/@trade: every lot I have bid on (one call; the tabs filter it). */
export function getMyBids(userId: string, state?: TradeState): Promise<Trade[]> {
  return request({
    path: `/user/${encodeURIComponent(userId)}/@trade`,
    query: { state },
    defaultError: 'GET_BID_INFO_FAILED',
    schema: listOf(TradeSchema),
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
