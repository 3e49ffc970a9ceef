import { describe, expect, it } from 'vitest'
import type { PayableOrder } from './ports'
import { rechargeFee } from '@numisma/domain/fees'
import {
  noticeSettlement,
  parseTradeNo,
  payRefusal,
  PREPAY_LIFETIME_MS,
  PREPAY_WINDOW_MS,
  prepayAttempt,
  prepayUsable,
  tradeNo,
} from './rules'

const NOW = Date.UTC(2026, 10, 23, 2, 0, 0)

const buildOrder = (overrides: Partial<PayableOrder> = {}): PayableOrder => ({
  id: 1,
  userId: 7,
  kind: 'mall',
  status: 'pending_payment',
  goods: 10_000,
  fee: 0,
  discount: 0,
  total: 10_000,
  userCouponId: null,
  payMethod: null,
  paymentId: null,
  dueAt: NOW + 60_000,
  ...overrides,
})

describe('payRefusal', () => {
  it('lets the owner pay an unpaid order, or a won lot that is overdue', () => {
    expect(payRefusal(buildOrder(), 7, NOW)).toBeNull()
    expect(
      payRefusal(buildOrder({ kind: 'auction', status: 'overdue', dueAt: NOW - 1 }), 7, NOW),
    ).toBeNull()
  })

  it('refuses unknown, another user’s, paid and cancelled orders', () => {
    expect(payRefusal(undefined, 7, NOW)).toBe('unknown')
    expect(payRefusal(buildOrder(), 8, NOW)).toBe('not_yours')
    for (const status of ['paid', 'cancelled', 'delivery_applied', 'shipped', 'completed']) {
      expect(payRefusal(buildOrder({ status }), 7, NOW)).toBe('not_payable')
    }
  })

  it('refuses a mall order past its 30 minutes unless its buyer chose remittance', () => {
    expect(payRefusal(buildOrder({ dueAt: NOW }), 7, NOW)).toBe('expired')
    expect(payRefusal(buildOrder({ dueAt: NOW, payMethod: 'wechat' }), 7, NOW)).toBe('expired')
    expect(payRefusal(buildOrder({ dueAt: NOW, payMethod: 'remittance' }), 7, NOW)).toBeNull()
    // A won lot is not on the mall's clock.
    expect(payRefusal(buildOrder({ kind: 'auction', dueAt: NOW - 1 }), 7, NOW)).toBeNull()
  })
})

describe('noticeSettlement', () => {
  const payment = { id: 5, userId: 7, amount: 30_000 }

  it('pays every order still waiting for the payment', () => {
    const orders = [
      buildOrder({ id: 1, paymentId: 5 }),
      buildOrder({ id: 2, paymentId: 5, total: 20_000, goods: 20_000 }),
    ]
    expect(noticeSettlement(payment, orders)).toEqual({ pay: orders, credit: 0 })
  })

  it('credits what belonged to orders cancelled, paid another way or moved to another payment', () => {
    const waiting = buildOrder({ id: 1, paymentId: 5 })
    for (const gone of [
      buildOrder({ id: 2, paymentId: 5, status: 'cancelled', total: 20_000 }),
      buildOrder({ id: 2, paymentId: 9, status: 'paid', total: 20_000 }),
      buildOrder({ id: 2, paymentId: 9, total: 20_000 }),
    ]) {
      expect(noticeSettlement(payment, [waiting, gone])).toEqual({ pay: [waiting], credit: 20_000 })
    }
    expect(
      noticeSettlement(payment, [buildOrder({ id: 1, paymentId: 5, status: 'cancelled' })]),
    ).toEqual({ pay: [], credit: 30_000 })
  })

  it('never pays another user’s order, and credits everything rather than pay for less', () => {
    expect(noticeSettlement(payment, [buildOrder({ userId: 8, paymentId: 5 })])).toEqual({
      pay: [],
      credit: 30_000,
    })
    const dearer = buildOrder({ paymentId: 5, total: 40_000 })
    expect(noticeSettlement(payment, [dearer])).toEqual({ pay: [], credit: 30_000 })
  })
})

describe('rechargeFee', () => {
  it('is 0.6 % rounded up to the fen', () => {
    expect(rechargeFee(100_000)).toBe(600)
    expect(rechargeFee(100_001)).toBe(601)
    expect(rechargeFee(1)).toBe(1)
    expect(rechargeFee(100_000, 0)).toBe(0)
  })
})

describe('prepay attempts', () => {
  const created = Date.UTC(2026, 10, 26, 4)
  const ref = { kind: 'payment', id: 12 } as const

  it('the first runs from the payment, as P<id>, until its window closes; then one from now', () => {
    expect(prepayAttempt(ref, { createdAt: created, prepayAt: null }, created + 60_000)).toEqual({
      outTradeNo: 'P12',
      startedAt: created,
      expiresAt: created + PREPAY_WINDOW_MS,
    })
    const late = created + PREPAY_WINDOW_MS
    const fresh = prepayAttempt(ref, { createdAt: created, prepayAt: created }, late + 1_500)
    expect(fresh.startedAt).toBe(late + 1_000)
    expect(fresh.expiresAt).toBe(late + 1_000 + PREPAY_WINDOW_MS)
    expect(parseTradeNo(fresh.outTradeNo)).toEqual(ref)
    expect(fresh.outTradeNo).not.toBe('P12')
  })

  it('a stored prepay id is handed out only inside its window, which closes before it lapses', () => {
    expect(PREPAY_WINDOW_MS).toBeLessThan(PREPAY_LIFETIME_MS)
    expect(prepayUsable(created, created + PREPAY_WINDOW_MS - 1)).toBe(true)
    expect(prepayUsable(created, created + PREPAY_WINDOW_MS)).toBe(false)
    expect(prepayUsable(null, created)).toBe(false)
  })
})

describe('trade numbers', () => {
  it('round-trips payments and recharges and refuses anything else', () => {
    expect(tradeNo({ kind: 'payment', id: 12 })).toBe('P12')
    expect(parseTradeNo('P12')).toEqual({ kind: 'payment', id: 12 })
    expect(parseTradeNo(tradeNo({ kind: 'recharge', id: 3 }))).toEqual({ kind: 'recharge', id: 3 })
    // A later attempt at the platform (a fresh prepay) names the same payment.
    const later = tradeNo({ kind: 'payment', id: 12 }, Date.UTC(2026, 10, 26, 4))
    expect(later).toMatch(/^P12-[0-9a-z]+$/)
    expect(later.length).toBeLessThanOrEqual(32)
    expect(parseTradeNo(later)).toEqual({ kind: 'payment', id: 12 })
    expect(parseTradeNo('R3-abc')).toEqual({ kind: 'recharge', id: 3 })
    for (const bad of [
      '',
      'P',
      'P0',
      'P01',
      'X1',
      'p1',
      'P1 ',
      'P99999999999',
      'P2147483648',
      'P1-',
      'P1-ABC',
      'P1-a-b',
      'P1-abcdefghijk',
    ]) {
      expect(parseTradeNo(bad), bad).toBeNull()
    }
  })
})
