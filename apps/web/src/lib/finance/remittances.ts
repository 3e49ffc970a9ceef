import {
  mutationOptions,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query'
import {
  RemittanceSchema,
  type Remittance,
  type RemittanceRequest,
} from '@numisma/contracts/account'
import { randomUuid } from '@numisma/contracts/signing-headers'
import { neverSent, request } from '../api-client'
import { listOf } from '../list-of'
import { ORDERS_KEY, USER_STATISTICS_KEY } from '../orders/query-keys'
import { REMITTANCES_KEY } from './query-keys'

/**
 * POST /user/finance/@remittance: the collector tells us money is on its way by bank transfer
 * (spec §7). Nothing moves until staff confirm it; the key makes a retry file it once.
 */
export function submitRemittance(
  notice: RemittanceRequest,
  idempotencyKey: string = randomUuid(),
): Promise<Remittance> {
  return request({
    method: 'POST',
    path: '/user/finance/@remittance',
    body: notice,
    defaultError: 'SUBMIT_FAILED',
    schema: RemittanceSchema,
    idempotencyKey,
  })
}

/** GET /user/finance/remittances: the caller's notices, newest first, each with its status. */
export function getRemittances(): Promise<Remittance[]> {
  return request({
    path: '/user/finance/remittances',
    defaultError: 'GET_LIST_FAILED',
    schema: listOf(RemittanceSchema),
  })
}

export function remittancesQueryOptions() {
  return queryOptions({ queryKey: REMITTANCES_KEY, queryFn: getRemittances })
}

export function useRemittances() {
  return useQuery(remittancesQueryOptions())
}

/**
 * Filing a notice with the cache it owns: the list of notices, and the orders it names and the
 * user centre (the server may mark those orders as waiting for a remittance). A refusal refreshes
 * them too (the page may have shown stale orders); a call that never left changes nothing.
 */
export function submitRemittanceMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationFn: ({
      notice,
      idempotencyKey,
    }: {
      notice: RemittanceRequest
      idempotencyKey: string
    }) => submitRemittance(notice, idempotencyKey),
    onSettled: (_result, error) => {
      if (neverSent(error)) return undefined
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: REMITTANCES_KEY }),
        queryClient.invalidateQueries({ queryKey: ORDERS_KEY }),
        queryClient.invalidateQueries({ queryKey: USER_STATISTICS_KEY }),
      ])
    },
  })
}

export function useSubmitRemittance() {
  return useMutation(submitRemittanceMutationOptions(useQueryClient()))
}
