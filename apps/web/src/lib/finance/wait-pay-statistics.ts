import { queryOptions, useQuery } from '@tanstack/react-query'
import { WaitPayStatisticsSchema, type WaitPayStatistics } from '@numisma/contracts/payment'
import { request } from '../api-client'
import { ORDERS_KEY } from '../orders/query-keys'

/**
 * GET /user/3_3/pay/waitPayStatistics?orderIds=41,42: what paying these orders comes to (goods,
 * handling fee, discount, total). The remittance notice starts its amount from the total.
 */
export function getWaitPayStatistics(orderIds: readonly number[]): Promise<WaitPayStatistics> {
  return request({
    path: '/user/3_3/pay/waitPayStatistics',
    query: { orderIds: orderIds.join(',') },
    defaultError: 'GET_FEE_FAILED',
    schema: WaitPayStatisticsSchema,
  })
}

/** Keyed under the orders root: paying or cancelling an order changes what it comes to. */
export function waitPayStatisticsQueryOptions(orderIds: readonly number[]) {
  return queryOptions({
    queryKey: [...ORDERS_KEY, 'waitPayStatistics', orderIds.join(',')],
    queryFn: () => getWaitPayStatistics(orderIds),
    enabled: orderIds.length > 0,
  })
}

export function useWaitPayStatistics(orderIds: readonly number[]) {
  return useQuery(waitPayStatisticsQueryOptions(orderIds))
}
