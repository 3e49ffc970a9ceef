import { queryOptions, useQuery } from '@tanstack/react-query'
import type { Category } from '@numisma/contracts/catalog'
import { firstScreenData, firstScreenUpdatedAt, request, type RequestOptions } from '../api-client'
import { listOf } from '../list-of'
import { lazySchema } from '../lazy-schema'

const categoriesSchema = lazySchema(() =>
  import('@numisma/contracts/catalog').then((m) => listOf(m.CategorySchema)),
)

/** GET /meta/@category: the auction categories. */
function categoriesCall(): RequestOptions<Category[]> {
  return {
    path: '/meta/@category',
    defaultError: 'GET_CATEGORY_FAILED',
    schema: categoriesSchema,
  }
}

export function getCategories(): Promise<Category[]> {
  return request(categoriesCall())
}

export function getCategoriesQueryOptions() {
  return queryOptions({
    queryKey: ['catalog', 'categories'],
    queryFn: getCategories,
    initialData: firstScreenData(categoriesCall()),
    initialDataUpdatedAt: firstScreenUpdatedAt,
    staleTime: 10 * 60_000,
  })
}

export function useCategories() {
  return useQuery(getCategoriesQueryOptions())
}
