import { DEFAULT_PRICE_STEPS } from '@numisma/domain/increments'
import { describe, expect, it } from 'vitest'
import {
  checkTypedBid,
  effectiveAmount,
  MAX_BID,
  minimumBid,
  previousAmount,
  type BidFloorInput,
} from './bid-amount'

const YUAN = 100
const steps = DEFAULT_PRICE_STEPS
/** A table an operator changed: ¥20 steps from ¥500 instead of ¥10 up to ¥1,000. */
const operatorSteps = [
  { from: 0, step: 5 * YUAN },
  { from: 500 * YUAN, step: 20 * YUAN },
  { from: 1_000 * YUAN, step: 50 * YUAN },
]

const buildFloor = (overrides: Partial<BidFloorInput> = {}): BidFloorInput => ({
  price: null,
  startPrice: 300 * YUAN,
  leading: false,
  myMax: null,
  ...overrides,
})

describe('minimumBid', () => {
  it('is the start price before the first bid and one step above the price after', () => {
    expect(minimumBid(buildFloor(), 'direct', steps)).toBe(300 * YUAN)
    expect(minimumBid(buildFloor({ price: 620 * YUAN }), 'direct', steps)).toBe(630 * YUAN)
    expect(minimumBid(buildFloor({ price: 620 * YUAN }), 'direct', operatorSteps)).toBe(640 * YUAN)
  })

  it('makes a leader raise their proxy above their maximum', () => {
    const leader = buildFloor({ price: 620 * YUAN, leading: true, myMax: 800 * YUAN })
    expect(minimumBid(leader, 'proxy', steps)).toBe(810 * YUAN)
    expect(minimumBid(leader, 'direct', steps)).toBe(630 * YUAN)
  })
})

describe('previousAmount', () => {
  it('steps down the grid, across a band edge, and not below the minimum', () => {
    expect(previousAmount(640 * YUAN, 300 * YUAN, steps)).toBe(630 * YUAN)
    expect(previousAmount(100 * YUAN, 50 * YUAN, steps)).toBe(95 * YUAN)
    expect(previousAmount(1_020 * YUAN, 300 * YUAN, steps)).toBe(1_000 * YUAN)
    expect(previousAmount(1_000 * YUAN, 300 * YUAN, steps)).toBe(990 * YUAN)
    expect(previousAmount(630 * YUAN, 630 * YUAN, steps)).toBeUndefined()
  })
})

describe('effectiveAmount', () => {
  it('keeps a valid choice and falls back to the minimum when the price overtakes it', () => {
    expect(effectiveAmount(800 * YUAN, 630 * YUAN, steps)).toBe(800 * YUAN)
    expect(effectiveAmount(800 * YUAN, 810 * YUAN, steps)).toBe(810 * YUAN)
    expect(effectiveAmount(null, 630 * YUAN, steps)).toBe(630 * YUAN)
    expect(effectiveAmount(805 * YUAN, 630 * YUAN, steps)).toBe(630 * YUAN)
  })
})

describe('checkTypedBid', () => {
  const minimum = 630 * YUAN

  it('takes ¥800 typed from ¥620 in one go (18 taps of the stepper before)', () => {
    expect(checkTypedBid('800', minimum, steps)).toEqual({ kind: 'valid', amount: 800 * YUAN })
  })

  it('offers the two nearest valid amounts for an off-grid amount', () => {
    expect(checkTypedBid('803', minimum, steps)).toEqual({
      kind: 'off-grid',
      amount: 803 * YUAN,
      choices: [800 * YUAN, 810 * YUAN],
    })
    expect(checkTypedBid('1010', minimum, steps)).toEqual({
      kind: 'off-grid',
      amount: 1_010 * YUAN,
      choices: [1_000 * YUAN, 1_020 * YUAN],
    })
  })

  it('snaps to the table the server serves, not a built-in one', () => {
    expect(checkTypedBid('810', minimum, operatorSteps)).toEqual({
      kind: 'off-grid',
      amount: 810 * YUAN,
      choices: [800 * YUAN, 820 * YUAN],
    })
    expect(checkTypedBid('820', minimum, operatorSteps)).toEqual({
      kind: 'valid',
      amount: 820 * YUAN,
    })
  })

  it('never offers a choice below the minimum', () => {
    // A start price set before the operator widened the steps is off the new grid.
    const oldStart = 505 * YUAN
    expect(checkTypedBid('510', oldStart, operatorSteps)).toEqual({
      kind: 'off-grid',
      amount: 510 * YUAN,
      choices: [520 * YUAN],
    })
  })

  it('says the minimum for an amount below it', () => {
    expect(checkTypedBid('600', minimum, steps)).toEqual({ kind: 'below-minimum', minimum })
    expect(checkTypedBid('0', minimum, steps)).toEqual({ kind: 'below-minimum', minimum })
  })

  it('ignores an empty field and refuses more than a bid may be', () => {
    expect(checkTypedBid('', minimum, steps)).toEqual({ kind: 'empty' })
    expect(checkTypedBid(' ', minimum, steps)).toEqual({ kind: 'empty' })
    expect(checkTypedBid(String(MAX_BID), minimum, steps)).toEqual({
      kind: 'too-high',
      maximum: MAX_BID,
    })
  })
})
