import type { PriceStep } from '../api/get-price-steps'
import { minNextBid, stepAt } from './price-steps'

/**
 * The grid of valid amounts (DESIGN §4): X is valid when it is a multiple of step(X). The bid bar's
 * stepper only ever lands on these, so an off-grid amount is never shown or sent.
 */

interface Band {
  from: number
  /** Exclusive; null for the open-ended top band. */
  below: number | null
  step: number
}

function bandAt(amount: number, steps: readonly PriceStep[]): Band | undefined {
  const sorted = [...steps].sort((a, b) => a.from - b.from)
  let band: Band | undefined
  sorted.forEach((row, i) => {
    if (amount >= row.from)
      band = { from: row.from, below: sorted[i + 1]?.from ?? null, step: row.step }
  })
  return band
}

export function isOnGrid(amount: number, steps: readonly PriceStep[]): boolean {
  const step = stepAt(amount, steps)
  return step !== undefined && step > 0 && Number.isSafeInteger(amount) && amount % step === 0
}

/** The smallest valid amount ≥ `amount`; undefined without a usable table. */
export function snapUp(amount: number, steps: readonly PriceStep[]): number | undefined {
  let at = Math.max(0, Math.ceil(amount))
  // A band whose start is off its own step can push the candidate into the next band: retry there.
  for (let guard = 0; guard <= steps.length; guard++) {
    const band = bandAt(at, steps)
    if (!band || band.step <= 0) return undefined
    const candidate = Math.ceil(at / band.step) * band.step
    if (band.below === null || candidate < band.below) return candidate
    at = band.below
  }
  return undefined
}

/** The largest valid amount ≤ `amount`; undefined when there is none. */
export function snapDown(amount: number, steps: readonly PriceStep[]): number | undefined {
  let at = Math.floor(amount)
  for (let guard = 0; guard <= steps.length; guard++) {
    if (at < 0) return undefined
    const band = bandAt(at, steps)
    if (!band || band.step <= 0) return undefined
    const candidate = Math.floor(at / band.step) * band.step
    if (candidate >= band.from) return candidate
    at = band.from - 1
  }
  return undefined
}

/** One grid step up from a valid amount (= X + step(X) on an aligned table). */
export function nextAmount(amount: number, steps: readonly PriceStep[]): number | undefined {
  return snapUp(amount + 1, steps)
}

/** One grid step down, but never below `minimum`; undefined when already at the minimum. */
export function prevAmount(
  amount: number,
  minimum: number,
  steps: readonly PriceStep[],
): number | undefined {
  const below = snapDown(amount - 1, steps)
  return below === undefined || below < minimum ? undefined : below
}

export type BidMode = 'direct' | 'proxy'

export interface BidFloorInput {
  price: number | null
  startPrice: number
  leading: boolean
  myMax: number | null
}

/**
 * The lowest amount the server will accept: minNext for everyone, and for a leader raising a
 * proxy maximum also more than that maximum (a maximum can only go up).
 */
export function minimumBid(
  lot: BidFloorInput,
  mode: BidMode,
  steps: readonly PriceStep[],
): number | undefined {
  const floor = minNextBid(lot, steps)
  if (floor === undefined) return undefined
  const onGrid = snapUp(floor, steps)
  if (onGrid === undefined) return undefined
  if (mode === 'proxy' && lot.leading && lot.myMax !== null) {
    const above = nextAmount(lot.myMax, steps)
    return above === undefined ? undefined : Math.max(onGrid, above)
  }
  return onGrid
}

/** The amount the stepper shows: the user's choice if still valid, else the minimum. */
export function effectiveAmount(
  chosen: number | null,
  minimum: number,
  steps: readonly PriceStep[],
): number {
  return chosen !== null && chosen >= minimum && isOnGrid(chosen, steps) ? chosen : minimum
}
