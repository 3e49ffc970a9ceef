import { describe, expect, it } from 'vitest'
import { ApiError } from '../api-client'
import { purchaseAttempt, serverAnswered } from './purchase-attempt'

const keys = () => {
  let n = 0
  return () => `key-${++n}`
}

describe('the idempotency key of a purchase attempt', () => {
  const order = { productNo: 'M100001', quantity: 2, userCouponId: 11 }

  it('is new for a first tap, and the same for a retry of an unanswered one', () => {
    const newKey = keys()
    const first = purchaseAttempt(null, order, newKey)
    expect(first.key).toBe('key-1')
    expect(purchaseAttempt(first, { ...order }, newKey)).toBe(first)
  })

  it('is new once the order changes (the server refuses one key for two orders)', () => {
    const newKey = keys()
    const first = purchaseAttempt(null, order, newKey)
    expect(purchaseAttempt(first, { ...order, quantity: 3 }, newKey).key).toBe('key-2')
    expect(purchaseAttempt(first, { productNo: 'M100001', quantity: 2 }, newKey).key).toBe('key-3')
    expect(purchaseAttempt(first, { ...order, userCouponId: 12 }, newKey).key).toBe('key-4')
  })

  it('is spent by any answer of the server, kept when none came', () => {
    expect(serverAnswered(new ApiError('PURCHASE_FAILED', 500, 'x'))).toBe(true)
    expect(serverAnswered(new ApiError('IDEMPOTENCY_KEY_REUSED', 422, 'x'))).toBe(true)
    expect(serverAnswered(new ApiError('TIMEOUT', 0, 'x'))).toBe(false)
    expect(serverAnswered(new ApiError('PURCHASE_FAILED', 0, 'network'))).toBe(false)
    expect(serverAnswered(new ApiError('OFFLINE', 0, 'x'))).toBe(false)
    expect(serverAnswered(new Error('other'))).toBe(false)
  })
})
