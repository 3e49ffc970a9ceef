import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../lib/api-client'
import { bidErrorAction, QUOTA_RECHARGE_PATH, rechargeHref } from './bid-error'

const FALLBACK = '出价失败'

describe('bidErrorAction', () => {
  it('turns QUOTA_EXCEEDED into the server message with the recharge page', () => {
    const error = new ApiError('QUOTA_EXCEEDED', 409, '竞买额度不足，请充值保证金', {
      limit: 5_000_000,
      recharge: '/account/quotaRecharge',
    })
    expect(bidErrorAction(error, FALLBACK)).toEqual({
      kind: 'recharge',
      message: '竞买额度不足，请充值保证金',
      path: '/account/quotaRecharge',
      limit: 5_000_000,
    })
  })

  it('carries what the quota already holds, so the dialog can say what is left', () => {
    const error = new ApiError('QUOTA_EXCEEDED', 409, '竞买额度不足，请充值保证金', {
      limit: 5_000_000,
      exposure: 4_200_000,
      recharge: '/account/quotaRecharge',
    })
    expect(bidErrorAction(error, FALLBACK)).toMatchObject({ limit: 5_000_000, exposure: 4_200_000 })
    const odd = new ApiError('QUOTA_EXCEEDED', 409, 'x', { limit: 5_000_000, exposure: 'lots' })
    expect(bidErrorAction(odd, FALLBACK)).not.toHaveProperty('exposure')
  })

  it('falls back to the recharge route when the hint is missing or not a path of this app', () => {
    for (const recharge of [undefined, 'https://evil.example/x', '//evil.example']) {
      const error = new ApiError('QUOTA_EXCEEDED', 409, 'no quota', { recharge })
      expect(bidErrorAction(error, FALLBACK)).toMatchObject({
        kind: 'recharge',
        path: QUOTA_RECHARGE_PATH,
      })
    }
  })

  it('reloads the lot for refusals that mean it moved on', () => {
    for (const code of ['BID_TOO_LOW', 'LOT_CLOSED', 'ALREADY_LEADING', 'BID_OFF_GRID']) {
      expect(bidErrorAction(new ApiError(code, 409, 'why'), FALLBACK)).toEqual({
        kind: 'refresh',
        message: 'why',
      })
    }
  })

  it('asks for sign-in on 401, stays quiet offline, and toasts anything else', () => {
    expect(bidErrorAction(new ApiError('SESSION_INVALID', 401, 'again'), FALLBACK).kind).toBe(
      'sign-in',
    )
    expect(bidErrorAction(new ApiError('OFFLINE', 0, 'offline'), FALLBACK)).toEqual({
      kind: 'none',
    })
    expect(bidErrorAction(new ApiError('BID_FAILED', 500, ''), FALLBACK)).toEqual({
      kind: 'toast',
      message: FALLBACK,
    })
    expect(bidErrorAction(new Error('boom'), FALLBACK)).toEqual({
      kind: 'toast',
      message: FALLBACK,
    })
  })

  it('leads to recharging with the lot to come back to', () => {
    const href = rechargeHref(QUOTA_RECHARGE_PATH, '/productDetail?id=42&from=special')
    const url = new URL(href, 'http://shop.test')
    expect(url.pathname).toBe('/account/quotaRecharge')
    expect(url.searchParams.get('redirect')).toBe('/productDetail?id=42&from=special')
  })
})
