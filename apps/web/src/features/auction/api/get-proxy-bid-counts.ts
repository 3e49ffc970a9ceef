import { queryOptions, useQuery } from '@tanstack/react-query'
import { EntrustCountsSchema, type EntrustCounts } from '@numisma/contracts/bidding'
import { request } from '../../../lib/api-client'
import { MY_BIDDING_KEY } from './query-keys'

/** GET /user/queryEntrustSortTotal: how many proxy bids I have in each state. */
export function getProxyBidCounts(): Promise<EntrustCounts> {
  return request({
    path: '/user/queryEntrustSortTotal',
    defaultError: 'GET_QUANTITY_FAILED',
    schema: EntrustCountsSchema,
  })
}

export function getProxyBidCountsQueryOptions() {
  return queryOptions({
    queryKey: [...MY_BIDDING_KEY, 'entrust-counts'],
    queryFn: getProxyBidCounts,
  })
}

export function useProxyBidCounts() {
  return useQuery(getProxyBidCountsQueryOptions())
}
