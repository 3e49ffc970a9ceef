import { describe, expect, it } from 'vitest'
import {
  chinaTime,
  chinaToday,
  fenToYuan,
  groupedAccountNo,
  moneyText,
  nameOf,
  signedYuan,
  yuanText,
} from './format'

describe('money formats', () => {
  it('shows fen as yuan, signed for movements', () => {
    expect(yuanText(123_456)).toBe('1,234.56')
    expect(signedYuan(500)).toBe('+5.00')
    expect(signedYuan(-350)).toBe('-3.50')
    expect(fenToYuan(1_050)).toBe(10.5)
    expect(moneyText(-1_515_000)).toBe('-¥15,150.00')
    expect(moneyText(500)).toBe('¥5.00')
  })
  it('reads instants and days in China time', () => {
    expect(chinaTime('2026-11-25T16:30:00.000Z')).toBe('2026-11-26 00:30')
    expect(chinaToday(Date.parse('2026-11-25T16:30:00.000Z'))).toBe('2026-11-26')
    expect(chinaTime(null)).toBe('')
  })
  it('names a kind, or shows it as is', () => {
    expect(nameOf({ refund: '订单退款' }, 'refund')).toBe('订单退款')
    expect(nameOf({}, 'other')).toBe('other')
  })
})

describe('groupedAccountNo', () => {
  it('groups an account number by four, ignoring spaces typed into it', () => {
    expect(groupedAccountNo('0200248909200135678')).toBe('0200 2489 0920 0135 678')
    expect(groupedAccountNo('6222 0000 1111')).toBe('6222 0000 1111')
    expect(groupedAccountNo('1234')).toBe('1234')
  })
})
