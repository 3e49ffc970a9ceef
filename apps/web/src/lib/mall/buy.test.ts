import type { MallItemDetail } from '@numisma/contracts/catalog'
import type { UsableCoupon } from '@numisma/contracts/mall'
import { describe, expect, it } from 'vitest'
import {
  BEST_COUPON,
  buyLimits,
  chosenCoupon,
  clampQuantity,
  couponChoiceParam,
  orderTotals,
  parseCouponChoice,
  QUANTITY_MAX,
  quantityLeftAfter,
  savingFor,
} from './buy'

type Limits = Pick<MallItemDetail, 'onSale' | 'stock' | 'limitPerUser' | 'boughtByMe'>
const buildItem = (overrides: Partial<Limits> = {}): Limits => ({
  onSale: true,
  stock: 10,
  limitPerUser: null,
  boughtByMe: 0,
  ...overrides,
})

const buildCoupon = (overrides: Partial<UsableCoupon> = {}): UsableCoupon => ({
  userCouponId: 11,
  couponId: 3,
  title: '满100减20',
  kind: 'amount',
  threshold: 10_000,
  amount: 2_000,
  percent: null,
  cap: null,
  startsAt: '2030-01-01T00:00:00.000Z',
  endsAt: '2030-02-01T00:00:00.000Z',
  scope: 'all',
  saving: 2_000,
  ...overrides,
})

describe('the stepper bounds', () => {
  it('offers up to the stock when there is no limit per buyer', () => {
    expect(buyLimits(buildItem({ stock: 7 }))).toEqual({ max: 7, block: null })
  })

  it('offers only what is left of the limit after what the buyer holds', () => {
    expect(buyLimits(buildItem({ stock: 7, limitPerUser: 3, boughtByMe: 1 }))).toEqual({
      max: 2,
      block: null,
    })
    // The smaller of the two bounds wins either way round.
    expect(buyLimits(buildItem({ stock: 2, limitPerUser: 5, boughtByMe: 0 })).max).toBe(2)
  })

  it('never offers more than one order may ask for', () => {
    expect(buyLimits(buildItem({ stock: 50_000 })).max).toBe(QUANTITY_MAX)
    expect(QUANTITY_MAX).toBe(999)
  })

  it('names why nothing can be bought, off sale before sold out before the limit', () => {
    expect(buyLimits(buildItem({ limitPerUser: 2, boughtByMe: 2 })).block).toBe('limit_reached')
    // Held more than the limit (the operator lowered it): still reached, never a negative max.
    expect(buyLimits(buildItem({ limitPerUser: 2, boughtByMe: 5 }))).toEqual({
      max: 1,
      block: 'limit_reached',
    })
    expect(buyLimits(buildItem({ stock: 0, limitPerUser: 2, boughtByMe: 2 })).block).toBe(
      'sold_out',
    )
    expect(
      buyLimits(buildItem({ onSale: false, stock: 0, limitPerUser: 2, boughtByMe: 2 })).block,
    ).toBe('off_sale')
  })

  it('brings a quantity from a link or a shrunken stock within 1…max', () => {
    expect(clampQuantity(undefined, 5)).toBe(1)
    expect(clampQuantity(3, 5)).toBe(3)
    expect(clampQuantity(9, 5)).toBe(5)
    expect(clampQuantity(0, 5)).toBe(1)
    expect(clampQuantity(-4, 5)).toBe(1)
    expect(clampQuantity(2.7, 5)).toBe(2)
    expect(clampQuantity(Number.NaN, 5)).toBe(1)
    expect(clampQuantity(3, 0)).toBe(1)
  })
})

describe('the quantity after a refusal', () => {
  it('becomes what is left when the server says fewer units are left than asked', () => {
    expect(quantityLeftAfter({ status: 'SOLD_OUT', left: 2 }, 3)).toBe(2)
    expect(quantityLeftAfter({ status: 'SOLD_OUT', left: 1 }, 999)).toBe(1)
  })

  it('stays when nothing is left, nothing is said, or the refusal is another', () => {
    expect(quantityLeftAfter({ status: 'SOLD_OUT', left: 0 }, 3)).toBeNull()
    expect(quantityLeftAfter({ status: 'SOLD_OUT' }, 3)).toBeNull()
    expect(quantityLeftAfter({ status: 'SOLD_OUT', left: 3 }, 3)).toBeNull()
    expect(quantityLeftAfter({ status: 'LIMIT_EXCEEDED', left: 1 }, 3)).toBeNull()
    expect(quantityLeftAfter({ status: 'SUCCESS', left: 1 }, 3)).toBeNull()
  })
})

