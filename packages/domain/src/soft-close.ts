/**
 * Soft close (DESIGN §4): an accepted bid within the last `windowSeconds` moves the lot's end to
 * bid time + `extendSeconds`. Never earlier than the current end; rejected bids never call this.
 */
export interface SoftClose {
  windowSeconds: number
  extendSeconds: number
}

export const DEFAULT_SOFT_CLOSE: SoftClose = { windowSeconds: 300, extendSeconds: 300 }

export function endAfterBid(endsAt: number, bidAt: number, rule: SoftClose = DEFAULT_SOFT_CLOSE) {
  if (bidAt >= endsAt || endsAt - bidAt > rule.windowSeconds * 1000) return endsAt
  return Math.max(endsAt, bidAt + rule.extendSeconds * 1000)
}

/** Staggered close: lot n (from 1) of a special ends `staggerSeconds` after lot n − 1. */
export function staggeredEnd(specialEndsAt: number, lotNo: number, staggerSeconds: number): number {
  return specialEndsAt + (lotNo - 1) * staggerSeconds * 1000
}
