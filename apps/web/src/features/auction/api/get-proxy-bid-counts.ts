import { queryOptions, useQuery } from '@tanstack/react-query'
import { ENTRUST_STATES } from '@numisma/contracts/bidding'
import { request } from '../../../lib/api-client'
import type { EntrustState } from './get-my-proxy-bids'

export type ProxyBidCounts = Record<EntrustState, number>

const ProxyBidCountsSchema = {
  parse(value: unknown): ProxyBidCounts {
    const row = (typeof value === 'object' && value !== null ? value : {}) as Record<
      string,
      unknown
    >
    const counts = {} as ProxyBidCounts
    for (const state of ENTRUST_STATES) {
      const n = row[state] ?? 0
      if (!Number.isSafeInteger(n)) throw new TypeError('not a count')
      counts[state] = n as number
    }
    return counts
  },
}

/** GET /user/queryEntrustSortTotal: how many proxy bids I have in each state. */
export function getProxyBidCounts(): Promise<ProxyBidCounts> {
  return request({
    path: '/user/queryEntrustSortTotal',
    defaultError: 'GET_QUANTITY_FAILED',
    schema: ProxyBidCountsSchema,
  })
}

export function getProxyBidCountsQueryOptions() {
  return queryOptions({
    queryKey: ['bidding', 'mine', 'entrust-counts'],
    queryFn: getProxyBidCounts,
  })
}

export function useProxyBidCounts() {
  return useQuery(getProxyBidCountsQueryOptions())
}
