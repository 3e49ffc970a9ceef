import {
  mutationOptions,
  useMutation,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query'
import { BalancesSchema, type Balances } from '@numisma/contracts/account'
import { neverSent, request } from '../api-client'
import { ORDERS_KEY, USER_STATISTICS_KEY } from '../orders/query-keys'

export interface TransferInput {
  userId: string
  /** Fen: positive moves balance → deposit, negative deposit → balance. */
  amount: number
  idempotencyKey: string
}

/**
 * PATCH /user/{userId}/@finance (spec §7 "balance to bidding quota"): moves the caller's own money
 * between balance and deposit; deposit comes back only as far as exposure leaves it free
 * (DEPOSIT_IN_USE, with `free` in the details, otherwise). Silent: the recharge screen says a
 * refusal with the amount that is free.
 */
export function transferFunds({
  userId,
  amount,
  idempotencyKey,
}: TransferInput): Promise<Balances> {
  return request({
    method: 'PATCH',
    path: `/user/${encodeURIComponent(userId)}/@finance`,
    body: { amount },
    defaultError: 'OPERATION_FAILED',
    schema: BalancesSchema,
    idempotencyKey,
    silent: true,
  })
}

/**
 * Moving money changes the user centre's figures and the balance the payment screen offers (its
 * statistics sit under the orders root); a refusal means those were stale. Awaited either way, so
 * the button stays busy until the figures are fresh — unless the call never left the phone.
 */
export function transferMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationFn: transferFunds,
    onSettled: (_result, error) =>
      neverSent(error)
        ? undefined
        : Promise.all([
            queryClient.invalidateQueries({ queryKey: USER_STATISTICS_KEY }),
            queryClient.invalidateQueries({ queryKey: ORDERS_KEY }),
          ]),
  })
}

export function useTransferFunds() {
  return useMutation(transferMutationOptions(useQueryClient()))
}
