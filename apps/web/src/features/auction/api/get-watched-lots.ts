import { queryOptions, useQuery } from '@tanstack/react-query'
import { LotCardSchema, type LotCard } from '@numisma/contracts/catalog'
import { request } from '../../../lib/api-client'
import { listOf } from '../../../lib/list-of'

/** GET /user/auction/queryUserAttentions: the lots the caller watches. */
export function getWatchedLots(): Promise<LotCard[]> {
  return request({
    path: '/user/auction/queryUserAttentions',
    defaultError: 'GET_WATCH_LIST_FAILED',
    schema: listOf(LotCardSchema),
  })
}

export function getWatchedLotsQueryOptions() {
  return queryOptions({ queryKey: ['watch', 'lots'], queryFn: getWatchedLots })
}

export function useWatchedLots() {
  return useQuery(getWatchedLotsQueryOptions())
}
