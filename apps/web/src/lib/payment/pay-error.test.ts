import { describe, expect, it } from 'vitest'
import { ApiError } from '../api-client'
import { payErrorAction } from './pay-error'

const FALLBACK = '余额支付失败'

describe('payErrorAction', () => {
  it('keeps a wrong password in the popup with the tries left when the server says', () => {
    const wrong = new ApiError('PAY_PASSWORD_WRONG', 403, '支付密码错误', { triesLeft: 3 })
    expect(payErrorAction(wrong, FALLBACK)).toEqual({
      kind: 'password-wrong',
      message: '支付密码错误',
      triesLeft: 3,
    })
    const bare = new ApiError('PAY_PASSWORD_WRONG', 403, '支付密码错误', { triesLeft: 'x' })
    expect(payErrorAction(bare, FALLBACK)).not.toHaveProperty('triesLeft')
  })

  it('says until when payment is locked, and ignores a time that is not one', () => {
    const until = '2030-01-01T03:00:00.000Z'
    expect(payErrorAction(new ApiError('PAY_LOCKED', 423, 'locked', { until }), FALLBACK)).toEqual({
      kind: 'locked',
      message: 'locked',
      until,
    })
    expect(
      payErrorAction(new ApiError('PAY_LOCKED', 423, 'locked', { until: 'soon' }), FALLBACK),
    ).toEqual({ kind: 'locked', message: 'locked' })
  })

  it('sends a missing password to be set and a low balance to be topped up', () => {
    expect(payErrorAction(new ApiError('PAY_PASSWORD_NOT_SET', 409, 'set'), FALLBACK).kind).toBe(
      'password-not-set',
    )
    expect(payErrorAction(new ApiError('BALANCE_LOW', 409, 'low'), FALLBACK)).toEqual({
      kind: 'balance-low',
      message: 'low',
    })
  })

  it('shows the orders again when they changed meanwhile', () => {
    for (const code of ['ORDER_NOT_PAYABLE', 'COUPON_INVALID']) {
      expect(payErrorAction(new ApiError(code, 409, 'why'), FALLBACK)).toEqual({
        kind: 'stale',
        message: 'why',
      })
    }
  })

  it('stays quiet offline, and toasts anything else with the spec §8 default', () => {
    expect(payErrorAction(new ApiError('OFFLINE', 0, 'offline'), FALLBACK)).toEqual({
      kind: 'none',
    })
    expect(payErrorAction(new ApiError('BALANCE_PAYMENT_FAILED', 500, ''), FALLBACK)).toEqual({
      kind: 'toast',
      message: FALLBACK,
    })
    expect(payErrorAction(new ApiError('TIMEOUT', 0, '请求超时'), FALLBACK)).toEqual({
      kind: 'toast',
      message: '请求超时',
    })
    expect(payErrorAction(new Error('boom'), FALLBACK)).toEqual({
      kind: 'toast',
      message: FALLBACK,
    })
  })
})
