import type { PriceStep } from './increments'

/**
 * Why a proposed increment table (DESIGN §4, operators replace it in the console) is refused:
 * - `empty`: no rows;
 * - `first-not-zero`: the first row must start at 0, so every price has a step;
 * - `not-ascending`: each `from` must be above the one before;
 * - `step-not-positive`: a step is a positive whole number of fen;
 * - `off-previous-grid`: a band must start on the grid of the band below it, or the last amounts
 *   below it would step past its start onto an amount off both grids;
 * - `off-own-grid`: …and on its own grid, so `nextAmount` from the band below lands on the grid
 *   (the invariant `nearestOnGrid` relies on).
 */
export type IncrementTableProblem =
  | 'empty'
  | 'first-not-zero'
  | 'not-ascending'
  | 'step-not-positive'
  | 'off-previous-grid'
  | 'off-own-grid'

export type IncrementTableCheck =
  { ok: true } | { ok: false; problem: IncrementTableProblem; row: number }

/** Whether `steps`, in the order given, is a table bids can be judged by (rows counted from 0). */
export function checkIncrementTable(steps: readonly PriceStep[]): IncrementTableCheck {
  if (steps.length === 0) return { ok: false, problem: 'empty', row: 0 }
  for (const [row, { from, step }] of steps.entries()) {
    if (!Number.isSafeInteger(step) || step <= 0)
      return { ok: false, problem: 'step-not-positive', row }
    if (row === 0) {
      if (from !== 0) return { ok: false, problem: 'first-not-zero', row }
      continue
    }
    const previous = steps[row - 1]!
    if (!Number.isSafeInteger(from) || from <= previous.from)
      return { ok: false, problem: 'not-ascending', row }
    if (from % previous.step !== 0) return { ok: false, problem: 'off-previous-grid', row }
    if (from % step !== 0) return { ok: false, problem: 'off-own-grid', row }
  }
  return { ok: true }
}
