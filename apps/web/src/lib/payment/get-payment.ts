import { useEffect } from 'react'
import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { PaymentSchema, type Payment } from '@numisma/contracts/payment'
import { request } from '../api-client'
import { inBackground } from '../background'
import { COUPONS_KEY, ORDERS_KEY, USER_STATISTICS_KEY } from '../orders/query-keys'
import { PAYMENTS_KEY } from './query-keys'

/** GET /user/payments/:id: one of the caller's payments (another user's answers 404). */
export function getPayment(paymentId: number): Promise<Payment> {
  return request({
    path: `/user/payments/${paymentId}`,
    defaultError: 'GET_INFO_FAILED',
    schema: PaymentSchema,
  })
}

/** How often the success page asks again while a payment is pending, and for how long. */
export const PAYMENT_POLL_MS = 2_000
export const PAYMENT_POLL_WINDOW_MS = 30_000

/**
 * A pending payment is asked for again every 2 s until `pollUntil` (epoch ms): the platform's
 * notice usually lands within seconds, and after that the page says the payment is still pending
 * and offers a refresh rather than polling forever. Never cached as fresh: the page is about the
 * payment's state now.
 */
export function paymentQueryOptions(paymentId: number, pollUntil: number, now = Date.now) {
  return queryOptions({
    queryKey: [...PAYMENTS_KEY, paymentId],
    queryFn: () => getPayment(paymentId),
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data?.status === 'pending' && now() < pollUntil ? PAYMENT_POLL_MS : false,
  })
}

/**
 * What a payment that turned out paid has changed: the order lists and counters (its orders now
 * wait to ship), the balance, the coupon it used. The platform's notice paid it on the server, so
 * no mutation of this page knew; the page that saw it refreshes them.
 */
export function refreshAfterPaid(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ORDERS_KEY }),
    queryClient.invalidateQueries({ queryKey: USER_STATISTICS_KEY }),
    queryClient.invalidateQueries({ queryKey: COUPONS_KEY }),
  ])
}

/** The payment, polled while pending, with the caches it changed refreshed once it is paid. */
export function usePayment(paymentId: number, pollUntil: number) {
  const queryClient = useQueryClient()
  const payment = useQuery(paymentQueryOptions(paymentId, pollUntil))
  const paid = payment.data?.status === 'paid'
  useEffect(() => {
    if (paid) inBackground(refreshAfterPaid(queryClient))
  }, [paid, queryClient])
  return payment
}
