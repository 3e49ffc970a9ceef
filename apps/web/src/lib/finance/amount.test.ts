import { describe, expect, it } from 'vitest'
import { parseYuan, yuanText } from './amount'

describe('parseYuan', () => {
  it('reads yuan with up to two decimals as exact fen', () => {
    expect(parseYuan('1200')).toBe(120_000)
    expect(parseYuan(' 99.5 ')).toBe(9_950)
    expect(parseYuan('0.29')).toBe(29)
    expect(parseYuan('0.01')).toBe(1)
    expect(parseYuan('12.')).toBe(1_200)
    expect(parseYuan('123456789.99')).toBe(12_345_678_999)
  })

  it('refuses what is not a positive amount', () => {
    for (const text of [
      '',
      '0',
      '0.00',
      '-5',
      '1.234',
      '1,200',
      'abc',
      '.5',
      '1e3',
      '1234567890',
    ]) {
      expect(parseYuan(text), text).toBeUndefined()
    }
  })
})

describe('yuanText', () => {
  it('writes fen as the yuan an input starts from', () => {
    expect(yuanText(120_000)).toBe('1200')
    expect(yuanText(9_950)).toBe('99.50')
    expect(yuanText(29)).toBe('0.29')
    expect(yuanText(11_001)).toBe('110.01')
  })

  it('round-trips through parseYuan', () => {
    for (const fen of [1, 29, 100, 9_950, 11_001, 12_345_678_999]) {
      expect(parseYuan(yuanText(fen))).toBe(fen)
    }
  })
})
