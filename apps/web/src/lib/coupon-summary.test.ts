import { describe, expect, it } from 'vitest'
import { createTranslator } from './i18n'
import { couponFigure, couponSummary, couponYuan, type CouponSavingTerms } from './coupon-summary'
import { en } from './locales/en'
import { zhCN } from './locales/zh-cn'

const zh = createTranslator(zhCN)
const english = createTranslator(en)

const buildTerms = (overrides: Partial<CouponSavingTerms> = {}): CouponSavingTerms => ({
  kind: 'amount',
  threshold: 10_000,
  amount: 1_000,
  percent: null,
  cap: null,
  ...overrides,
})

describe('couponYuan', () => {
  it('drops the cents of whole yuan and keeps them otherwise, with separators', () => {
    expect(couponYuan(10_000)).toBe('100')
    expect(couponYuan(9_950)).toBe('99.50')
    expect(couponYuan(5)).toBe('0.05')
    expect(couponYuan(123_456_700)).toBe('1,234,567')
  })
})

describe('couponSummary', () => {
  it('tells spend-X-save-Y as 满X减Y', () => {
    expect(couponSummary(buildTerms(), zh)).toBe('满100减10')
    expect(couponSummary(buildTerms(), english)).toBe('¥10 off over ¥100')
  })

  it('tells a saving without a threshold as 无门槛', () => {
    const terms = buildTerms({ threshold: 0, amount: 500 })
    expect(couponSummary(terms, zh)).toBe('无门槛减5')
    expect(couponSummary(terms, english)).toBe('¥5 off')
  })

  it('keeps the cents of odd amounts', () => {
    expect(couponSummary(buildTerms({ threshold: 9_950, amount: 1_025 }), zh)).toBe(
      '满99.50减10.25',
    )
  })

  it('tells percent off as the share paid, in tenths, with its cap', () => {
    const terms = buildTerms({
      kind: 'percent',
      threshold: 0,
      amount: null,
      percent: 10,
      cap: 5_000,
    })
    expect(couponSummary(terms, zh)).toBe('9折 最高减50')
    expect(couponSummary(terms, english)).toBe('10% off, up to ¥50')
    expect(couponSummary({ ...terms, percent: 15, cap: null }, zh)).toBe('8.5折')
    expect(couponSummary({ ...terms, percent: 12, cap: null }, zh)).toBe('8.8折')
  })

  it('puts the threshold of a percent coupon first', () => {
    const terms = buildTerms({
      kind: 'percent',
      threshold: 20_000,
      amount: null,
      percent: 20,
      cap: null,
    })
    expect(couponSummary(terms, zh)).toBe('满200打8折')
    expect(couponSummary(terms, english)).toBe('20% off over ¥200')
    expect(couponSummary({ ...terms, cap: 3_000 }, zh)).toBe('满200打8折 最高减30')
  })
})

describe('couponFigure', () => {
  it('is the amount saved or the discount', () => {
    expect(couponFigure(buildTerms(), zh)).toBe('¥10')
    expect(couponFigure(buildTerms({ amount: 1_050 }), english)).toBe('¥10.50')
    const percent = buildTerms({ kind: 'percent', amount: null, percent: 5 })
    expect(couponFigure(percent, zh)).toBe('9.5折')
    expect(couponFigure(percent, english)).toBe('5% off')
  })
})
