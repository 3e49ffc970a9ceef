import type { SearchParams } from '../../../lib/catalog/search-params'

/** The home lists: lots open for bidding, ending soonest first, and mall picks. */
export const BUYING_PARAMS: SearchParams = { status: 'live', sort: 'ending', pageSize: 10 }
export const MALL_PARAMS: SearchParams = { sort: 'newest', pageSize: 10 }
