import { describe, expect, it } from 'vitest'
import {
  bestCoupon,
  type CouponLine,
  type CouponRule,
  couponRefusal,
  couponSaving,
  inScope,
  rankCoupons,
} from './coupons'

const y = (yuan: number) => yuan * 100
const HOUR = 3_600_000
const NOW = Date.UTC(2026, 10, 23, 12)

/** A whole-mall 满100减10 coupon valid for a day around NOW (test data builder). */
const rule = (overrides: Partial<CouponRule> = {}): CouponRule => ({
  kind: 'amount',
  threshold: y(100),
  amount: y(10),
  percent: null,
  cap: null,
  startsAt: NOW - 12 * HOUR,
  endsAt: NOW + 12 * HOUR,
  productNos: [],
  categoryIds: [],
  ...overrides,
})

const percent = (p: number, cap: number | null, overrides: Partial<CouponRule> = {}) =>
  rule({ kind: 'percent', amount: null, percent: p, cap, threshold: 0, ...overrides })

/** One M100001 in category 12 (under 1), 200 yuan. */
const line = (overrides: Partial<CouponLine> = {}): CouponLine => ({
  productNo: 'M100001',
  categoryIds: [12, 1],
  goods: y(200),
  ...overrides,
})

describe('inScope', () => {
  it('covers every item when the coupon names no items and no categories', () => {
    expect(inScope(rule(), line())).toBe(true)
    expect(inScope(rule(), line({ productNo: 'M9', categoryIds: [] }))).toBe(true)
  })

  it('covers a named item, whatever its category', () => {
    expect(inScope(rule({ productNos: ['M100001'] }), line({ categoryIds: [] }))).toBe(true)
    expect(inScope(rule({ productNos: ['M100002'] }), line({ categoryIds: [] }))).toBe(false)
  })

  it("covers an item in a named category or under it (the line carries the item's chain)", () => {
    expect(inScope(rule({ categoryIds: [12] }), line())).toBe(true)
    expect(inScope(rule({ categoryIds: [1] }), line())).toBe(true)
    expect(inScope(rule({ categoryIds: [13] }), line())).toBe(false)
    // A coupon for a child category does not cover items filed only under the parent.
    expect(inScope(rule({ categoryIds: [12] }), line({ categoryIds: [1] }))).toBe(false)
  })

  it('covers the union of named items and categories', () => {
    const both = rule({ productNos: ['M7'], categoryIds: [13] })
    expect(inScope(both, line({ productNo: 'M7' }))).toBe(true)
    expect(inScope(both, line({ categoryIds: [13] }))).toBe(true)
    expect(inScope(both, line())).toBe(false)
  })
})

describe('couponRefusal', () => {
  it('accepts a coupon inside its window, in scope, at its threshold', () => {
    expect(couponRefusal(rule(), line({ goods: y(100) }), NOW)).toBeNull()
  })

  it('judges the window as [startsAt, endsAt)', () => {
    const r = rule()
    expect(couponRefusal(r, line(), r.startsAt - 1)).toBe('not_started')
    expect(couponRefusal(r, line(), r.startsAt)).toBeNull()
    expect(couponRefusal(r, line(), r.endsAt - 1)).toBeNull()
    expect(couponRefusal(r, line(), r.endsAt)).toBe('expired')
  })

  it('refuses an item out of scope and a total below the threshold', () => {
    expect(couponRefusal(rule({ categoryIds: [99] }), line(), NOW)).toBe('out_of_scope')
    expect(couponRefusal(rule(), line({ goods: y(100) - 1 }), NOW)).toBe('below_threshold')
  })
})

describe('couponSaving', () => {
  it('takes the amount off for kind amount, leaving at least one fen to pay', () => {
    expect(couponSaving(rule(), y(200))).toBe(y(10))
    expect(couponSaving(rule({ amount: y(500) }), y(200))).toBe(y(200) - 1)
    expect(couponSaving(rule({ amount: y(200) }), y(200))).toBe(y(200) - 1)
    expect(couponSaving(rule(), 0)).toBe(0)
  })

  it('saves nothing on goods of one fen, whatever the coupon', () => {
    expect(couponSaving(rule({ threshold: 0, amount: y(5) }), 1)).toBe(0)
    expect(couponSaving(percent(99, null), 1)).toBe(0)
    expect(couponSaving(rule({ threshold: 0, amount: y(5) }), 2)).toBe(1)
    expect(rankCoupons([{ id: 1, rule: rule({ threshold: 0 }) }], line({ goods: 1 }), NOW)).toEqual(
      [],
    )
  })

  it('takes a percent off, rounded down to the fen', () => {
    expect(couponSaving(percent(15, null), y(200))).toBe(y(30))
    // 15 % of 0.99 yuan is 14.85 fen: 14.
    expect(couponSaving(percent(15, null), 99)).toBe(14)
    expect(couponSaving(percent(1, null), 99)).toBe(0)
  })

  it('takes a percent of goods whose product with the percent passes 2^53 exactly', () => {
    // The highest price less a fen, 933 units: goods × 97 is about 9.05e15 > 2^53.
    const goods = 99_999_999_999 * 933
    const exact = (BigInt(goods) * 97n) / 100n
    expect(BigInt(couponSaving(percent(97, null), goods))).toBe(exact)
  })

  it('holds a percent coupon to its cap', () => {
    expect(couponSaving(percent(20, y(50)), y(1_000))).toBe(y(50))
    expect(couponSaving(percent(20, y(50)), y(100))).toBe(y(20))
  })

  it('never goes negative', () => {
    expect(couponSaving(rule({ amount: -5 }), y(200))).toBe(0)
    expect(couponSaving(percent(10, null), -100)).toBe(0)
  })
})

describe('rankCoupons and bestCoupon', () => {
  const coupon = (id: number, r: CouponRule) => ({ id, rule: r })

  it('lists the usable coupons best first with the saving of each', () => {
    const ranked = rankCoupons(
      [
        coupon(1, rule()), // 10
        coupon(2, percent(10, y(15))), // 20 → cap 15
        coupon(3, rule({ amount: y(40), threshold: y(300) })), // below threshold
        coupon(4, rule({ categoryIds: [99] })), // out of scope
        coupon(5, rule({ endsAt: NOW })), // expired
        coupon(6, percent(12, null)), // 24
      ],
      line(),
      NOW,
    )
    expect(ranked.map((s) => [s.coupon.id, s.saving])).toEqual([
      [6, y(24)],
      [2, y(15)],
      [1, y(10)],
    ])
  })

  it('breaks a tie by the earlier end (use it before it is lost), then the lower id', () => {
    const ranked = rankCoupons(
      [
        coupon(3, rule({ endsAt: NOW + 2 * HOUR })),
        coupon(1, rule({ endsAt: NOW + 2 * HOUR })),
        coupon(2, rule({ endsAt: NOW + HOUR })),
      ],
      line(),
      NOW,
    )
    expect(ranked.map((s) => s.coupon.id)).toEqual([2, 1, 3])
  })

  it('leaves out a coupon that would save nothing', () => {
    expect(rankCoupons([coupon(1, percent(1, null))], line({ goods: 50 }), NOW)).toEqual([])
  })

  it('picks the first of the ranking, or null when nothing saves', () => {
    expect(bestCoupon([coupon(1, rule()), coupon(2, percent(50, null))], line(), NOW)).toEqual({
      coupon: coupon(2, percent(50, null)),
      saving: y(100),
    })
    expect(bestCoupon([coupon(1, rule({ threshold: y(1_000) }))], line(), NOW)).toBeNull()
    expect(bestCoupon([], line(), NOW)).toBeNull()
  })
})
