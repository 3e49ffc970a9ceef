/**
 * The caller's own bidding views (my bids, my proxy bids and their counts) share this prefix, so a
 * mutation that changes where the caller stands refreshes them all with one invalidation.
 */
export const MY_BIDDING_KEY = ['bidding', 'mine'] as const
