/**
 * Query-key roots that several features invalidate: placing, paying or cancelling an order changes
 * the order lists and the user centre's counters; receiving or using a coupon changes every coupon
 * list. Lists key under these roots so one invalidation reaches them all.
 */
export const ORDERS_KEY = ['orders'] as const
export const COUPONS_KEY = ['coupons'] as const
export const USER_STATISTICS_KEY = ['user', 'statistics'] as const
