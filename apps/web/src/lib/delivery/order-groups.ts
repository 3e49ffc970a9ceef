import { queryOptions, useQuery } from '@tanstack/react-query'
import { OrdersPageSchema, type Order, type OrdersPage } from '@numisma/contracts/orders'
import { requestPage } from '../api-client'
import { ORDERS_KEY } from '../orders/query-keys'

/** The group reads' largest page: a collector rarely holds more in storage, so few pages are read. */
export const ORDER_GROUP_PAGE_SIZE = 50

const WAITING_PATH = {
  auction: '/user/logistic/waiting',
  mall: '/user/bplus/queryNoPaymentMark',
} as const

/**
 * GET /user/logistic/waiting (won lots) or /user/bplus/queryNoPaymentMark (mall orders): one page
 * of the caller's orders waiting to ship — paid, or applied for delivery — newest first, a paid
 * one with the storage it has run up and when storage starts to cost.
 */
export function getWaitingToShip(kind: 'auction' | 'mall', page: number): Promise<OrdersPage> {
  return requestPage({
    path: WAITING_PATH[kind],
    query: { page, pageSize: ORDER_GROUP_PAGE_SIZE },
    defaultError: 'GET_LIST_FAILED',
    schema: OrdersPageSchema,
  })
}

/** Every page of one kind's waiting orders. */
async function allWaiting(kind: 'auction' | 'mall'): Promise<Order[]> {
  const orders: Order[] = []
  for (let page = 1; ; page++) {
    const result = await getWaitingToShip(kind, page)
    orders.push(...result.data)
    if (result.data.length === 0 || orders.length >= result.total) return orders
  }
}

/**
 * 待发货 as spec §7 reads it: both kinds' waiting orders, merged newest first. Keyed under the
 * orders root, so paying, applying for delivery and the rest refresh it with the other lists.
 */
export function waitingToShipQueryOptions() {
  return queryOptions({
    queryKey: [...ORDERS_KEY, 'group', 'waitingToShip'],
    queryFn: async () => {
      const [auction, mall] = await Promise.all([allWaiting('auction'), allWaiting('mall')])
      return [...auction, ...mall].sort(
        (a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id - a.id,
      )
    },
  })
}

export function useWaitingToShip(enabled = true) {
  return useQuery({ ...waitingToShipQueryOptions(), enabled })
}
