import { queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '../../../lib/api-client'
import { listOf } from '../../../lib/list-of'

/** A row of the increment table (DESIGN §4), in fen: from this price on, bids go up by `step`. */
export interface PriceStep {
  from: number
  step: number
}

export const PriceStepSchema = {
  parse(value: unknown): PriceStep {
    const row = value as Partial<Record<keyof PriceStep, unknown>> | null
    if (
      typeof row !== 'object' ||
      row === null ||
      !Number.isSafeInteger(row.from) ||
      !Number.isSafeInteger(row.step)
    ) {
      throw new TypeError('not a price step')
    }
    return { from: row.from as number, step: row.step as number }
  },
}

/** GET /bidding/price-step: the increment table. */
export function getPriceSteps(): Promise<PriceStep[]> {
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
