import { queryOptions, useQuery } from '@tanstack/react-query'
import { SpecialDetailSchema, type SpecialDetail } from '@numisma/contracts/catalog'
import { request } from '../../../lib/api-client'

/** GET /special/{id}: a special with its lots in lot order. */
export function getSpecial(id: number): Promise<SpecialDetail> {
  return request({
    path: `/special/${id}`,
    defaultError: 'GET_SPECIAL_FAILED',
    schema: SpecialDetailSchema,
  })
}

export function getSpecialQueryOptions(id: number) {
  return queryOptions({ queryKey: ['special', id], queryFn: () => getSpecial(id) })
}

export function useSpecial(id: number | undefined) {
  return useQuery({ ...getSpecialQueryOptions(id ?? 0), enabled: id !== undefined })
}
