/**
 * The increment table of DESIGN §4, in fen. `from` is the lowest current price the step applies
 * to; the table is data so an operator can change it (served by GET /bidding/price-step).
 */
export interface PriceStep {
  from: number
  step: number
}

const YUAN = 100

export const DEFAULT_PRICE_STEPS: readonly PriceStep[] = [
  { from: 0, step: 5 * YUAN },
  { from: 100 * YUAN, step: 10 * YUAN },
  { from: 1_000 * YUAN, step: 20 * YUAN },
  { from: 2_000 * YUAN, step: 50 * YUAN },
  { from: 5_000 * YUAN, step: 100 * YUAN },
  { from: 10_000 * YUAN, step: 200 * YUAN },
  { from: 20_000 * YUAN, step: 500 * YUAN },
  { from: 50_000 * YUAN, step: 1_000 * YUAN },
  { from: 200_000 * YUAN, step: 2_000 * YUAN },
  { from: 500_000 * YUAN, step: 5_000 * YUAN },
  { from: 1_000_000 * YUAN, step: 10_000 * YUAN },
]

/** The step that applies at `amount` (fen). */
export function stepAt(amount: number, steps: readonly PriceStep[] = DEFAULT_PRICE_STEPS): number {
  let step = steps[0]!.step
  for (const s of steps) if (amount >= s.from) step = s.step
  return step
}

/** X is on the grid when it is a positive multiple of step(X). */
export function isOnGrid(
  amount: number,
  steps: readonly PriceStep[] = DEFAULT_PRICE_STEPS,
): boolean {
  return Number.isSafeInteger(amount) && amount > 0 && amount % stepAt(amount, steps) === 0
}

/** next(X) = X + step(X); stays on the grid for every X on the grid. */
export function nextAmount(
  amount: number,
  steps: readonly PriceStep[] = DEFAULT_PRICE_STEPS,
): number {
  return amount + stepAt(amount, steps)
}

/**
 * The valid amounts just below and just above an off-grid amount (for BID_OFF_GRID details).
 * Every band starts on a multiple of its own step and of the step below it, so rounding with the
 * step at `amount` lands on the grid.
 */
export function nearestOnGrid(
  amount: number,
  steps: readonly PriceStep[] = DEFAULT_PRICE_STEPS,
): { below: number | null; above: number } {
  const step = stepAt(amount, steps)
  const below = Math.ceil(amount / step) * step - step
  // Never below the smallest valid amount (a negative amount would otherwise get `above: 0`).
  const above = Math.max(Math.floor(amount / step) * step + step, stepAt(0, steps))
  return { below: below > 0 ? below : null, above }
}
