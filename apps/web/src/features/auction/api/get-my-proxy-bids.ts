import { queryOptions, useQuery } from '@tanstack/react-query'
import { EntrustSchema, type Entrust, type EntrustState } from '@numisma/contracts/bidding'
import { request } from '../../../lib/api-client'
import { readSession } from '../../../lib/cookies'
import { listOf } from '../../../lib/list-of'
import { MY_BIDDING_KEY } from './query-keys'

/** GET /user/{userId}/@entrust?state=: my proxy bids (委托) in one state, newest first. */
export function getMyProxyBids(userId: string, state: EntrustState): Promise<Entrust[]> {
  return request({
    path: `/user/${encodeURIComponent(userId)}/@entrust`,
    query: { state },
    defaultError: 'GET_LIST_FAILED',
    schema: listOf(EntrustSchema),
  })
}

export function getMyProxyBidsQueryOptions(state: EntrustState) {
  return queryOptions({
    queryKey: [...MY_BIDDING_KEY, 'entrust', state],
    queryFn: () => getMyProxyBids(readSession()?.userId ?? '', state),
  })
}

export function useMyProxyBids(state: EntrustState) {
  return useQuery(getMyProxyBidsQueryOptions(state))
}
