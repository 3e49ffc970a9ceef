import {
  mutationOptions,
  useMutation,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query'
import type { BidRequest, BidResult } from '@numisma/contracts/bidding'
import { randomUuid } from '@numisma/contracts/signing-headers'
import { neverSent, request } from '../../../lib/api-client'
import { getBidHistoryQueryOptions } from './get-bid-history'
import { getLotQueryOptions } from './get-lot'
import { MY_BIDDING_KEY } from './query-keys'
import { lazySchema } from '../../../lib/lazy-schema'

const bidResultSchema = lazySchema(() =>
  import('@numisma/contracts/bidding').then((m) => m.BidResultSchema),
)

/**
 * POST /bidding/bid: a direct bid, or a proxy bid with maximum `amount` (fen). One idempotency key
 * per user action, so a retried request is replayed by the server rather than bidding twice.
 * Silent: the bid bar maps refusals to its own UI (a recharge dialog for QUOTA_EXCEEDED).
 */
export function placeBid(
  bid: BidRequest,
  idempotencyKey: string = randomUuid(),
): Promise<BidResult> {
  return request({
    method: 'POST',
    path: '/bidding/bid',
    body: bid,
    defaultError: 'BID_FAILED',
    schema: bidResultSchema,
    idempotencyKey,
    silent: true,
  })
}

/** The bid mutation with the cache it owns: the lot, its history and my bidding lists. */
export function placeBidMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationFn: ({ bid, idempotencyKey }: { bid: BidRequest; idempotencyKey: string }) =>
      placeBid(bid, idempotencyKey),
    onSuccess: (result) => {
      // The answer already says where the lot stands: show it before the refetch lands.
      queryClient.setQueryData(getLotQueryOptions(result.lotId).queryKey, (lot) =>
        lot
          ? {
              ...lot,
              price: result.price,
              bidCount: result.bidCount,
              endsAt: result.endsAt,
              leading: result.leading,
              myMax: result.myMax,
            }
          : lot,
      )
    },
    // A refused bid (too low, closed, extended) also means the lot moved on: refetch either way,
    // awaited so the bar is not used again on a stale minimum. Not when the bid never left the
    // phone (offline): nothing changed, and a refetch would only raise the offline alert again.
    onSettled: (_result, error, { bid }) =>
      neverSent(error)
        ? undefined
        : Promise.all([
            queryClient.invalidateQueries({ queryKey: getLotQueryOptions(bid.lotId).queryKey }),
            queryClient.invalidateQueries({
              queryKey: getBidHistoryQueryOptions(bid.lotId).queryKey,
            }),
            queryClient.invalidateQueries({ queryKey: MY_BIDDING_KEY }),
          ]),
  })
}

export function usePlaceBid() {
  return useMutation(placeBidMutationOptions(useQueryClient()))
}
