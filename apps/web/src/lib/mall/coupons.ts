import {
  keepPreviousData,
  mutationOptions,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query'
import type { MallCoupon, ReceivedCoupon, UsableCoupon } from '@numisma/contracts/mall'
import {
  firstScreenData,
  firstScreenUpdatedAt,
  isNotFound,
  neverSent,
  request,
  type RequestOptions,
} from '../api-client'
import { listOf } from '../list-of'
import { COUPONS_KEY } from '../orders/query-keys'
import { lazySchema } from '../lazy-schema'

const mallCouponsSchema = lazySchema(() =>
  import('@numisma/contracts/mall').then((m) => listOf(m.MallCouponSchema)),
)
const receivedCouponSchema = lazySchema(() =>
  import('@numisma/contracts/mall').then((m) => m.ReceivedCouponSchema),
)
const usableCouponsSchema = lazySchema(() =>
  import('@numisma/contracts/mall').then((m) => listOf(m.UsableCouponSchema)),
)

/**
 * GET /mallproduct/getMallCoupons/{productNo}: the coupons a buyer may receive on an item page.
 * A 404 (no such item) is not toasted: the item page says so itself.
 */
function mallCouponsCall(productNo: string): RequestOptions<MallCoupon[]> {
  return {
    path: `/mallproduct/getMallCoupons/${encodeURIComponent(productNo)}`,
    defaultError: 'GET_LIST_FAILED',
    schema: mallCouponsSchema,
    silent: isNotFound,
  }
}

export function getMallCoupons(productNo: string): Promise<MallCoupon[]> {
  return request(mallCouponsCall(productNo))
}

export function getMallCouponsQueryOptions(productNo: string) {
  return queryOptions({
    queryKey: [...COUPONS_KEY, 'mall', productNo],
    queryFn: () => getMallCoupons(productNo),
    initialData: firstScreenData(mallCouponsCall(productNo)),
    initialDataUpdatedAt: firstScreenUpdatedAt,
  })
}

export function useMallCoupons(productNo: string) {
  return useQuery(getMallCouponsQueryOptions(productNo))
}

/** POST /api/user/receiveCoupon/{couponId}; refusals (COUPON_GONE, COUPON_LIMIT) are toasted. */
export function receiveCoupon(couponId: number): Promise<ReceivedCoupon> {
  return request({
    method: 'POST',
    path: `/api/user/receiveCoupon/${couponId}`,
    defaultError: 'REQUEST_FAILED',
    schema: receivedCouponSchema,
  })
}

/**
 * Receiving changes every coupon list (what is left to receive, what the buyer holds, what an
 * order may use); a refusal means the list on screen was stale. Either way they are fetched again,
 * awaited so the button stays busy until they are — unless the call never left the phone.
 */
export function receiveCouponMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationFn: (couponId: number) => receiveCoupon(couponId),
    onSettled: (_result, error) =>
      neverSent(error) ? undefined : queryClient.invalidateQueries({ queryKey: COUPONS_KEY }),
  })
}

export function useReceiveCoupon() {
  return useMutation(receiveCouponMutationOptions(useQueryClient()))
}

/**
 * GET /user/3_3/pay/getUserCoupons?productNo=&quantity=: the caller's coupons usable for buying
 * `quantity` units, best first, with what each saves.
 */
export function getUsableCoupons(productNo: string, quantity: number): Promise<UsableCoupon[]> {
  return request({
    path: '/user/3_3/pay/getUserCoupons',
    query: { productNo, quantity },
    defaultError: 'GET_LIST_FAILED',
    schema: usableCouponsSchema,
  })
}

export function getUsableCouponsQueryOptions(productNo: string, quantity: number) {
  return queryOptions({
    queryKey: [...COUPONS_KEY, 'usable', productNo, quantity],
    queryFn: () => getUsableCoupons(productNo, quantity),
    // While the list for a new quantity loads, the previous one stays on screen (flagged as
    // placeholder), so the coupon row does not blink at every tap of the stepper.
    placeholderData: keepPreviousData,
  })
}

/** Signed-in callers only: the call needs a user, and a guest has no coupons. */
export function useUsableCoupons(productNo: string, quantity: number, enabled: boolean) {
  return useQuery({ ...getUsableCouponsQueryOptions(productNo, quantity), enabled })
}

/**
 * GET /user/3_3/pay/getUserCoupons?orderId=: the caller's coupons usable for one of their unpaid
 * mall orders that has none yet (the payment screen), best first, with what each saves on it.
 */
export function getUsableCouponsForOrder(orderId: number): Promise<UsableCoupon[]> {
  return request({
    path: '/user/3_3/pay/getUserCoupons',
    query: { orderId },
    defaultError: 'GET_LIST_FAILED',
    schema: usableCouponsSchema,
  })
}

export function getUsableCouponsForOrderQueryOptions(orderId: number) {
  return queryOptions({
    queryKey: [...COUPONS_KEY, 'usable', 'order', orderId],
    queryFn: () => getUsableCouponsForOrder(orderId),
  })
}

/**
 * Only while the payment screen has a mall order a coupon may go to, and not while it pays (the
 * payment refreshes the coupons; asking for those of an order just paid would only be refused).
 */
export function useUsableCouponsForOrder(orderId: number | undefined, enabled = true) {
  return useQuery({
    ...getUsableCouponsForOrderQueryOptions(orderId ?? 0),
    enabled: orderId !== undefined && enabled,
  })
}
