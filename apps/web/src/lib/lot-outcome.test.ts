import type { LotCard } from '@numisma/contracts/catalog'
import { describe, expect, it } from 'vitest'
import { closedStanding, isLotClosed, shownPrice, unsoldHighestBid } from './lot-outcome'

const buildLot = (
  overrides: Partial<LotCard> = {},
): Pick<LotCard, 'status' | 'price' | 'startPrice'> => ({
  status: 'live',
  price: null,
  startPrice: 112_000,
  ...overrides,
})

describe('shownPrice', () => {
  it('shows the start price until the first bid, then the current price', () => {
    expect(shownPrice(buildLot())).toEqual({ labelKey: 'lot.startPrice', fen: 112_000 })
    expect(shownPrice(buildLot({ status: 'preview' }))).toEqual({
      labelKey: 'lot.startPrice',
      fen: 112_000,
    })
    expect(shownPrice(buildLot({ price: 120_000 }))).toEqual({
      labelKey: 'lot.currentPrice',
      fen: 120_000,
    })
  })

  it('calls the price of a sold lot its hammer price', () => {
    expect(shownPrice(buildLot({ status: 'sold', price: 130_000 }))).toEqual({
      labelKey: 'lot.soldPrice',
      fen: 130_000,
    })
  })

  it('never gives an unsold lot a hammer price, with or without bids', () => {
    expect(shownPrice(buildLot({ status: 'unsold' }))).toEqual({
      labelKey: 'lot.startPrice',
      fen: 112_000,
    })
    expect(shownPrice(buildLot({ status: 'unsold', price: 118_000 }))).toEqual({
      labelKey: 'lot.startPrice',
      fen: 112_000,
    })
  })
})

describe('unsoldHighestBid', () => {
  it('is the highest bid of an unsold lot only', () => {
    expect(unsoldHighestBid(buildLot({ status: 'unsold', price: 118_000 }))).toBe(118_000)
    expect(unsoldHighestBid(buildLot({ status: 'unsold' }))).toBeNull()
    expect(unsoldHighestBid(buildLot({ status: 'sold', price: 118_000 }))).toBeNull()
    expect(unsoldHighestBid(buildLot({ price: 118_000 }))).toBeNull()
  })
})

describe('closedStanding', () => {
  it('is nothing while the lot is open, even for the leader', () => {
    expect(closedStanding({ status: 'live', won: false }, true)).toBeNull()
    expect(closedStanding({ status: 'preview', won: false }, false)).toBeNull()
  })

  it('tells the winner they won, and a bidder who did not that they lost', () => {
    expect(closedStanding({ status: 'sold', won: true }, true)).toBe('won')
    expect(closedStanding({ status: 'sold', won: false }, true)).toBe('lost')
  })

  it('counts a bidder on an unsold lot as lost, even if they led below the reserve', () => {
    expect(closedStanding({ status: 'unsold', won: false }, true)).toBe('lost')
  })

  it('says nothing to an onlooker', () => {
    expect(closedStanding({ status: 'sold', won: false }, false)).toBeNull()
    expect(closedStanding({ status: 'unsold', won: false }, false)).toBeNull()
  })

  it('closes only on a settled status', () => {
    expect(isLotClosed({ status: 'sold' })).toBe(true)
    expect(isLotClosed({ status: 'unsold' })).toBe(true)
    expect(isLotClosed({ status: 'live' })).toBe(false)
  })
})
