import { queryOptions, useQuery } from '@tanstack/react-query'
import { OrderSchema, type Order } from '@numisma/contracts/orders'
import { request } from '../api-client'
import { listOf } from '../list-of'
import { ORDERS_KEY } from './query-keys'

/** GET /user/order/all: every order of the caller, whatever its status, newest first. */
export function getAllOrders(): Promise<Order[]> {
  return request({
    path: '/user/order/all',
    defaultError: 'GET_LIST_FAILED',
    schema: listOf(OrderSchema),
  })
}

export function getAllOrdersQueryOptions() {
  return queryOptions({ queryKey: [...ORDERS_KEY, 'all'], queryFn: getAllOrders })
}

export function useAllOrders(enabled = true) {
  return useQuery({ ...getAllOrdersQueryOptions(), enabled })
}
