/**
 * Price formatting of spec §5: thousands separators, 2 decimals by default; a digit count outside
 * 0–20 falls back to 2. Money travels as integer fen (DESIGN §2); `formatFen` is the usual entry.
 */
export const DEFAULT_PRICE_DIGITS = 2

export function normaliseDigits(digits: unknown): number {
  return typeof digits === 'number' && Number.isInteger(digits) && digits >= 0 && digits <= 20
    ? digits
    : DEFAULT_PRICE_DIGITS
}

export function formatPrice(value: number | string | null | undefined, digits?: number): string {
  const d = normaliseDigits(digits ?? DEFAULT_PRICE_DIGITS)
  const n = typeof value === 'string' ? Number(value.replace(/,/g, '')) : (value ?? 0)
  const safe = Number.isFinite(n) ? n : 0
  const [whole = '0', fraction] = Math.abs(safe).toFixed(d).split('.')
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  const sign = safe < 0 && Number(whole + (fraction ?? '')) !== 0 ? '-' : ''
  return fraction === undefined ? `${sign}${grouped}` : `${sign}${grouped}.${fraction}`
}

/** Integer fen → yuan text, exact (no floating-point rounding of the fen). */
export function formatFen(fen: number, digits: number = DEFAULT_PRICE_DIGITS): string {
  const d = normaliseDigits(digits)
  if (!Number.isSafeInteger(fen)) return formatPrice(0, d)
  if (d !== 2) return formatPrice(fen / 100, d)
  const abs = Math.abs(fen)
  const whole = String(Math.trunc(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  const cents = String(abs % 100).padStart(2, '0')
  return `${fen < 0 ? '-' : ''}${whole}.${cents}`
}

export const yuanToFen = (yuan: number): number => Math.round(yuan * 100)
