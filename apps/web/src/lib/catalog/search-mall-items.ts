import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import type { MallItemCard } from '@numisma/contracts/catalog'
import { requestPage, type Page } from '../api-client'
import { nextPageParam } from '../paging'
import type { SearchParams } from './search-params'
import { lazySchema } from '../lazy-schema'

const mallItemPageSchema = lazySchema(() =>
  Promise.all([import('@numisma/contracts/api'), import('@numisma/contracts/catalog')]).then(
    ([api, catalog]) => api.pageSchema(catalog.MallItemCardSchema),
  ),
)

/** GET /api/search/wechat?type=mall on the search service: one page of mall items. */
export function searchMallItems(params: SearchParams, page: number): Promise<Page<MallItemCard>> {
  const { status: _status, ...rest } = params
  return requestPage({
    service: 'search',
    path: '/api/search/wechat',
    // Status is an auction filter; mall items are either on sale or not listed.
    query: { ...rest, type: 'mall', page },
    defaultError: 'GET_MALL_FAILED',
    schema: mallItemPageSchema,
  })
}

export function searchMallItemsQueryOptions(params: SearchParams) {
  return infiniteQueryOptions({
    queryKey: ['search', 'mall', params],
    queryFn: ({ pageParam }) => searchMallItems(params, pageParam),
    initialPageParam: 1,
    getNextPageParam: nextPageParam,
  })
}

export function useSearchMallItems(params: SearchParams) {
  return useInfiniteQuery(searchMallItemsQueryOptions(params))
}
