import { describe, expect, it } from 'vitest'
import { minNextBid, priceStepRows, stepAt } from './price-steps'

const YUAN = 100
const steps = [
  { from: 100 * YUAN, step: 10 * YUAN },
  { from: 0, step: 5 * YUAN },
  { from: 1_000 * YUAN, step: 20 * YUAN },
]

describe('stepAt', () => {
  it('uses the last row the price has reached, whatever the table order', () => {
    expect(stepAt(0, steps)).toBe(5 * YUAN)
    expect(stepAt(99 * YUAN, steps)).toBe(5 * YUAN)
    expect(stepAt(100 * YUAN, steps)).toBe(10 * YUAN)
    expect(stepAt(5_000 * YUAN, steps)).toBe(20 * YUAN)
  })

  it('is undefined without a table', () => {
    expect(stepAt(100, [])).toBeUndefined()
  })
})

describe('minNextBid', () => {
  it('is the start price before any bid, then price plus its step', () => {
    expect(minNextBid({ price: null, startPrice: 300 * YUAN }, steps)).toBe(300 * YUAN)
    expect(minNextBid({ price: 990 * YUAN, startPrice: 300 * YUAN }, steps)).toBe(1_000 * YUAN)
  })
})

describe('priceStepRows', () => {
  it('turns the table into ranges with an open top', () => {
    expect(priceStepRows(steps)).toEqual([
      { from: 0, below: 100 * YUAN, step: 5 * YUAN },
      { from: 100 * YUAN, below: 1_000 * YUAN, step: 10 * YUAN },
      { from: 1_000 * YUAN, below: null, step: 20 * YUAN },
    ])
  })
})
