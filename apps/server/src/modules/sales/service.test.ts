import type { SaleResults } from '@numisma/contracts/staff-sales'
import { describe, expect, it } from 'vitest'
import type { SpecialSummaryRow } from './repository'
import { resultsCsv, saleState } from './service'

const MINUTE = 60_000

const special = (overrides: Partial<SpecialSummaryRow> = {}): SpecialSummaryRow => ({
  id: 1,
  title: '专场',
  subtitle: '',
  description: '',
  cover: '',
  starts_at: 10 * MINUTE,
  ends_at: 60 * MINUTE,
  stagger_seconds: 30,
  soft_close_window_seconds: 300,
  soft_close_extend_seconds: 300,
  created_at: 0,
  lot_count: 2,
  open_lots: 2,
  last_lot_ends_at: 61 * MINUTE,
  ...overrides,
})

describe('saleState', () => {
  it('is upcoming before the start and running while a lot is open or its end is ahead', () => {
    expect(saleState(special(), 5 * MINUTE)).toBe('upcoming')
    expect(saleState(special(), 30 * MINUTE)).toBe('running')
    // Past every end, but the sweeper has not closed a lot yet: still running.
    expect(saleState(special({ open_lots: 1 }), 70 * MINUTE)).toBe('running')
    // A soft-close extension keeps it running past the nominal end.
    expect(saleState(special({ open_lots: 0, last_lot_ends_at: 80 * MINUTE }), 70 * MINUTE)).toBe(
      'running',
    )
  })

  it('is closed once every lot has closed past its end, or at the end for a special without lots', () => {
    expect(saleState(special({ open_lots: 0 }), 62 * MINUTE)).toBe('closed')
    expect(
      saleState(special({ lot_count: 0, open_lots: 0, last_lot_ends_at: null }), 59 * MINUTE),
    ).toBe('running')
    expect(
      saleState(special({ lot_count: 0, open_lots: 0, last_lot_ends_at: null }), 60 * MINUTE),
    ).toBe('closed')
  })
})

describe('resultsCsv', () => {
  const results = (title: string): SaleResults => ({
    special: {
      id: 1,
      title: '专场',
      startsAt: '',
      endsAt: '',
      lastLotEndsAt: null,
      state: 'closed',
      lotCount: 1,
    },
    lots: [
      {
        id: 7,
        lotNo: 1,
        title,
        status: 'sold',
        startPrice: 10_000,
        reservePrice: null,
        hammer: 123_405,
        highestBid: 123_405,
        highestBidder: { userId: 9, mobile: '138****8000', display: '藏友' },
        unsoldReason: null,
        bidCount: 3,
        buyer: { userId: 9, mobile: '138****8000', display: '藏友' },
        order: { id: 4, status: 'paid' },
        relistedAs: null,
        relistable: false,
      },
    ],
    totals: {
      lots: 1,
      sold: 1,
      unsold: 0,
      hammer: 123_405,
      bids: 3,
      watchers: 0,
      sellThrough: 100,
    },
  })

  it('quotes commas and quotes, and never lets a title be read as a formula', () => {
    const lines = resultsCsv(results('=HYPERLINK("x"),壹圆')).split('\r\n')
    expect(lines[1]).toBe(
      `1,"'=HYPERLINK(""x""),壹圆",成交,,1234.05,1234.05,3,9,138****8000,9,138****8000,4,已付款,`,
    )
  })

  it('starts with a byte-order mark so spreadsheet programs read the Chinese', () => {
    expect(resultsCsv(results('壹圆')).startsWith('\uFEFF拍品号')).toBe(true)
  })
})
