import { describe, expect, it } from 'vitest'
import {
  activeFilterCount,
  parseSearchState,
  parseYuan,
  searchStateToUrl,
  toSearchParams,
  type SearchState,
} from './search-state'

const state = (overrides: Partial<SearchState> = {}): SearchState => ({
  ...parseSearchState(new URLSearchParams()),
  ...overrides,
})

describe('parseSearchState', () => {
  it('defaults to live auction lots ending soonest', () => {
    expect(parseSearchState(new URLSearchParams())).toEqual({
      type: 'auction',
      keyword: '',
      categoryId: undefined,
      specialId: undefined,
      grade: undefined,
      gradingService: undefined,
      minYuan: '',
      maxYuan: '',
      status: 'live',
      sort: 'ending',
    })
  })

  it('reads a category, a keyword and the filters', () => {
    const parsed = parseSearchState(
      new URLSearchParams(
        'id=3&type=mall&keyword=%20袁大头%20&grade=23&gradingService=PCGS&minPrice=100&maxPrice=2000.5&status=all&sort=price_desc',
      ),
    )
    expect(parsed).toMatchObject({
      type: 'mall',
      keyword: '袁大头',
      categoryId: 3,
      grade: 23,
      gradingService: 'PCGS',
      minYuan: '100',
      maxYuan: '2000.5',
      status: 'all',
      sort: 'price_desc',
    })
  })

  it('drops malformed values instead of sending them', () => {
    const parsed = parseSearchState(
      new URLSearchParams('id=-1&grade=abc&gradingService=XYZ&minPrice=1e9&status=x&sort=random'),
    )
    expect(parsed).toEqual(state())
  })

  it('round-trips through the URL', () => {
    const s = state({ categoryId: 2, keyword: '龙洋', grade: 51, minYuan: '50', sort: 'bids' })
    expect(parseSearchState(searchStateToUrl(s))).toEqual(s)
    expect(searchStateToUrl(s).toString()).toBe(
      'id=2&type=auction&keyword=%E9%BE%99%E6%B4%8B&grade=51&minPrice=50&sort=bids',
    )
  })
})

describe('parseYuan', () => {
  it('turns typed yuan into integer fen', () => {
    expect(parseYuan('1200')).toBe(120_000)
    expect(parseYuan(' 99.5 ')).toBe(9_950)
    expect(parseYuan('0.01')).toBe(1)
    expect(parseYuan('19.99')).toBe(1_999)
  })

  it('refuses anything that is not a price', () => {
    for (const text of ['', '-5', '1.234', 'abc', '1e3', '1,000']) {
      expect(parseYuan(text)).toBeUndefined()
    }
  })
})

describe('toSearchParams', () => {
  it('maps filters to the search call in fen', () => {
    expect(
      toSearchParams(
        state({
          keyword: '袁大头',
          categoryId: 4,
          grade: 23,
          gradingService: 'NGC',
          minYuan: '100',
          maxYuan: '5000',
          status: 'preview',
          sort: 'price_asc',
        }),
      ),
    ).toEqual({
      keyword: '袁大头',
      categoryId: 4,
      grade: 23,
      gradingService: 'NGC',
      minPrice: 10_000,
      maxPrice: 500_000,
      status: 'preview',
      sort: 'price_asc',
      pageSize: 20,
    })
  })

  it('puts a reversed price range the right way round', () => {
    const params = toSearchParams(state({ minYuan: '900', maxYuan: '100' }))
    expect([params.minPrice, params.maxPrice]).toEqual([10_000, 90_000])
  })

  it('leaves auction-only filters off for the mall', () => {
    const params = toSearchParams(
      state({ type: 'mall', status: 'ended', specialId: 3, sort: 'ending' }),
    )
    expect(params.status).toBeUndefined()
    expect(params.specialId).toBeUndefined()
    expect(params.sort).toBe('newest')
  })

  it('keeps a valid mall sort', () => {
    expect(toSearchParams(state({ type: 'mall', sort: 'price_desc' })).sort).toBe('price_desc')
  })
})

describe('activeFilterCount', () => {
  it('counts grade, grading service, price range and a non-default status', () => {
    expect(activeFilterCount(state())).toBe(0)
    expect(
      activeFilterCount(state({ grade: 1, gradingService: 'PMG', minYuan: '5', status: 'all' })),
    ).toBe(4)
    expect(activeFilterCount(state({ type: 'mall', status: 'all' }))).toBe(0)
  })
})
