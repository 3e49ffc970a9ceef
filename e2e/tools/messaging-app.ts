/// <reference lib="dom" />
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { baseUrl, PHONE, waitsForTheApp } from '../fixtures'

/**
 * The messaging app's browser, simulated for journeys (issue 11): a phone-sized context whose user
 * agent is the app's on Android, with the `WeixinJSBridge` the app injects into every page. The
 * bridge answers what the JS-SDK (node_modules/weixin-js-sdk) and our pay page ask of it:
 *
 * - `preVerifyJSAPI` (`wx.config`): the app asks the platform whether the page's signature is good;
 *   here the platform sandbox's `POST /svc/sandbox/wx/jssdk/preverify` decides, and the page gets
 *   its `err_msg` (`config:ok`, `config:invalid signature`, `config:invalid url domain`).
 * - `updateAppMessageShareData` / `updateTimelineShareData`: what a share would carry; refused
 *   (`…:permission denied`) unless this page's last `wx.config` passed and listed the API.
 * - `getBrandWCPayRequest` (JSAPI pay, also `wx.chooseWXPay`): a sheet over the page standing for
 *   the app's native pay sheet — the amount of the sandbox trade, 确认支付 and 取消. Confirming
 *   confirms the trade at the pay sandbox (which sends our server the signed notice) and answers
 *   `get_brand_wcpay_request:ok`; cancelling answers `:cancel`.
 * - `getNetworkType` (the JS-SDK asks after `wx.config`): `network_type:wifi`.
 *
 * What the page did is kept on `window.__messagingApp` (see {@link MessagingAppRecord}) and in the
 * tab's sessionStorage, so it survives the page's own navigations and reloads; read it with
 * {@link readMessagingApp}.
 */

/** A real Android MicroMessenger user agent (8.0.47, X5/XWEB web view). */
export const MESSAGING_APP_USER_AGENT =
  'Mozilla/5.0 (Linux; Android 13; V2148A Build/TP1A.220624.014; wv) AppleWebKit/537.36 ' +
  '(KHTML, like Gecko) Version/4.0 Chrome/116.0.0.0 Mobile Safari/537.36 XWEB/1160065 ' +
  'MMWEBSDK/20231202 MMWEBID/2247 MicroMessenger/8.0.47.2560(0x28002F30) WeChat/arm64 Weixin ' +
  'NetType/WIFI Language/zh_CN ABI/arm64'

/** One `wx.config` the page made and how the app answered it. */
export interface MessagingAppConfig {
  /** The page URL the app checked the signature against (the page's location then). */
  url: string
  appId: string
  /** As the JS-SDK sends it: `chooseWXPay` appears as `getBrandWCPayRequest`. */
  jsApiList: string[]
  /** The `err_msg` the page got: `config:ok` or why not. */
  verdict: string
}

/** What a share would carry (the JS-SDK's fields). */
export interface MessagingAppShare {
  title: string
  desc?: string
  link: string
  imgUrl: string
}

export interface MessagingAppPayment {
  prepayId: string
  /** As shown on the sheet, e.g. `¥88.00`; null when the sandbox did not know the trade. */
  amount: string | null
  outcome: 'ok' | 'cancel' | 'fail'
}

/** `window.__messagingApp`: what the page asked of the app, across the tab's navigations. */
export interface MessagingAppRecord {
  /** Every `wx.config`, oldest first (a single-page app configures again after each route). */
  configs: MessagingAppConfig[]
  /** The last share data the page set; null until it set one. */
  shared: { appMessage: MessagingAppShare | null; timeline: MessagingAppShare | null }
  /** Pay sheets shown, oldest first. */
  payments: MessagingAppPayment[]
}

const SANDBOX_WX = '/svc/sandbox/wx'
const SANDBOX_WXPAY = '/svc/sandbox/wxpay'

/**
 * A new context in the simulated messaging app: phone-sized, zh-CN, the app's user agent and its
 * bridge on every page. The platform's report beacon (the JS-SDK loads an image from
 * open.weixin.qq.com after `wx.config`) is cut off, so journeys never reach the internet.
 */
export async function messagingAppContext(
  browser: Browser,
  options: { bypassCSP?: boolean } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    ...options,
    viewport: PHONE,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'zh-CN',
    timezoneId: 'America/New_York',
    baseURL: baseUrl(),
    userAgent: MESSAGING_APP_USER_AGENT,
  })
  context.on('page', waitsForTheApp)
  await context.route(/^https?:\/\/[^/]*\.(weixin|qq)\.com\//, (route) => route.abort())
  await context.addInitScript(simulatedApp, { wx: SANDBOX_WX, wxpay: SANDBOX_WXPAY })
  return context
}

