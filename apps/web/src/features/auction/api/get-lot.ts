import { queryOptions, useQuery } from '@tanstack/react-query'
import { LotDetailSchema, type LotDetail } from '@numisma/contracts/catalog'
import { request } from '../../../lib/api-client'

/** GET /auction/{id}: one lot with its live state. */
export function getLot(id: number): Promise<LotDetail> {
  return request({
    path: `/auction/${id}`,
    defaultError: 'GET_ITEM_INFO_FAILED',
    schema: LotDetailSchema,
  })
}

export function getLotQueryOptions(id: number) {
  return queryOptions({
    queryKey: ['auction', id],
    queryFn: () => getLot(id),
    // The price moves while the page is open; push updates arrive in a later issue.
    staleTime: 5_000,
  })
}

export function useLot(id: number | undefined) {
  return useQuery({ ...getLotQueryOptions(id ?? 0), enabled: id !== undefined })
}
