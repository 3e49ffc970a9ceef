import {
  mutationOptions,
  useMutation,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query'
import { RechargeSchema, type Recharge } from '@numisma/contracts/account'
import { neverSent, request } from '../api-client'
import { RECHARGES_KEY } from './query-keys'

/** The channel's fee, shown before paying: the same rule the server charges by. */
export { rechargeFee } from '@numisma/domain/fees'

/**
 * PATCH /user/recharge/@finance (spec §7 "recharge fee"): a recharge order for `amount` fen of
 * deposit with the channel fee on top, paid through the messaging platform (its pay request comes
 * back). Failures are toasted with the server's message or 'failed to get fee' (spec §8).
 */
export function createRecharge(amount: number, idempotencyKey: string): Promise<Recharge> {
  return request({
    method: 'PATCH',
    path: '/user/recharge/@finance',
    body: { amount },
    defaultError: 'GET_FEE_FAILED',
    schema: RechargeSchema,
    idempotencyKey,
  })
}

/**
 * Creating a recharge moves no money (that waits for the platform's notice), so nothing else goes
 * stale; the recharge itself is read again when the user comes back from the cashier.
 */
export function createRechargeMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationFn: ({ amount, idempotencyKey }: { amount: number; idempotencyKey: string }) =>
      createRecharge(amount, idempotencyKey),
    onSettled: (_result, error) =>
      neverSent(error) ? undefined : queryClient.invalidateQueries({ queryKey: RECHARGES_KEY }),
  })
}

export function useCreateRecharge() {
  return useMutation(createRechargeMutationOptions(useQueryClient()))
}
