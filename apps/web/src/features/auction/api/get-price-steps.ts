import { queryOptions, useQuery } from '@tanstack/react-query'
import { PriceStepSchema, type PriceStepRow } from '@numisma/contracts/bidding'
import { request } from '../../../lib/api-client'
import { listOf } from '../../../lib/list-of'

/** GET /bidding/price-step: the increment table, in fen. */
export function getPriceSteps(): Promise<PriceStepRow[]> {
  return request({
    path: '/bidding/price-step',
    defaultError: 'GET_LIST_FAILED',
    schema: listOf(PriceStepSchema),
  })
}

export function getPriceStepsQueryOptions() {
  return queryOptions({
    queryKey: ['bidding', 'price-step'],
    queryFn: getPriceSteps,
    staleTime: 10 * 60_000,
  })
}

export function usePriceSteps() {
  return useQuery(getPriceStepsQueryOptions())
}
