import { describe, expect, it } from 'vitest'
import { DEFAULT_PRICE_STEPS, isOnGrid, nearestOnGrid, nextAmount, stepAt } from './increments'

const yuan = (n: number) => n * 100

describe('increment table (DESIGN §4)', () => {
  it.each([
    [0, 5],
    [99, 5],
    [100, 10],
    [999, 10],
    [1_000, 20],
    [2_000, 50],
    [5_000, 100],
    [10_000, 200],
    [20_000, 500],
    [50_000, 1_000],
    [199_999, 1_000],
    [200_000, 2_000],
    [500_000, 5_000],
    [999_999, 5_000],
    [1_000_000, 10_000],
    [5_000_000, 10_000],
  ])('at %i yuan the step is %i yuan', (price, step) => {
    expect(stepAt(yuan(price))).toBe(yuan(step))
  })

  it('keeps next(X) on the grid for every grid amount up to 2 million yuan', () => {
    let x = yuan(5)
    let count = 0
    while (x <= yuan(2_000_000)) {
      expect(isOnGrid(x)).toBe(true)
      x = nextAmount(x)
      count++
    }
    expect(count).toBeGreaterThan(500)
  })

  it('knows off-grid amounts', () => {
    expect(isOnGrid(yuan(105))).toBe(false) // step at 105 is 10
    expect(isOnGrid(yuan(110))).toBe(true)
    expect(isOnGrid(yuan(1_010))).toBe(false)
    expect(isOnGrid(0)).toBe(false)
    expect(isOnGrid(-500)).toBe(false)
    expect(isOnGrid(1.5)).toBe(false)
  })

  it('finds the two nearest valid amounts around an off-grid one', () => {
    expect(nearestOnGrid(yuan(105))).toEqual({ below: yuan(100), above: yuan(110) })
    expect(nearestOnGrid(yuan(1_010))).toEqual({ below: yuan(1_000), above: yuan(1_020) })
    expect(nearestOnGrid(yuan(3))).toEqual({ below: null, above: yuan(5) })
  })

  it('is ordered by `from`', () => {
    const froms = DEFAULT_PRICE_STEPS.map((s) => s.from)
    expect([...froms].sort((a, b) => a - b)).toEqual(froms)
  })
})
