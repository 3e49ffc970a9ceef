import { pageSchema } from '@numisma/contracts/api'
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { LotCardSchema, type LotCard } from '@numisma/contracts/catalog'
import { requestPage, type Page, type QueryValue } from '../api-client'
import type { ErrorCode } from '@numisma/contracts/errors'
import { nextPageParam } from '../paging'
import type { SearchParams } from './search-params'

/** GET /api/search/wechat?type=auction on the search service: one page of lots. */
export function searchLots(
  params: SearchParams,
  page: number,
  defaultError: ErrorCode = 'GET_BUYING_FAILED',
): Promise<Page<LotCard>> {
  return requestPage({
    service: 'search',
    path: '/api/search/wechat',
    query: { ...params, type: 'auction', page } satisfies Record<string, QueryValue>,
    defaultError,
    schema: pageSchema(LotCardSchema),
  })
}

export function searchLotsQueryOptions(params: SearchParams, defaultError?: ErrorCode) {
  return infiniteQueryOptions({
    queryKey: ['search', 'auction', params],
    queryFn: ({ pageParam }) => searchLots(params, pageParam, defaultError),
    initialPageParam: 1,
    getNextPageParam: nextPageParam,
  })
}

export function useSearchLots(params: SearchParams, defaultError?: ErrorCode) {
  return useInfiniteQuery(searchLotsQueryOptions(params, defaultError))
}
