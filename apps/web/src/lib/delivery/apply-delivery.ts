import {
  mutationOptions,
  useMutation,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query'
import {
  DeliveryAppliedSchema,
  type DeliveryApplied,
  type DeliveryApplySchema,
} from '@numisma/contracts/delivery'
import type { z } from 'zod'
import { request } from '../api-client'
import { ORDERS_KEY, USER_STATISTICS_KEY } from '../orders/query-keys'
import { refreshAfterGuardedCall } from '../payment/password-guarded'
import { DELIVERY_KEY } from './query-keys'

/**
 * What the apply call takes (the contract's body): with `payPassword` when the fees come to more
 * than nothing — they are taken from the balance like a balance payment (ADR 015).
 */
export type DeliveryApplyBody = z.input<typeof DeliveryApplySchema>

/**
 * POST /api/user/logistic/delivery/apply: the chosen paid orders in storage go out in one
 * shipment (express to an address, or picked up at the counter on a day and slot). One
 * `Idempotency-Key` per attempt, so a retried tap is replayed, never charged twice. Silent: the
 * screen shows a refusal where it belongs (a wrong password in the password sheet, a low balance
 * with a way to top up, EXIT_BANNED or SLOT_FULL as a toast) — lib/payment/pay-error.ts maps it.
 */
export function applyDelivery(
  body: DeliveryApplyBody,
  idempotencyKey: string,
): Promise<DeliveryApplied> {
  return request({
    method: 'POST',
    path: '/api/user/logistic/delivery/apply',
    body,
    defaultError: 'SUBMIT_FAILED',
    schema: DeliveryAppliedSchema,
    idempotencyKey,
    silent: true,
  })
}

/**
 * Applying with the cache it owns: the orders leave storage (the order lists, the user centre's
 * counters and balance, the delivery info and shipments). On success the screen leaves, so they
 * refetch behind it; a refusal means the screen judged stale orders, slots or balance — or a
 * wrong password counted towards the lock — so they are fetched again before the button frees up.
 */
export function applyDeliveryMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationFn: ({ body, idempotencyKey }: { body: DeliveryApplyBody; idempotencyKey: string }) =>
      applyDelivery(body, idempotencyKey),
    onSettled: refreshAfterGuardedCall(queryClient, [
      ORDERS_KEY,
      USER_STATISTICS_KEY,
      DELIVERY_KEY,
    ]),
  })
}

export function useApplyDelivery() {
  return useMutation(applyDeliveryMutationOptions(useQueryClient()))
}
