import { describe, expect, it } from 'vitest'
import { checkIncrementTable } from './increment-table'
import { DEFAULT_PRICE_STEPS, isOnGrid, nextAmount, type PriceStep } from './increments'

const table = (...rows: [number, number][]): PriceStep[] =>
  rows.map(([from, step]) => ({ from, step }))

describe('checkIncrementTable', () => {
  it('accepts the default table and a one-row table', () => {
    expect(checkIncrementTable(DEFAULT_PRICE_STEPS)).toEqual({ ok: true })
    expect(checkIncrementTable(table([0, 100]))).toEqual({ ok: true })
  })

  it.each([
    ['empty', [], 0],
    ['first-not-zero', table([100, 5]), 0],
    ['step-not-positive', table([0, 0]), 0],
    ['step-not-positive', table([0, 500], [10_000, -1_000]), 1],
    ['step-not-positive', table([0, 2.5]), 0],
    ['not-ascending', table([0, 500], [10_000, 1_000], [10_000, 2_000]), 2],
    ['not-ascending', table([0, 500], [10_000, 1_000], [5_000, 2_000]), 2],
    ['off-previous-grid', table([0, 500], [10_250, 250]), 1],
    ['off-own-grid', table([0, 500], [10_500, 1_000]), 1],
  ] as const)('refuses %s (row %i)', (problem, steps, row) => {
    expect(checkIncrementTable(steps)).toEqual({ ok: false, problem, row })
  })

  it('every table it accepts keeps next(X) on the grid across each band start', () => {
    const accepted = table([0, 300], [3_000, 1_000], [6_000, 2_000], [30_000, 600])
    expect(checkIncrementTable(accepted)).toEqual({ ok: true })
    for (let x = 300; x < 40_000; x = nextAmount(x, accepted)) {
      expect(isOnGrid(x, accepted)).toBe(true)
    }
  })

  it('a band start off its own grid would step off the grid (why the rule exists)', () => {
    const refused = table([0, 500], [10_500, 1_000])
    expect(checkIncrementTable(refused).ok).toBe(false)
    expect(isOnGrid(nextAmount(10_000, refused), refused)).toBe(false)
  })
})
