import type { PriceStep } from '../api/get-price-steps'

/** The step that applies at a price (fen): the last row whose `from` it has reached. */
export function stepAt(amount: number, steps: readonly PriceStep[]): number | undefined {
  let step: number | undefined
  for (const row of [...steps].sort((a, b) => a.from - b.from)) {
    if (amount >= row.from) step = row.step
  }
  return step
}

/** The lowest acceptable next bid: the start price with no bids, else price + step. */
export function minNextBid(
  lot: { price: number | null; startPrice: number },
  steps: readonly PriceStep[],
): number | undefined {
  if (lot.price === null) return lot.startPrice
  const step = stepAt(lot.price, steps)
  return step === undefined ? undefined : lot.price + step
}

export interface PriceStepRow {
  /** Fen, inclusive. */
  from: number
  /** Fen, exclusive; null for the open-ended top row. */
  below: number | null
  step: number
}

/** The increment table as ranges, lowest first. */
export function priceStepRows(steps: readonly PriceStep[]): PriceStepRow[] {
  const sorted = [...steps].sort((a, b) => a.from - b.from)
  return sorted.map((row, i) => ({
    from: row.from,
    below: sorted[i + 1]?.from ?? null,
    step: row.step,
  }))
}
