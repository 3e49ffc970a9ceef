import { queryOptions, useQuery } from '@tanstack/react-query'
import { MallCategoryNodeSchema, type MallCategoryNode } from '@numisma/contracts/catalog'
import { request } from '../api-client'
import { listOf } from '../list-of'

/** GET /mall/categoryTree: the nested mall categories. */
export function getMallCategoryTree(): Promise<MallCategoryNode[]> {
  return request({
    path: '/mall/categoryTree',
    defaultError: 'GET_MALL_CATEGORY_FAILED',
    schema: listOf(MallCategoryNodeSchema),
  })
}

export function getMallCategoryTreeQueryOptions() {
  return queryOptions({
    queryKey: ['catalog', 'mall-category-tree'],
    queryFn: getMallCategoryTree,
    staleTime: 10 * 60_000,
  })
}

export function useMallCategoryTree() {
  return useQuery(getMallCategoryTreeQueryOptions())
}
