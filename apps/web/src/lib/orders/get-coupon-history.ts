import { queryOptions, useQuery } from '@tanstack/react-query'
import {
  UserCouponRecordSchema,
  type CouponHistoryQuery,
  type UserCouponRecord,
} from '@numisma/contracts/mall'
import { request } from '../api-client'
import { listOf } from '../list-of'
import { COUPONS_KEY } from './query-keys'

export type CouponHistoryState = NonNullable<CouponHistoryQuery['state']>

/**
 * GET /user/3_3/pay/getUserCouponsHistory?state=: the caller's coupons of one /myCoupon tab,
 * newest first (`used` lists the ones an unpaid order holds, status `locked`, and the used ones).
 */
export function getCouponHistory(state: CouponHistoryState): Promise<UserCouponRecord[]> {
  return request({
    path: '/user/3_3/pay/getUserCouponsHistory',
    query: { state },
    defaultError: 'GET_LIST_FAILED',
    schema: listOf(UserCouponRecordSchema),
  })
}

export function getCouponHistoryQueryOptions(state: CouponHistoryState) {
  return queryOptions({
    queryKey: [...COUPONS_KEY, 'history', state],
    queryFn: () => getCouponHistory(state),
  })
}

export function useCouponHistory(state: CouponHistoryState) {
  return useQuery(getCouponHistoryQueryOptions(state))
}
