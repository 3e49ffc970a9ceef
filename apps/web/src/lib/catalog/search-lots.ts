import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import type { LotCard } from '@numisma/contracts/catalog'
import { requestPage, type Page, type QueryValue } from '../api-client'
import type { ClientErrorCode } from '@numisma/contracts/errors-client'
import { nextPageParam } from '../paging'
import type { SearchParams } from './search-params'
import { lazySchema } from '../lazy-schema'

const lotPageSchema = lazySchema(() =>
  Promise.all([import('@numisma/contracts/api'), import('@numisma/contracts/catalog')]).then(
    ([api, catalog]) => api.pageSchema(catalog.LotCardSchema),
  ),
)

/** GET /api/search/wechat?type=auction on the search service: one page of lots. */
export function searchLots(
  params: SearchParams,
  page: number,
  defaultError: ClientErrorCode = 'GET_BUYING_FAILED',
): Promise<Page<LotCard>> {
  return requestPage({
    service: 'search',
    path: '/api/search/wechat',
    query: { ...params, type: 'auction', page } satisfies Record<string, QueryValue>,
    defaultError,
    schema: lotPageSchema,
  })
}

export function searchLotsQueryOptions(params: SearchParams, defaultError?: ClientErrorCode) {
  return infiniteQueryOptions({
    queryKey: ['search', 'auction', params],
    queryFn: ({ pageParam }) => searchLots(params, pageParam, defaultError),
    initialPageParam: 1,
    getNextPageParam: nextPageParam,
  })
}

export function useSearchLots(params: SearchParams, defaultError?: ClientErrorCode) {
  return useInfiniteQuery(searchLotsQueryOptions(params, defaultError))
}
