import {
  mutationOptions,
  useMutation,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query'
import {
  CancelOrderResultSchema,
  type CancelOrderResult,
  type Order,
} from '@numisma/contracts/orders'
import { neverSent, request } from '../api-client'
import { getMallItemQueryOptions } from '../mall/get-mall-item'
import { COUPONS_KEY, ORDERS_KEY, USER_STATISTICS_KEY } from './query-keys'

/**
 * GET /user/3_3/order/cancel?orderId= (a GET in spec §7): cancels an unpaid mall order; its stock
 * and coupon come back. Anything else is refused with ORDER_NOT_CANCELLABLE, toasted by request().
 */
export function cancelOrder(orderId: number): Promise<CancelOrderResult> {
  return request({
    path: '/user/3_3/order/cancel',
    query: { orderId },
    defaultError: 'OPERATION_FAILED',
    schema: CancelOrderResultSchema,
  })
}

/**
 * Cancelling with the cache it owns: the order lists, the coupons (the one it held is usable
 * again), the user centre's counters and the stock of the items it reserved. A refusal (the order
 * expired or was paid meanwhile) means the list was stale, so it refreshes too — awaited, so the
 * button stays busy until the list is fresh; not when the call never left the phone.
 */
export function cancelOrderMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationFn: (order: Pick<Order, 'id' | 'items'>) => cancelOrder(order.id),
    onSettled: (_result, error, order) => {
      if (neverSent(error)) return undefined
      const productNos = new Set(order.items.flatMap((item) => item.productNo ?? []))
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: ORDERS_KEY }),
        queryClient.invalidateQueries({ queryKey: COUPONS_KEY }),
        queryClient.invalidateQueries({ queryKey: USER_STATISTICS_KEY }),
        ...[...productNos].map((productNo) =>
          queryClient.invalidateQueries({ queryKey: getMallItemQueryOptions(productNo).queryKey }),
        ),
      ])
    },
  })
}

export function useCancelOrder() {
  return useMutation(cancelOrderMutationOptions(useQueryClient()))
}
