import { queryOptions, useQuery } from '@tanstack/react-query'
import type { MallItemDetail } from '@numisma/contracts/catalog'
import {
  firstScreenData,
  firstScreenUpdatedAt,
  isNotFound,
  request,
  type RequestOptions,
} from '../api-client'
import { lazySchema } from '../lazy-schema'

const mallItemSchema = lazySchema(() =>
  import('@numisma/contracts/catalog').then((m) => m.MallItemDetailSchema),
)

/**
 * GET /mallproduct/getMallByProductNo/{productNo}: one mall item. A 404 is not toasted: the pages
 * say the item does not exist (isNotFound) rather than "load failed"; other failures are.
 */
function mallItemCall(productNo: string): RequestOptions<MallItemDetail> {
  return {
    path: `/mallproduct/getMallByProductNo/${encodeURIComponent(productNo)}`,
    defaultError: 'GET_ITEM_INFO_FAILED',
    schema: mallItemSchema,
    silent: isNotFound,
  }
}

export function getMallItem(productNo: string): Promise<MallItemDetail> {
  return request(mallItemCall(productNo))
}

export function getMallItemQueryOptions(productNo: string) {
  return queryOptions({
    queryKey: ['mall', 'item', productNo],
    queryFn: () => getMallItem(productNo),
    initialData: firstScreenData(mallItemCall(productNo)),
    initialDataUpdatedAt: firstScreenUpdatedAt,
  })
}

export function useMallItem(productNo: string | undefined) {
  return useQuery({ ...getMallItemQueryOptions(productNo ?? ''), enabled: productNo !== undefined })
}
