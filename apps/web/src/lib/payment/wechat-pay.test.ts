import type { WechatPayRequest } from '@numisma/contracts/payment'
import { describe, expect, it, vi } from 'vitest'
import {
  bridgeOutcome,
  bridgePayParams,
  messagingBridge,
  messagingPayOffered,
  payInMessagingApp,
  prepayIdOf,
  sandboxCashierUrl,
  type MessagingBridge,
  whenMessagingBridge,
} from './wechat-pay'

const payRequest: WechatPayRequest = {
  appid: 'wx-sandbox-app',
  timestamp: '1893456000',
  noncestr: 'n0nce',
  packages: 'prepay_id=wx2030abc',
  signType: 'MD5',
  sign: 'ABCDEF0123',
}

const WECHAT_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 MicroMessenger/8.0.40'

describe('messaging-app pay', () => {
  it('hands the bridge the spec §3 fields under the names it expects', () => {
    expect(bridgePayParams(payRequest)).toEqual({
      appId: 'wx-sandbox-app',
      timeStamp: '1893456000',
      nonceStr: 'n0nce',
      package: 'prepay_id=wx2030abc',
      signType: 'MD5',
      paySign: 'ABCDEF0123',
    })
  })

  it('uses the bridge only inside the messaging app with the bridge injected', () => {
    const bridge = { invoke: vi.fn() }
    expect(messagingBridge(WECHAT_UA, { WeixinJSBridge: bridge })).toBe(bridge)
    expect(messagingBridge(WECHAT_UA, {})).toBeUndefined()
    expect(messagingBridge(WECHAT_UA, { WeixinJSBridge: {} })).toBeUndefined()
    expect(messagingBridge('Mozilla/5.0 Chrome/120', { WeixinJSBridge: bridge })).toBeUndefined()
  })

  it('invokes getBrandWCPayRequest and reports ok, cancel or fail', async () => {
    const seen: unknown[] = []
    const bridgeAnswering = (errMsg: string): MessagingBridge => ({
      invoke: (name, params, callback) => {
        seen.push([name, params])
        callback({ err_msg: errMsg })
      },
    })
    await expect(
      payInMessagingApp(bridgeAnswering('get_brand_wcpay_request:ok'), payRequest),
    ).resolves.toBe('ok')
    expect(seen[0]).toEqual(['getBrandWCPayRequest', bridgePayParams(payRequest)])
    await expect(
      payInMessagingApp(bridgeAnswering('get_brand_wcpay_request:cancel'), payRequest),
    ).resolves.toBe('cancel')
    expect(bridgeOutcome('get_brand_wcpay_request:fail')).toBe('fail')
    expect(bridgeOutcome(undefined)).toBe('fail')
  })

  it('sends the sandbox cashier the prepay id and where to come back to', () => {
    expect(prepayIdOf(payRequest)).toBe('wx2030abc')
    const url = new URL(
      sandboxCashierUrl(payRequest, '/account/paySuc?paymentId=7'),
      'http://shop.test',
    )
    expect(url.pathname).toBe('/svc/sandbox/wxpay/cashier')
    expect(url.searchParams.get('prepay_id')).toBe('wx2030abc')
    expect(url.searchParams.get('redirect')).toBe('/account/paySuc?paymentId=7')
  })

  it('is offered outside the messaging app only where the sandbox stands in', () => {
    expect(messagingPayOffered(true, 'production')).toBe(true)
    expect(messagingPayOffered(false, 'development')).toBe(true)
    expect(messagingPayOffered(false, 'production')).toBe(false)
  })

  it('waits for WeixinJSBridgeReady when the platform injects the bridge after the page', async () => {
    const scope: Record<string, unknown> = {}
    const events = new EventTarget()
    const waiting = whenMessagingBridge(WECHAT_UA, scope, events, 1_000)
    const bridge: MessagingBridge = { invoke: vi.fn() }
    scope.WeixinJSBridge = bridge
    events.dispatchEvent(new Event('WeixinJSBridgeReady'))
    await expect(waiting).resolves.toBe(bridge)
  })

  it('answers at once with a bridge already there, or outside the messaging app', async () => {
    const bridge: MessagingBridge = { invoke: vi.fn() }
    const events = new EventTarget()
    await expect(
      whenMessagingBridge(WECHAT_UA, { WeixinJSBridge: bridge }, events, 1_000),
    ).resolves.toBe(bridge)
    await expect(whenMessagingBridge('Chrome/120', {}, events, 1_000)).resolves.toBeUndefined()
  })

  it('gives up on a bridge that never comes', async () => {
    vi.useFakeTimers()
    try {
      const waiting = whenMessagingBridge(WECHAT_UA, {}, new EventTarget(), 3_000)
      await vi.advanceTimersByTimeAsync(3_000)
      await expect(waiting).resolves.toBeUndefined()
    } finally {
      vi.useRealTimers()
    }
  })
})
