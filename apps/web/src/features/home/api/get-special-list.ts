import { queryOptions, useQuery } from '@tanstack/react-query'
import type { SpecialSummary } from '@numisma/contracts/catalog'
import {
  firstScreenData,
  firstScreenUpdatedAt,
  request,
  type RequestOptions,
} from '../../../lib/api-client'
import { listOf } from '../../../lib/list-of'
import { lazySchema } from '../../../lib/lazy-schema'

const specialsSchema = lazySchema(() =>
  import('@numisma/contracts/catalog').then((m) => listOf(m.SpecialSummarySchema)),
)

/** GET /special/V1: live and upcoming specials. */
function specialListCall(): RequestOptions<SpecialSummary[]> {
  return {
    path: '/special/V1',
    defaultError: 'GET_SPECIAL_LIST_FAILED',
    schema: specialsSchema,
  }
}

export function getSpecialList(): Promise<SpecialSummary[]> {
  return request(specialListCall())
}

export function getSpecialListQueryOptions() {
  return queryOptions({
    queryKey: ['special', 'list'],
    queryFn: getSpecialList,
    initialData: firstScreenData(specialListCall()),
    initialDataUpdatedAt: firstScreenUpdatedAt,
  })
}

export function useSpecialList() {
  return useQuery(getSpecialListQueryOptions())
}
