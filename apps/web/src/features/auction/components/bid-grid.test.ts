import { describe, expect, it } from 'vitest'
import {
  effectiveAmount,
  isOnGrid,
  minimumBid,
  nextAmount,
  prevAmount,
  snapDown,
  snapUp,
} from './bid-grid'

const YUAN = 100
/** DESIGN §4's table (in fen), deliberately out of order. */
const steps = [
  { from: 2_000 * YUAN, step: 50 * YUAN },
  { from: 0, step: 5 * YUAN },
  { from: 100 * YUAN, step: 10 * YUAN },
  { from: 1_000 * YUAN, step: 20 * YUAN },
  { from: 5_000 * YUAN, step: 100 * YUAN },
]

const lot = (over: Partial<Parameters<typeof minimumBid>[0]> = {}) => ({
  price: null,
  startPrice: 300 * YUAN,
  leading: false,
  myMax: null,
  ...over,
})

describe('isOnGrid', () => {
  it('accepts multiples of the step of their own band only', () => {
    expect(isOnGrid(95 * YUAN, steps)).toBe(true)
    expect(isOnGrid(105 * YUAN, steps)).toBe(false)
    expect(isOnGrid(110 * YUAN, steps)).toBe(true)
    expect(isOnGrid(1_010 * YUAN, steps)).toBe(false)
    expect(isOnGrid(2_050 * YUAN, steps)).toBe(true)
    expect(isOnGrid(12_345, steps)).toBe(false)
  })

  it('is false without a table', () => {
    expect(isOnGrid(100, [])).toBe(false)
  })
})

describe('snapUp and snapDown', () => {
  it('round to the nearest valid amount in each direction', () => {
    expect(snapUp(101 * YUAN, steps)).toBe(110 * YUAN)
    expect(snapDown(109 * YUAN, steps)).toBe(100 * YUAN)
    expect(snapUp(1_990 * YUAN + 1, steps)).toBe(2_000 * YUAN)
    expect(snapDown(2_049 * YUAN, steps)).toBe(2_000 * YUAN)
    expect(snapDown(1_999 * YUAN, steps)).toBe(1_980 * YUAN)
  })

  it('crosses into the next band when a band starts off its own step', () => {
    const odd = [
      { from: 0, step: 300 },
      { from: 1_000, step: 1_000 },
    ]
    // 900 + 300 = 1200 would be off the 1,000 step above 1,000.
    expect(snapUp(901, odd)).toBe(1_000)
    expect(snapDown(999, odd)).toBe(900)
  })
})

describe('nextAmount and prevAmount', () => {
  it('move one grid step and agree with X + step(X)', () => {
    expect(nextAmount(95 * YUAN, steps)).toBe(100 * YUAN)
    expect(nextAmount(100 * YUAN, steps)).toBe(110 * YUAN)
    expect(nextAmount(1_980 * YUAN, steps)).toBe(2_000 * YUAN)
    expect(prevAmount(2_000 * YUAN, 0, steps)).toBe(1_980 * YUAN)
    expect(prevAmount(110 * YUAN, 0, steps)).toBe(100 * YUAN)
  })

  it('never go below the minimum', () => {
    expect(prevAmount(300 * YUAN, 300 * YUAN, steps)).toBeUndefined()
    expect(prevAmount(310 * YUAN, 300 * YUAN, steps)).toBe(300 * YUAN)
  })

  it('stay on the grid over a long walk', () => {
    let x = 5 * YUAN
    for (let i = 0; i < 300; i++) {
      const next = nextAmount(x, steps)!
      expect(isOnGrid(next, steps)).toBe(true)
      expect(prevAmount(next, 0, steps)).toBe(x)
      x = next
    }
  })
})

describe('minimumBid', () => {
  it('is the start price before any bid and next(price) after', () => {
    expect(minimumBid(lot(), 'direct', steps)).toBe(300 * YUAN)
    expect(minimumBid(lot({ price: 990 * YUAN }), 'direct', steps)).toBe(1_000 * YUAN)
  })

  it('makes a leader raise the proxy maximum above the current one', () => {
    const leader = lot({ price: 310 * YUAN, leading: true, myMax: 800 * YUAN })
    expect(minimumBid(leader, 'proxy', steps)).toBe(810 * YUAN)
    expect(minimumBid(leader, 'direct', steps)).toBe(320 * YUAN)
  })

  it('is undefined without a table', () => {
    expect(minimumBid(lot(), 'direct', [])).toBeUndefined()
  })
})

describe('effectiveAmount', () => {
  it('keeps a valid choice and falls back to the minimum otherwise', () => {
    expect(effectiveAmount(null, 300 * YUAN, steps)).toBe(300 * YUAN)
    expect(effectiveAmount(500 * YUAN, 300 * YUAN, steps)).toBe(500 * YUAN)
    // The price moved past the choice.
    expect(effectiveAmount(300 * YUAN, 320 * YUAN, steps)).toBe(320 * YUAN)
    expect(effectiveAmount(305 * YUAN, 300 * YUAN, steps)).toBe(300 * YUAN)
  })
})
