import { useMutation } from '@tanstack/react-query'
import { BidResultSchema, type BidRequest, type BidResult } from '@numisma/contracts/bidding'
import { randomUuid } from '@numisma/contracts/signing'
import { request } from '../../../lib/api-client'

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
    schema: BidResultSchema,
    idempotencyKey,
    silent: true,
  })
}

export function usePlaceBid() {
  return useMutation({
    mutationFn: ({ bid, idempotencyKey }: { bid: BidRequest; idempotencyKey: string }) =>
      placeBid(bid, idempotencyKey),
  })
}
