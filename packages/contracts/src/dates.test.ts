import { describe, expect, it } from 'vitest'
import { formatChinaDate, toChinaWallClock } from './dates'

describe('China-time dates (spec §5)', () => {
  it('shifts ISO strings with T by +8 hours', () => {
    expect(formatChinaDate('2026-11-21T04:30:00Z')).toBe('2026-11-21 12:30:00')
    expect(formatChinaDate('2026-11-21T04:30:00.000Z', 'MM-DD HH:mm')).toBe('11-21 12:30')
  })

  it('shifts strings with a dash (no T) by +8 hours as UTC', () => {
    expect(formatChinaDate('2026-11-21 20:00:00')).toBe('2026-11-22 04:00:00')
    expect(formatChinaDate('2026-12-31')).toBe('2026-12-31 08:00:00')
  })

  it('respects an explicit offset', () => {
    expect(formatChinaDate('2026-11-21T12:00:00+08:00')).toBe('2026-11-21 12:00:00')
  })

  it('keeps slash dates (already China time) as they are', () => {
    expect(formatChinaDate('2026/11/21 18:05:09')).toBe('2026-11-21 18:05:09')
    expect(formatChinaDate('2026/1/2')).toBe('2026-01-02 00:00:00')
  })

  it('treats epoch milliseconds and Dates as instants', () => {
    const ms = Date.UTC(2026, 0, 1, 16, 0, 0)
    expect(formatChinaDate(ms)).toBe('2026-01-02 00:00:00')
    expect(formatChinaDate(new Date(ms), 'YYYY/MM/DD')).toBe('2026/01/02')
  })

  it('returns empty text for nothing or rubbish', () => {
    expect(formatChinaDate(null)).toBe('')
    expect(formatChinaDate('')).toBe('')
    expect(formatChinaDate('not a date')).toBe('')
    expect(formatChinaDate('2026-13-45T99:00:00Z')).toBe('')
    expect(toChinaWallClock(Number.NaN)).toBeNull()
  })
})
