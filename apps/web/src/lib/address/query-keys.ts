/**
 * Query-key roots of addresses and regions: every address call changes the list (and the default
 * of the others), so lists and single addresses key under one root that one invalidation reaches.
 */
export const ADDRESSES_KEY = ['addresses'] as const
export const REGIONS_KEY = ['regions'] as const
