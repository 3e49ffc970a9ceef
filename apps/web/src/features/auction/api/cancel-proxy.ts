import {
  mutationOptions,
  useMutation,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query'
import type { CancelProxyResult } from '@numisma/contracts/bidding'
import { neverSent, request } from '../../../lib/api-client'
import { getLotQueryOptions } from './get-lot'
import { MY_BIDDING_KEY } from './query-keys'
import { lazySchema } from '../../../lib/lazy-schema'

const cancelProxyResultSchema = lazySchema(() =>
  import('@numisma/contracts/bidding').then((m) => m.CancelProxyResultSchema),
)

/** POST /bidding/cancelProxy: stops future automatic bids; bids already placed stand. */
export function cancelProxy(lotId: number): Promise<CancelProxyResult> {
  return request({
    method: 'POST',
    path: '/bidding/cancelProxy',
    body: { lotId },
    defaultError: 'CANCEL_PROXY_FAILED',
    schema: cancelProxyResultSchema,
  })
}

/** Cancelling a proxy bid with the cache it owns: the lot and my bidding lists. */
export function cancelProxyMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationFn: cancelProxy,
    // Refused too (the proxy had already lost, the lot closed): either way the lot and my lists
    // show where things stand now. Awaited, so the button stays busy until they are fresh. Not
    // when the call never left the phone: a refetch would only raise the offline alert again.
    onSettled: (_result, error, lotId) =>
      neverSent(error)
        ? undefined
        : Promise.all([
            queryClient.invalidateQueries({ queryKey: getLotQueryOptions(lotId).queryKey }),
            queryClient.invalidateQueries({ queryKey: MY_BIDDING_KEY }),
          ]),
  })
}

export function useCancelProxy() {
  return useMutation(cancelProxyMutationOptions(useQueryClient()))
}
