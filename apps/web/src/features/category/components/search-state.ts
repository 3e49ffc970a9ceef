import { GRADING_SERVICES, SEARCH_SORTS } from '@numisma/contracts/catalog'
import { yuanToFen } from '@numisma/contracts/money'
import type { SearchParams } from '../../../lib/catalog/search-params'

export type SearchType = 'auction' | 'mall'
export type SearchSort = (typeof SEARCH_SORTS)[number]
export type SearchStatus = 'live' | 'preview' | 'ended' | 'all'
export type GradingService = (typeof GRADING_SERVICES)[number]

export const SEARCH_STATUSES: readonly SearchStatus[] = ['live', 'preview', 'ended', 'all']

/**
 * What the category-detail screen shows, kept in its URL (spec §2: details travel as query
 * parameters), so coming back from an item restores the same list. Prices are typed in yuan.
 */
export interface SearchState {
  type: SearchType
  keyword: string
  categoryId: number | undefined
  specialId: number | undefined
  grade: number | undefined
  gradingService: GradingService | undefined
  minYuan: string
  maxYuan: string
  status: SearchStatus
  sort: SearchSort
}

export const DEFAULT_SORT: SearchSort = 'ending'
export const DEFAULT_STATUS: SearchStatus = 'live'

const positiveInt = (value: string | null): number | undefined => {
  if (value === null || !/^\d+$/.test(value)) return undefined
  const n = Number(value)
  return Number.isSafeInteger(n) && n > 0 ? n : undefined
}

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | undefined =>
  values.find((v) => v === value)

/** Reads the screen's state from its URL; unknown or malformed values fall back to defaults. */
export function parseSearchState(params: URLSearchParams): SearchState {
  const grade = params.get('grade')
  return {
    type: params.get('type') === 'mall' ? 'mall' : 'auction',
    keyword: (params.get('keyword') ?? '').trim(),
    categoryId: positiveInt(params.get('id') ?? params.get('categoryId')),
    specialId: positiveInt(params.get('specialId')),
    grade: grade !== null && /^\d{1,2}$/.test(grade) ? Number(grade) : undefined,
    gradingService: oneOf(GRADING_SERVICES, params.get('gradingService')),
    minYuan: yuanText(params.get('minPrice')),
    maxYuan: yuanText(params.get('maxPrice')),
    status: oneOf(SEARCH_STATUSES, params.get('status')) ?? DEFAULT_STATUS,
    sort: oneOf(SEARCH_SORTS, params.get('sort')) ?? DEFAULT_SORT,
  }
}

const yuanText = (value: string | null): string =>
  value !== null && parseYuan(value) !== undefined ? value.trim() : ''

/** The URL of a state: defaults and empty filters are left out. */
export function searchStateToUrl(state: SearchState): URLSearchParams {
  const params = new URLSearchParams()
  if (state.categoryId !== undefined) params.set('id', String(state.categoryId))
  params.set('type', state.type)
  if (state.keyword !== '') params.set('keyword', state.keyword)
  if (state.specialId !== undefined) params.set('specialId', String(state.specialId))
  if (state.grade !== undefined) params.set('grade', String(state.grade))
  if (state.gradingService) params.set('gradingService', state.gradingService)
  if (state.minYuan !== '') params.set('minPrice', state.minYuan)
  if (state.maxYuan !== '') params.set('maxPrice', state.maxYuan)
  if (state.status !== DEFAULT_STATUS) params.set('status', state.status)
  if (state.sort !== DEFAULT_SORT) params.set('sort', state.sort)
  return params
}

/** A yuan amount typed by the user ("1200", "99.5") → integer fen; undefined if not a price. */
export function parseYuan(text: string): number | undefined {
  const trimmed = text.trim()
  if (!/^\d{1,9}(?:\.\d{0,2})?$/.test(trimmed)) return undefined
  return yuanToFen(Number(trimmed))
}

/**
 * The search call's filters for a state: yuan → fen, a reversed price range put the right way
 * round (the server refuses min > max), and auction-only filters left off for the mall.
 */
export function toSearchParams(state: SearchState, pageSize = 20): SearchParams {
  let minPrice = parseYuan(state.minYuan)
  let maxPrice = parseYuan(state.maxYuan)
  if (minPrice !== undefined && maxPrice !== undefined && minPrice > maxPrice) {
    ;[minPrice, maxPrice] = [maxPrice, minPrice]
  }
  const params: SearchParams = { sort: state.sort, pageSize }
  if (state.keyword !== '') params.keyword = state.keyword
  if (state.categoryId !== undefined) params.categoryId = state.categoryId
  if (state.grade !== undefined) params.grade = state.grade
  if (state.gradingService) params.gradingService = state.gradingService
  if (minPrice !== undefined) params.minPrice = minPrice
  if (maxPrice !== undefined) params.maxPrice = maxPrice
  if (state.type === 'auction') {
    params.status = state.status
    if (state.specialId !== undefined) params.specialId = state.specialId
  } else if (state.sort === 'ending' || state.sort === 'bids') {
    // Ending soonest and most bids mean nothing for mall items.
    params.sort = 'newest'
  }
  return params
}

/** How many filters (besides sort) are on, for the filter button's badge. */
export function activeFilterCount(state: SearchState): number {
  return [
    state.grade !== undefined,
    state.gradingService !== undefined,
    state.minYuan !== '' || state.maxYuan !== '',
    state.type === 'auction' && state.status !== DEFAULT_STATUS,
  ].filter(Boolean).length
}
