import type { MallCoupon } from '@numisma/contracts/mall'

/** What a coupon's receive button offers. */
export type ReceiveState = 'receive' | 'again' | 'received' | 'gone' | 'closed'

/**
 * 领取 for a first one, 再领一张 while the buyer may hold more, 已领取 at their limit, 已领完
 * when none are left for anyone; `closed` when none may be received for another reason.
 */
export function receiveState(
  coupon: Pick<MallCoupon, 'received' | 'receivable' | 'left'>,
): ReceiveState {
  if (coupon.receivable) return coupon.received ? 'again' : 'receive'
  if (coupon.received) return 'received'
  return coupon.left <= 0 ? 'gone' : 'closed'
}
