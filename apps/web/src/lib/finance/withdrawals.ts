import {
  mutationOptions,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query'
import {
  WithdrawalSchema,
  type Withdrawal,
  type WithdrawalRequest,
} from '@numisma/contracts/account'
import { randomUuid } from '@numisma/contracts/signing-headers'
import { neverSent, request } from '../api-client'
import { listOf } from '../list-of'
import { USER_STATISTICS_KEY } from '../orders/query-keys'
import { WITHDRAWALS_KEY } from './query-keys'

/**
 * POST /user/finance/withdrawals: asks to have free balance or free deposit paid out to a bank
 * account, with the payment password (its refusals are silent: the password sheet shows them). The amount is reserved at once (it leaves the balance or deposit); staff pay it or
 * refuse it, and refused money comes back. The key makes a retry reserve it once.
 */
const PASSWORD_REFUSALS = new Set(['PAY_PASSWORD_WRONG', 'PAY_LOCKED', 'PAY_PASSWORD_NOT_SET'])

export function requestWithdrawal(
  withdrawal: WithdrawalRequest,
  idempotencyKey: string = randomUuid(),
): Promise<Withdrawal> {
  return request({
    method: 'POST',
    path: '/user/finance/withdrawals',
    body: withdrawal,
    defaultError: 'SUBMIT_FAILED',
    schema: WithdrawalSchema,
    idempotencyKey,
    // The password sheet says these where the user types (lib/payment/pay-error.ts).
    silent: (error) => PASSWORD_REFUSALS.has(error.code),
  })
}

/** GET /user/finance/withdrawals: the caller's requests, newest first, each with its status. */
export function getWithdrawals(): Promise<Withdrawal[]> {
  return request({
    path: '/user/finance/withdrawals',
    defaultError: 'GET_LIST_FAILED',
    schema: listOf(WithdrawalSchema),
  })
}

export function withdrawalsQueryOptions() {
  return queryOptions({ queryKey: WITHDRAWALS_KEY, queryFn: getWithdrawals })
}

export function useWithdrawals() {
  return useQuery(withdrawalsQueryOptions())
}

/**
 * A request with the cache it owns: the list of requests and the user centre's money (the amount
 * left the balance or deposit). A refusal (not enough, deposit in use) refreshes the money too, as
 * the form judged against stale figures; a call that never left changes nothing.
 */
export function requestWithdrawalMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationFn: ({
      withdrawal,
      idempotencyKey,
    }: {
      withdrawal: WithdrawalRequest
      idempotencyKey: string
    }) => requestWithdrawal(withdrawal, idempotencyKey),
    onSettled: (_result, error) => {
      if (neverSent(error)) return undefined
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: WITHDRAWALS_KEY }),
        queryClient.invalidateQueries({ queryKey: USER_STATISTICS_KEY }),
      ])
    },
  })
}

export function useRequestWithdrawal() {
  return useMutation(requestWithdrawalMutationOptions(useQueryClient()))
}
