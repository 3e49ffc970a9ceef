import type { UsableCoupon } from '@numisma/contracts/mall'
import type { Order } from '@numisma/contracts/orders'
import type { WaitPayStatistics } from '@numisma/contracts/payment'
import { describe, expect, it } from 'vitest'
import {
  couponTarget,
  defaultMethod,
  initialSelection,
  missingOrders,
  payTotals,
} from './pay-selection'

const buildOrder = (overrides: Partial<Order> = {}): Order => ({
  id: 41,
  kind: 'auction',
  status: 'pending_payment',
  items: [{ title: '光绪元宝 库平七钱二分', lotId: 7, quantity: 1, price: 71_000, image: '' }],
  goods: 71_000,
  fee: 7_100,
  discount: 0,
  total: 78_100,
  userCouponId: null,
  payMethod: null,
  createdAt: '2030-01-01T00:00:00.000Z',
  dueAt: '2030-01-04T00:00:00.000Z',
  paidAt: null,
  cancelledAt: null,
  ...overrides,
})

const stats = (overrides: Partial<WaitPayStatistics> = {}): WaitPayStatistics => ({
  count: 1,
  goods: 20_000,
  fee: 0,
  discount: 0,
  total: 20_000,
  balance: 19_000,
  balanceCovers: false,
  ...overrides,
})

const coupon = (saving: number): UsableCoupon => ({
  userCouponId: 9,
  couponId: 3,
  title: '满100减10',
  kind: 'amount',
  threshold: 10_000,
  amount: saving,
  percent: null,
  cap: null,
  startsAt: '2030-01-01T00:00:00.000Z',
  endsAt: '2030-02-01T00:00:00.000Z',
  scope: 'all',
  saving,
})

describe('the orders ticked at first', () => {
  const pending = [buildOrder({ id: 3 }), buildOrder({ id: 2 }), buildOrder({ id: 1 })]

  it('are those of the link still pending, in the list’s order', () => {
    expect(initialSelection([1, 3], pending)).toEqual([3, 1])
    expect(initialSelection([1, 9], pending)).toEqual([1])
    expect(missingOrders([1, 9], pending)).toEqual([9])
  })

  it('are every pending order without a link, and none when the linked ones are gone', () => {
    expect(initialSelection([], pending)).toEqual([3, 2, 1])
    expect(initialSelection([8, 9], pending)).toEqual([])
    expect(missingOrders([8, 9], pending)).toEqual([8, 9])
  })
})

describe('where a coupon chosen at payment goes', () => {
  it('is the one mall order without a coupon', () => {
    const mall = buildOrder({ id: 5, kind: 'mall', fee: 0 })
    expect(couponTarget([buildOrder(), mall])).toEqual({ kind: 'order', order: mall })
  })

  it('is nowhere for auction orders or mall orders holding one already', () => {
    expect(couponTarget([buildOrder()])).toEqual({ kind: 'none' })
    expect(couponTarget([buildOrder({ kind: 'mall', userCouponId: 4 })])).toEqual({ kind: 'none' })
    expect(couponTarget([])).toEqual({ kind: 'none' })
  })

  it('is not guessed among several', () => {
    const a = buildOrder({ id: 5, kind: 'mall' })
    const b = buildOrder({ id: 6, kind: 'mall' })
    expect(couponTarget([a, b])).toEqual({ kind: 'ambiguous', count: 2 })
  })
})

describe('what the payment comes to', () => {
  it('is the server’s statistics without a coupon', () => {
    expect(payTotals(stats(), null)).toEqual({
      goods: 20_000,
      fee: 0,
      discount: 0,
      total: 20_000,
      balance: 19_000,
      balanceCovers: false,
    })
  })

  it('takes off what the chosen coupon saves, and the balance may then cover it', () => {
    const totals = payTotals(stats({ discount: 500, total: 19_500 }), coupon(1_000))
    expect(totals).toMatchObject({ discount: 1_500, total: 18_500, balanceCovers: true })
  })

  it('never goes below nothing, and a balance equal to the total covers it', () => {
    expect(payTotals(stats({ total: 800, balance: 0 }), coupon(1_000)).total).toBe(0)
    expect(payTotals(stats({ balance: 20_000 }), null).balanceCovers).toBe(true)
  })
})

describe('the method offered first', () => {
  it('is the balance when it covers, else messaging-app pay where offered, else remittance', () => {
    expect(defaultMethod(true, true)).toBe('balance')
    expect(defaultMethod(false, true)).toBe('wechat')
    expect(defaultMethod(false, false)).toBe('remittance')
  })
})