/** The app's record for the page's tab (see {@link MessagingAppRecord}). */
export function readMessagingApp(page: Page): Promise<MessagingAppRecord> {
  return page.evaluate(() => {
    const record = (window as unknown as { __messagingApp?: MessagingAppRecord }).__messagingApp
    if (!record) throw new Error('not in the simulated messaging app')
    return JSON.parse(JSON.stringify(record)) as MessagingAppRecord
  })
}

/** The verdict of the page's last `wx.config`, or null when it made none. */
export async function lastConfigVerdict(page: Page): Promise<string | null> {
  const { configs } = await readMessagingApp(page)
  return configs.at(-1)?.verdict ?? null
}

/**
 * Runs in every page before its own scripts (serialised by Playwright: self-contained, no
 * imports). Answers are asynchronous, as the real app's are.
 */
function simulatedApp(paths: { wx: string; wxpay: string }): void {
  type Params = Record<string, unknown>
  type Answer = (result: Record<string, unknown>) => void
  const STORE = '__messagingApp'
  const page = window as unknown as Record<string, unknown>

  const empty = (): MessagingAppRecord => ({
    configs: [],
    shared: { appMessage: null, timeline: null },
    payments: [],
  })
  let record = empty()
  try {
    const kept = sessionStorage.getItem(STORE)
    if (kept) record = { ...empty(), ...(JSON.parse(kept) as Partial<MessagingAppRecord>) }
  } catch {
    // No storage (an opaque origin such as about:blank): keep the record in this page only.
  }
  page.__messagingApp = record
  const save = (): void => {
    try {
      sessionStorage.setItem(STORE, JSON.stringify(record))
    } catch {
      // as above
    }
  }

  /** This page's configuration as the app accepted it (per page: the app forgets on navigation). */
  let current: MessagingAppConfig | null = null
  // Events the page listens for (the old menu-share API's `menu:share:*`): kept, never fired — a
  // journey has no one to tap the app's menu.
  const listeners = new Map<string, ((result: unknown) => void)[]>()
  const str = (value: unknown): string =>
    typeof value === 'string' || typeof value === 'number' ? String(value) : ''

  async function preVerify(params: Params): Promise<string> {
    const url = location.href
    const jsApiList = Array.isArray(params.verifyJsApiList) ? params.verifyJsApiList.map(str) : []
    let verdict = 'config:fail'
    try {
      const response = await fetch(`${paths.wx}/jssdk/preverify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          appId: str(params.verifyAppId),
          timestamp: str(params.verifyTimestamp),
          nonceStr: str(params.verifyNonceStr),
          signature: str(params.verifySignature),
          url,
          jsApiList,
        }),
      })
      if (response.ok) verdict = str(((await response.json()) as { err_msg?: unknown }).err_msg)
      else if (response.status === 400) verdict = 'config:invalid arguments'
    } catch {
      // The platform unreachable: the app answers fail.
    }
    const config: MessagingAppConfig = {
      url,
      appId: str(params.verifyAppId),
      jsApiList,
      verdict,
    }
    current = config
    record.configs.push(config)
    save()
    return verdict
  }

  function share(name: string, params: Params, kind: 'appMessage' | 'timeline'): string {
    if (current?.verdict !== 'config:ok' || !current.jsApiList.includes(name)) {
      return `${name}:permission denied`
    }
    record.shared[kind] = {
      title: str(params.title),
      ...(kind === 'appMessage' ? { desc: str(params.desc) } : {}),
      link: str(params.link),
      imgUrl: str(params.imgUrl),
    }
    save()
    return `${name}:ok`
  }

  /** The trade's amount as the pay sandbox's cashier shows it (null when it does not know it). */
  async function amountOf(prepayId: string): Promise<string | null> {
    try {
      const response = await fetch(
        `${paths.wxpay}/cashier?${new URLSearchParams({ prepay_id: prepayId }).toString()}`,
      )
      if (!response.ok) return null
      const doc = new DOMParser().parseFromString(await response.text(), 'text/html')
      return doc.querySelector('h1')?.textContent?.trim() ?? null
    } catch {
      return null
    }
  }

  function button(text: string, testId: string, primary: boolean): HTMLButtonElement {
    const el = document.createElement('button')
    el.type = 'button'
    el.textContent = text
    el.dataset.testid = testId
    Object.assign(el.style, {
      display: 'block',
      width: '100%',
      padding: '12px',
      marginTop: '12px',
      border: '0',
      borderRadius: '8px',
      fontSize: '17px',
      background: primary ? '#07c160' : '#f2f2f2',
      color: primary ? '#fff' : '#111',
    })
    return el
  }

  /** The app's pay sheet over the page: answers how it ended. */
  async function pay(params: Params): Promise<'ok' | 'cancel' | 'fail'> {
    const prepayId = /^prepay_id=(.+)$/.exec(str(params.package))?.[1]
    if (!prepayId) return 'fail'
    const amount = await amountOf(prepayId)
    const payment: MessagingAppPayment = { prepayId, amount, outcome: 'cancel' }
    const outcome = await new Promise<'ok' | 'cancel' | 'fail'>((resolve) => {
      const veil = document.createElement('div')
      veil.dataset.testid = 'wx-pay-sheet'
      Object.assign(veil.style, {
        position: 'fixed',
        inset: '0',
        zIndex: '2147483647',
        background: 'rgba(0,0,0,0.5)',
        display: 'flex',
        alignItems: 'flex-end',
      })
      const sheet = document.createElement('div')
      sheet.setAttribute('role', 'dialog')
      sheet.setAttribute('aria-label', '微信支付')
      Object.assign(sheet.style, {
        width: '100%',
        boxSizing: 'border-box',
        padding: '24px 16px',
        background: '#fff',
        borderRadius: '12px 12px 0 0',
        textAlign: 'center',
        fontFamily: '-apple-system, "PingFang SC", sans-serif',
      })
      const title = document.createElement('p')
      title.textContent = '微信支付（模拟）'
      title.style.color = '#555'
      const figure = document.createElement('p')
      figure.dataset.testid = 'wx-pay-amount'
      figure.textContent = amount ?? '—'
      Object.assign(figure.style, { fontSize: '32px', fontWeight: '500', margin: '8px 0 16px' })
      const confirm = button('确认支付', 'wx-pay-confirm', true)
      const cancel = button('取消', 'wx-pay-cancel', false)
      const close = (result: 'ok' | 'cancel' | 'fail'): void => {
        veil.remove()
        resolve(result)
      }
      cancel.addEventListener('click', () => close('cancel'))
      confirm.addEventListener('click', () => {
        confirm.disabled = true
        cancel.disabled = true
        fetch(`${paths.wxpay}/cashier/confirm`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ prepay_id: prepayId }).toString(),
          redirect: 'manual',
        })
          // The sandbox answers a 303 back to the page when the trade is paid.
          .then((response) =>
            close(response.type === 'opaqueredirect' || response.ok ? 'ok' : 'fail'),
          )
          .catch(() => close('fail'))
      })
      sheet.append(title, figure, confirm, cancel)
      veil.append(sheet)
      document.body.append(veil)
    })
    payment.outcome = outcome
    record.payments.push(payment)
    save()
    return outcome
  }

  async function answer(name: string, params: Params): Promise<Record<string, unknown>> {
    switch (name) {
      case 'preVerifyJSAPI':
        return { err_msg: await preVerify(params) }
      case 'updateAppMessageShareData':
        return { err_msg: share(name, params, 'appMessage') }
      case 'updateTimelineShareData':
        return { err_msg: share(name, params, 'timeline') }
      case 'getBrandWCPayRequest':
        return { err_msg: `get_brand_wcpay_request:${await pay(params)}` }
      case 'getNetworkType':
        return { err_msg: 'network_type:wifi' }
      default:
        return { err_msg: `${name}:fail_not supported by the simulated app` }
    }
  }

  page.WeixinJSBridge = {
    invoke(name: string, params: Params | undefined, callback?: Answer): void {
      answer(name, params ?? {})
        .then((result) => callback?.(result))
        .catch((error: unknown) => {
          console.error('simulated messaging app:', error)
          callback?.({ err_msg: `${name}:fail` })
        })
    },
    on(name: string, callback: (result: unknown) => void): void {
      listeners.set(name, [...(listeners.get(name) ?? []), callback])
    },
  }
  // The app injects the bridge, then tells the page (a page may wait for this event).
  const ready = (): void => {
    document.dispatchEvent(new Event('WeixinJSBridgeReady'))
  }
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', ready, { once: true })
  } else {
    setTimeout(ready, 0)
  }
}
