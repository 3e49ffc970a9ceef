import { queryOptions, useQuery } from '@tanstack/react-query'
import { SpecialSummarySchema, type SpecialSummary } from '@numisma/contracts/catalog'
import { request } from '../../../lib/api-client'
import { listOf } from '../../../lib/list-of'

/** GET /special/V1: live and upcoming specials. */
export function getSpecialList(): Promise<SpecialSummary[]> {
  return request({
    path: '/special/V1',
    defaultError: 'GET_SPECIAL_LIST_FAILED',
    schema: listOf(SpecialSummarySchema),
  })
}

export function getSpecialListQueryOptions() {
  return queryOptions({ queryKey: ['special', 'list'], queryFn: getSpecialList })
}

export function useSpecialList() {
  return useQuery(getSpecialListQueryOptions())
}
