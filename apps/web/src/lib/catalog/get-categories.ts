import { queryOptions, useQuery } from '@tanstack/react-query'
import { CategorySchema, type Category } from '@numisma/contracts/catalog'
import { request } from '../api-client'
import { listOf } from '../list-of'

/** GET /meta/@category: the auction categories. */
export function getCategories(): Promise<Category[]> {
  return request({
    path: '/meta/@category',
    defaultError: 'GET_CATEGORY_FAILED',
    schema: listOf(CategorySchema),
  })
}

export function getCategoriesQueryOptions() {
  return queryOptions({
    queryKey: ['catalog', 'categories'],
    queryFn: getCategories,
    staleTime: 10 * 60_000,
  })
}

export function useCategories() {
  return useQuery(getCategoriesQueryOptions())
}
