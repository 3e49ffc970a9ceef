import type { SearchQuery } from '@numisma/contracts/catalog'
import type { Page } from '../../../lib/api-client'

/** The filters of GET /api/search/wechat besides `type` and `page` (prices in fen). */
export type SearchParams = Partial<Omit<SearchQuery, 'type' | 'page'>>

/** The next page to ask for, or undefined once every item of `total` has been fetched. */
export function nextPageParam(last: Page<unknown>): number | undefined {
  if (last.data.length === 0) return undefined
  return last.page * last.pageSize < last.total ? last.page + 1 : undefined
}
