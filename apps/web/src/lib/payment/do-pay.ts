import {
  mutationOptions,
  useMutation,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query'
import { PayResultSchema, type PayRequest, type PayResult } from '@numisma/contracts/payment'
import type { ErrorCode } from '@numisma/contracts/errors'
import { PAY_PASSWORD_SETTINGS_KEY } from '../account/pay-password'
import { neverSent, request } from '../api-client'
import { inBackground } from '../background'
import { COUPONS_KEY, ORDERS_KEY, USER_STATISTICS_KEY } from '../orders/query-keys'
import { PAYMENTS_KEY } from './query-keys'

/** Spec §8: a balance payment fails as 'balance payment failed', any other as 'payment failed'. */
export function payDefaultError(method: PayRequest['method']): ErrorCode {
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
    onSettled: (result, error) => {
      if (neverSent(error)) return undefined
      const refresh = () =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: ORDERS_KEY }),
          queryClient.invalidateQueries({ queryKey: USER_STATISTICS_KEY }),
          queryClient.invalidateQueries({ queryKey: COUPONS_KEY }),
          queryClient.invalidateQueries({ queryKey: PAYMENTS_KEY }),
        ])
      // A refused password may have locked payment: the settings say until when.
      if (result === undefined) {
        return Promise.all([
          refresh(),
          queryClient.invalidateQueries({ queryKey: PAY_PASSWORD_SETTINGS_KEY }),
        ])
      }
      // Not awaited: the screen is left for the success page or the platform's cashier.
      inBackground(refresh())
      return undefined
    },
  })
}

export function useDoPay() {
  return useMutation(doPayMutationOptions(useQueryClient()))
}
