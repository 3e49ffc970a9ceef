import {
  mutationOptions,
  useMutation,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query'
import { PayResultSchema, type PayRequest, type PayResult } from '@numisma/contracts/payment'
import type { ClientErrorCode } from '@numisma/contracts/errors-client'
import { request } from '../api-client'
import { COUPONS_KEY, ORDERS_KEY, USER_STATISTICS_KEY } from '../orders/query-keys'
import { refreshAfterGuardedCall } from './password-guarded'
import { PAYMENTS_KEY } from './query-keys'

/** Spec §8: a balance payment fails as 'balance payment failed', any other as 'payment failed'. */
export function payDefaultError(method: PayRequest['method']): ClientErrorCode {
  return method === 'balance' ? 'BALANCE_PAYMENT_FAILED' : 'PAYMENT_FAILED'
}

/**
 * POST /user/3_3/pay/doPay: pays one or more pending orders at once. One `Idempotency-Key` per
 * attempt (pay-attempt.ts), so a retried or doubled tap is replayed by the server, never charged
 * twice. Silent: the payment screen shows a refusal where it belongs (a wrong password in the
 * password popup, a low balance with a way to top up) — see pay-error.ts.
 */
export function doPay(body: PayRequest, idempotencyKey: string): Promise<PayResult> {
  return request({
    method: 'POST',
    path: '/user/3_3/pay/doPay',
    body,
    defaultError: payDefaultError(body.method),
    schema: PayResultSchema,
    idempotencyKey,
    silent: true,
  })
}

/**
 * Paying with the cache it owns. A payment changes the order lists and counters, the balance
 * (the user centre's statistics) and the coupon it used; the screen leaves at once, so those
 * refetch behind it. A refusal means the screen showed stale orders or balance, or a wrong
 * password counted towards the lock: they are fetched again before the button frees up — unless
 * the call never left the phone.
 */
export function doPayMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationFn: ({ body, idempotencyKey }: { body: PayRequest; idempotencyKey: string }) =>
      doPay(body, idempotencyKey),
    onSettled: refreshAfterGuardedCall(queryClient, [
      ORDERS_KEY,
      USER_STATISTICS_KEY,
      COUPONS_KEY,
      PAYMENTS_KEY,
    ]),
  })
}

export function useDoPay() {
  return useMutation(doPayMutationOptions(useQueryClient()))
}
