import type { SearchQuery } from '@numisma/contracts/catalog'

/** The filters of GET /api/search/wechat besides `type` and `page` (prices in fen). */
export type SearchParams = Partial<Omit<SearchQuery, 'type' | 'page'>>
