import type { WechatPayRequest } from '@numisma/contracts/payment'

/**
 * Messaging-app pay (JSAPI, spec §3, DESIGN §7). Inside the messaging app's browser the page hands
 * the server's pay request to the platform's bridge; anywhere else (a desktop, the e2e browser)
 * the local platform sandbox's cashier plays the platform's part. Either way the order is paid only
 * when the platform's signed notice reaches our server — the browser's word counts for nothing,
 * so what follows always asks the server (the success page polls the payment).
 */

/** The part of the platform's `WeixinJSBridge` the page uses. */
export interface MessagingBridge {
  invoke(
    name: 'getBrandWCPayRequest',
    params: BridgePayParams,
    callback: (result: { err_msg?: string }) => void,
  ): void
}

/** The field names the platform's bridge expects, filled from the spec §3 pay request. */
export interface BridgePayParams {
  appId: string
  timeStamp: string
  nonceStr: string
  package: string
  signType: string
  paySign: string
}

export function bridgePayParams(payRequest: WechatPayRequest): BridgePayParams {
  return {
    appId: payRequest.appid,
    timeStamp: payRequest.timestamp,
    nonceStr: payRequest.noncestr,
    package: payRequest.packages,
    signType: payRequest.signType,
    paySign: payRequest.sign,
  }
}

/**
 * The bridge when the page runs inside the messaging app (its user agent says MicroMessenger and
 * the platform has injected `WeixinJSBridge`); undefined anywhere else.
 */
export function messagingBridge(
  userAgent: string,
  scope: Record<string, unknown>,
): MessagingBridge | undefined {
  if (!/MicroMessenger/i.test(userAgent)) return undefined
  const bridge = scope.WeixinJSBridge
  return isBridge(bridge) ? bridge : undefined
}

function isBridge(value: unknown): value is MessagingBridge {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { invoke?: unknown }).invoke === 'function'
  )
}

/** How long a tap on 微信支付 waits for the platform to inject its bridge. */
export const BRIDGE_READY_TIMEOUT_MS = 3_000

/**
 * The bridge, waiting for it if need be: the platform may inject `WeixinJSBridge` after the page
 * has started and then fires `WeixinJSBridgeReady` on the document, so a page opened quickly (or
 * a tap soon after) would otherwise miss it and leave the messaging app for the sandbox's cashier.
 * Undefined outside the messaging app, or when no bridge came within `timeoutMs`.
 */
export function whenMessagingBridge(
  userAgent: string,
  scope: Record<string, unknown>,
  events: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>,
  timeoutMs: number = BRIDGE_READY_TIMEOUT_MS,
): Promise<MessagingBridge | undefined> {
  if (!/MicroMessenger/i.test(userAgent)) return Promise.resolve(undefined)
  const ready = messagingBridge(userAgent, scope)
  if (ready) return Promise.resolve(ready)
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer)
      events.removeEventListener('WeixinJSBridgeReady', done)
      resolve(messagingBridge(userAgent, scope))
    }
    const timer = setTimeout(done, timeoutMs)
    events.addEventListener('WeixinJSBridgeReady', done)
  })
}

/** The browser's bridge, waiting for the platform's ready event if it is not there yet. */
export function currentMessagingBridgeReady(): Promise<MessagingBridge | undefined> {
  return whenMessagingBridge(
    navigator.userAgent,
    window as unknown as Record<string, unknown>,
    document,
  )
}

/** How the platform's cashier ended: paid (as far as the phone knows), cancelled, or failed. */
export type BridgePayOutcome = 'ok' | 'cancel' | 'fail'

export function bridgeOutcome(errMsg: string | undefined): BridgePayOutcome {
  if (errMsg === 'get_brand_wcpay_request:ok') return 'ok'
  if (errMsg === 'get_brand_wcpay_request:cancel') return 'cancel'
  return 'fail'
}

/** Opens the platform's cashier with the pay request and reports how it ended. */
export function payInMessagingApp(
  bridge: MessagingBridge,
  payRequest: WechatPayRequest,
): Promise<BridgePayOutcome> {
  return new Promise((resolve) => {
    bridge.invoke('getBrandWCPayRequest', bridgePayParams(payRequest), (result) => {
      resolve(bridgeOutcome(result.err_msg))
    })
  })
}

/** The platform sandbox's cashier page (modules/sandbox), served beside the main service. */
export const SANDBOX_CASHIER_PATH = '/svc/sandbox/wxpay/cashier'

/** The prepay id a pay request carries in `packages` (`prepay_id=…`). */
export function prepayIdOf(payRequest: WechatPayRequest): string | undefined {
  const match = /^prepay_id=(.+)$/.exec(payRequest.packages)
  return match?.[1]
}

/**
 * The sandbox cashier for this pay request; after paying (or giving up) it sends the user to
 * `redirect`, a path of this app.
 */
export function sandboxCashierUrl(payRequest: WechatPayRequest, redirect: string): string {
  const params = new URLSearchParams({ prepay_id: prepayIdOf(payRequest) ?? '', redirect })
  return `${SANDBOX_CASHIER_PATH}?${params.toString()}`
}

/**
 * Whether messaging-app pay is offered: always inside the messaging app; elsewhere only where the
 * sandbox stands in for the platform (not production, whose operators run the real one).
 */
export function messagingPayOffered(inMessagingApp: boolean, env: 'development' | 'production') {
  return inMessagingApp || env !== 'production'
}
