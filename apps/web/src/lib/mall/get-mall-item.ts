import { queryOptions, useQuery } from '@tanstack/react-query'
import { MallItemDetailSchema, type MallItemDetail } from '@numisma/contracts/catalog'
import { request } from '../api-client'

/** GET /mallproduct/getMallByProductNo/{productNo}: one mall item. */
export function getMallItem(productNo: string): Promise<MallItemDetail> {
  return request({
    path: `/mallproduct/getMallByProductNo/${encodeURIComponent(productNo)}`,
    defaultError: 'GET_ITEM_INFO_FAILED',
    schema: MallItemDetailSchema,
  })
}

export function getMallItemQueryOptions(productNo: string) {
  return queryOptions({
    queryKey: ['mall', 'item', productNo],
    queryFn: () => getMallItem(productNo),
  })
}

export function useMallItem(productNo: string | undefined) {
  return useQuery({ ...getMallItemQueryOptions(productNo ?? ''), enabled: productNo !== undefined })
}
