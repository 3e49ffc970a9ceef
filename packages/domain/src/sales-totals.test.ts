import { describe, expect, it } from 'vitest'
import { saleTotals, unsoldReason } from './sales-totals'

describe('saleTotals', () => {
  it('sums hammer over sold lots only and judges sell-through by closed lots', () => {
    expect(
      saleTotals([
        { status: 'sold', price: 120_000, bidCount: 4, watchers: 3 },
        { status: 'unsold', price: 50_000, bidCount: 1, watchers: 1 },
        { status: 'unsold', price: null, bidCount: 0 },
        { status: 'live', price: 80_000, bidCount: 2, watchers: 5 },
      ]),
    ).toEqual({
      lots: 4,
      sold: 1,
      unsold: 2,
      hammer: 120_000,
      bids: 7,
      watchers: 9,
      sellThrough: 33.3,
    })
  })

  it('is zero throughout for a sale with nothing closed', () => {
    expect(saleTotals([{ status: 'live', price: null, bidCount: 0 }]).sellThrough).toBe(0)
    expect(saleTotals([])).toMatchObject({ lots: 0, sold: 0, hammer: 0, sellThrough: 0 })
  })
})

describe('unsoldReason', () => {
  it('names a reserve the bids stopped below, and a lot nobody bid on', () => {
    expect(unsoldReason({ price: 40_000, bidCount: 2, reservePrice: 50_000 })).toBe(
      'reserve_not_met',
    )
    expect(unsoldReason({ price: null, bidCount: 0, reservePrice: 50_000 })).toBe('no_bids')
    expect(unsoldReason({ price: null, bidCount: 0, reservePrice: null })).toBe('no_bids')
    // Bids at the reserve do not explain an unsold lot.
    expect(unsoldReason({ price: 50_000, bidCount: 1, reservePrice: 50_000 })).toBeNull()
    expect(unsoldReason({ price: 50_000, bidCount: 1, reservePrice: null })).toBeNull()
  })
})
