/**
 * Money typed by a collector is yuan ("1200", "99.5", "0.01"); the wire carries integer fen. Read
 * from the digits, never through floating point, so "0.29" is 29 fen and not 28.
 */
const YUAN = /^(\d{1,9})(?:\.(\d{0,2}))?$/

/** A typed yuan amount → fen; undefined for anything that is not a positive amount in yuan. */
export function parseYuan(text: string): number | undefined {
  const match = YUAN.exec(text.trim())
  if (!match) return undefined
  const [, whole = '0', cents = ''] = match
  const fen = Number(whole) * 100 + Number(cents.padEnd(2, '0'))
  return fen > 0 ? fen : undefined
}

/** Fen → the yuan text an amount input starts from: "1200", "99.50", without separators. */
export function yuanText(fen: number): string {
  const whole = Math.trunc(fen / 100)
  const cents = fen % 100
  return cents === 0 ? String(whole) : `${whole}.${String(cents).padStart(2, '0')}`
}
