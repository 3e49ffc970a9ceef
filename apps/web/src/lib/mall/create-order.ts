import {
  mutationOptions,
  useMutation,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query'
import {
  CreateOrderResultSchema,
  type CreateOrderRequest,
  type CreateOrderResult,
} from '@numisma/contracts/mall'
import { errorText, type Locale } from '@numisma/contracts/errors'
import { randomUuid } from '@numisma/contracts/signing-headers'
import { neverSent, request } from '../api-client'
import { inBackground } from '../background'
import { COUPONS_KEY, ORDERS_KEY, USER_STATISTICS_KEY } from '../orders/query-keys'
import { getMallItemQueryOptions } from './get-mall-item'
import { PURCHASE_RECORDS_KEY } from './purchase-records'

/**
 * POST /mallorder/createOrder. HTTP 200 whatever the outcome (spec §4: only status SUCCESS placed
 * an order); an HTTP failure is toasted with the server's message or 'purchase failed' (spec §8).
 * One idempotency key per user action: a retry of the same action is replayed, never bought twice.
 */
export function createOrder(
  order: CreateOrderRequest,
  idempotencyKey: string = randomUuid(),
): Promise<CreateOrderResult> {
  return request({
    method: 'POST',
    path: '/mallorder/createOrder',
    body: order,
    defaultError: 'PURCHASE_FAILED',
    schema: CreateOrderResultSchema,
    idempotencyKey,
  })
}

/** The toast for an answer: spec §8 gives a non-success the server's detail or a default. */
export function purchaseMessage(result: CreateOrderResult, locale: Locale): string {
  return result.detail.trim() || errorText('OPERATION_FAILED', locale)
}

/**
 * The purchase with the cache it owns. A placed order changes the order lists, the user centre's
 * counts, the coupons (one is now locked), the item's stock and its purchase records; the page
 * leaves at once, so those refetch behind it. A refused one (sold out, limit, coupon) means the
 * page showed stale data: the item and coupons are fetched again before the button frees up.
 */
export function createOrderMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationFn: ({
      order,
      idempotencyKey,
    }: {
      order: CreateOrderRequest
      idempotencyKey: string
    }) => createOrder(order, idempotencyKey),
    onSettled: (result, error, { order }) => {
      if (neverSent(error)) return undefined
      const stale = [
        queryClient.invalidateQueries({
          queryKey: getMallItemQueryOptions(order.productNo).queryKey,
        }),
        queryClient.invalidateQueries({ queryKey: COUPONS_KEY }),
      ]
      if (result?.status !== 'SUCCESS') return Promise.all(stale)
      // Not awaited: the confirm page is left for the order list, which must not wait on these.
      inBackground(
        Promise.all([
          ...stale,
          queryClient.invalidateQueries({ queryKey: ORDERS_KEY }),
          queryClient.invalidateQueries({ queryKey: USER_STATISTICS_KEY }),
          queryClient.invalidateQueries({ queryKey: [...PURCHASE_RECORDS_KEY, order.productNo] }),
        ]),
      )
      return undefined
    },
  })
}

export function useCreateOrder() {
  return useMutation(createOrderMutationOptions(useQueryClient()))
}
