import { describe, expect, it } from 'vitest'
import { formatFen, formatPrice, normaliseDigits } from './money'

describe('formatPrice (spec §5)', () => {
  it('uses thousands separators and two decimals by default', () => {
    expect(formatPrice(1234567.891)).toBe('1,234,567.89')
    expect(formatPrice(0)).toBe('0.00')
    expect(formatPrice(999)).toBe('999.00')
    expect(formatPrice(1000)).toBe('1,000.00')
  })

  it('honours digits between 0 and 20', () => {
    expect(formatPrice(1234.5, 0)).toBe('1,235')
    expect(formatPrice(1234.5, 1)).toBe('1,234.5')
    expect(formatPrice(1, 20)).toBe('1.00000000000000000000')
  })

  it.each([-1, 21, 2.5, Number.NaN, 100])('falls back to 2 digits for %s', (digits) => {
    expect(formatPrice(1234.5, digits)).toBe('1,234.50')
    expect(normaliseDigits(digits)).toBe(2)
  })

  it('accepts strings, negatives and rubbish', () => {
    expect(formatPrice('1,234.5')).toBe('1,234.50')
    expect(formatPrice(-1234.5)).toBe('-1,234.50')
    expect(formatPrice(-0.001)).toBe('0.00')
    expect(formatPrice('abc')).toBe('0.00')
    expect(formatPrice(null)).toBe('0.00')
    expect(formatPrice(undefined)).toBe('0.00')
  })
})

describe('formatFen', () => {
  it('formats integer fen exactly', () => {
    expect(formatFen(123456789)).toBe('1,234,567.89')
    expect(formatFen(5)).toBe('0.05')
    expect(formatFen(-150)).toBe('-1.50')
    expect(formatFen(Number.MAX_SAFE_INTEGER)).toBe('90,071,992,547,409.91')
  })

  it('supports other digit counts and ignores non-integers', () => {
    expect(formatFen(123456, 0)).toBe('1,235')
    expect(formatFen(12.5)).toBe('0.00')
  })
})
