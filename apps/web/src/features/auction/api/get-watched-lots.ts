import { queryOptions, useQuery } from '@tanstack/react-query'
import type { LotCard } from '@numisma/contracts/catalog'
import { request } from '../../../lib/api-client'
import { listOf } from '../../../lib/list-of'
import { lazySchema } from '../../../lib/lazy-schema'

const lotCardsSchema = lazySchema(() =>
  import('@numisma/contracts/catalog').then((m) => listOf(m.LotCardSchema)),
)

/** GET /user/auction/queryUserAttentions: the lots the caller watches. */
export function getWatchedLots(): Promise<LotCard[]> {
  return request({
    path: '/user/auction/queryUserAttentions',
    defaultError: 'GET_WATCH_LIST_FAILED',
    schema: lotCardsSchema,
  })
}

export function getWatchedLotsQueryOptions() {
  return queryOptions({ queryKey: ['watch', 'lots'], queryFn: getWatchedLots })
}

export function useWatchedLots() {
  return useQuery(getWatchedLotsQueryOptions())
}
