import type { CreateOrderRequest } from '@numisma/contracts/mall'
import { ApiError } from '../api-client'

/** Where a placed mall order is paid: the order list's pending-payment tab. */
export const PENDING_PAYMENT_PATH = '/order/list?tab=pay'

/**
 * The `Idempotency-Key` of one purchase attempt on the confirm page. The server stores its answer
 * against the key for 24 h and replays it, so the key must live exactly as long as the attempt:
 * kept while the answer is unknown (a timeout, a dropped connection: the tap again is a retry that
 * must not buy twice), renewed once the server has answered (a second tap after 库存不足 is a new
 * attempt, not a replay of the refusal) or when the order itself changes (another quantity or
 * coupon under the same key is refused as a reused key).
 */
export interface PurchaseAttempt {
  key: string
  order: string
}

function orderSignature(order: CreateOrderRequest): string {
  return JSON.stringify([order.productNo, order.quantity, order.userCouponId ?? null])
}

/** The attempt to send `order` under: the unanswered one for the same order, or a new one. */
export function purchaseAttempt(
  unanswered: PurchaseAttempt | null,
  order: CreateOrderRequest,
  newKey: () => string,
): PurchaseAttempt {
  const signature = orderSignature(order)
  return unanswered?.order === signature ? unanswered : { key: newKey(), order: signature }
}

/**
 * Whether a failed call was answered by the server (any HTTP status), so its key is spent. A call
 * with no answer (status 0: timed out, network down, offline) keeps its key for the retry.
 */
export function serverAnswered(error: unknown): boolean {
  return error instanceof ApiError && error.status > 0
}