describe('the coupon choice', () => {
  const best = buildCoupon({ userCouponId: 11, saving: 3_000 })
  const other = buildCoupon({ userCouponId: 12, saving: 2_000 })

  it('takes the server’s first (best) coupon until the buyer picks', () => {
    expect(chosenCoupon(BEST_COUPON, [best, other])).toBe(best)
    expect(chosenCoupon(BEST_COUPON, [])).toBeNull()
  })

  it('keeps the buyer’s pick, or none, while it is offered', () => {
    expect(chosenCoupon({ kind: 'coupon', id: 12 }, [best, other])).toBe(other)
    expect(chosenCoupon({ kind: 'none' }, [best, other])).toBeNull()
  })

  it('falls back to the best when the picked coupon is no longer offered for this order', () => {
    expect(chosenCoupon({ kind: 'coupon', id: 99 }, [best, other])).toBe(best)
    expect(chosenCoupon({ kind: 'coupon', id: 99 }, [])).toBeNull()
  })

  it('travels to /order/confirm as userCouponId and back', () => {
    for (const choice of [
      BEST_COUPON,
      { kind: 'none' } as const,
      { kind: 'coupon', id: 12 } as const,
    ]) {
      expect(parseCouponChoice(couponChoiceParam(choice))).toEqual(choice)
    }
    expect(couponChoiceParam(BEST_COUPON)).toBeUndefined()
    expect(parseCouponChoice('0')).toEqual(BEST_COUPON)
    expect(parseCouponChoice('abc')).toEqual(BEST_COUPON)
    expect(parseCouponChoice('')).toEqual(BEST_COUPON)
  })
})

describe('the total', () => {
  it('is the goods less the coupon’s saving', () => {
    expect(orderTotals(6_000, 2, buildCoupon())).toEqual({
      goods: 12_000,
      discount: 2_000,
      total: 10_000,
    })
    expect(orderTotals(6_000, 2, null)).toEqual({ goods: 12_000, discount: 0, total: 12_000 })
  })

  it('takes nothing off below the threshold (the list for a new quantity is still on its way)', () => {
    // 满100减20 picked for 2 × ¥60; one unit is ¥60, below the threshold.
    expect(orderTotals(6_000, 1, buildCoupon())).toEqual({
      goods: 6_000,
      discount: 0,
      total: 6_000,
    })
    expect(orderTotals(5_000, 2, buildCoupon()).discount).toBe(2_000)
  })

  it('works a percent coupon out on the goods, rounded down and capped', () => {
    const percent = buildCoupon({
      kind: 'percent',
      threshold: 0,
      amount: null,
      percent: 15,
      cap: 5_000,
    })
    // 15 % of ¥123.45 is ¥18.5175: ¥18.51.
    expect(orderTotals(12_345, 1, percent)).toEqual({
      goods: 12_345,
      discount: 1_851,
      total: 10_494,
    })
    // 15 % of ¥1,000 would be ¥150; the cap is ¥50.
    expect(orderTotals(50_000, 2, percent).discount).toBe(5_000)
  })

  it('never takes the total below one fen, as the server does not', () => {
    const big = buildCoupon({ threshold: 0, amount: 50_000 })
    expect(savingFor(big, 1_000)).toBe(999)
    expect(orderTotals(1_000, 1, big).total).toBe(1)
  })

  it('agrees with the server’s saving for the quantity it was offered for', () => {
    const coupon = buildCoupon({
      kind: 'percent',
      threshold: 20_000,
      amount: null,
      percent: 10,
      cap: null,
      saving: 3_600,
    })
    expect(orderTotals(12_000, 3, coupon).discount).toBe(coupon.saving)
  })
})
