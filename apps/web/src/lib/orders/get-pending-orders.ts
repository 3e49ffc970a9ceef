import { queryOptions, useQuery } from '@tanstack/react-query'
import { OrderSchema, type Order } from '@numisma/contracts/orders'
import { request } from '../api-client'
import { listOf } from '../list-of'
import { ORDERS_KEY } from './query-keys'

/** GET /user/3_3/order/query: the caller's orders pending payment (auction and mall), newest first. */
export function getPendingOrders(): Promise<Order[]> {
  return request({
    path: '/user/3_3/order/query',
    defaultError: 'GET_LIST_FAILED',
    schema: listOf(OrderSchema),
  })
}

export function getPendingOrdersQueryOptions() {
  return queryOptions({ queryKey: [...ORDERS_KEY, 'pending'], queryFn: getPendingOrders })
}

export function usePendingOrders() {
  return useQuery(getPendingOrdersQueryOptions())
}
