import { DEFAULT_PRICE_STEPS } from '@numisma/domain/increments'
import { describe, expect, it } from 'vitest'
import { durationText, fenOf, offGrid, pickedIso, pickerDate, yuanOf } from './format'

const wall = (d: Date) => ({
  year: () => d.getFullYear(),
  month: () => d.getMonth(),
  date: () => d.getDate(),
  hour: () => d.getHours(),
  minute: () => d.getMinutes(),
})

describe('catalogue formats', () => {
  it('converts yuan and fen without float drift', () => {
    expect(fenOf(1234.56)).toBe(123_456)
    expect(fenOf(0.29)).toBe(29)
    expect(yuanOf(123_456)).toBe(1234.56)
  })

  it('reads a picked time as China time and shows an instant as its China wall clock', () => {
    const iso = '2026-12-01T12:00:00.000Z' // 20:00 in China
    const shown = pickerDate(iso)
    expect([shown.getHours(), shown.getMinutes()]).toEqual([20, 0])
    expect(pickedIso(wall(shown))).toBe(iso)
  })

  it('names the nearest amounts of an off-grid price', () => {
    expect(offGrid(10_000, DEFAULT_PRICE_STEPS)).toBeNull()
    expect(offGrid(10_500, DEFAULT_PRICE_STEPS)).toEqual({ below: '100.00', above: '110.00' })
  })

  it('spells durations', () => {
    expect(durationText(30)).toBe('30 秒')
    expect(durationText(300)).toBe('5 分钟')
    expect(durationText(90)).toBe('1 分 30 秒')
  })
})
