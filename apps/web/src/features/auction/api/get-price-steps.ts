import { queryOptions, useQuery } from '@tanstack/react-query'
import type { PriceStepRow } from '@numisma/contracts/bidding'
import {
  firstScreenData,
  firstScreenUpdatedAt,
  request,
  type RequestOptions,
} from '../../../lib/api-client'
import { listOf } from '../../../lib/list-of'
import { lazySchema } from '../../../lib/lazy-schema'

const priceStepsSchema = lazySchema(() =>
  import('@numisma/contracts/bidding').then((m) => listOf(m.PriceStepSchema)),
)

/** GET /bidding/price-step: the increment table, in fen. */
function priceStepsCall(): RequestOptions<PriceStepRow[]> {
  return {
    path: '/bidding/price-step',
    defaultError: 'GET_LIST_FAILED',
    schema: priceStepsSchema,
  }
}

export function getPriceSteps(): Promise<PriceStepRow[]> {
  return request(priceStepsCall())
}

export function getPriceStepsQueryOptions() {
  return queryOptions({
    queryKey: ['bidding', 'price-step'],
    queryFn: getPriceSteps,
    initialData: firstScreenData(priceStepsCall()),
    initialDataUpdatedAt: firstScreenUpdatedAt,
    staleTime: 10 * 60_000,
  })
}

export function usePriceSteps() {
  return useQuery(getPriceStepsQueryOptions())
}
