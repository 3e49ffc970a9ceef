/// <reference lib="dom" />
import fs from 'node:fs'
import path from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseXml, signed, toXml } from '../apps/server/src/modules/payments/wechat-pay-protocol'
import { jssdkSignature } from '../apps/server/src/modules/wechat/jssdk-signature'
import { SANDBOX_WECHAT_MP, SANDBOX_WECHAT_PAY } from '../apps/server/src/platform/config'
import { baseUrl, launchBrowser, screenshot } from './fixtures'
import { messagingAppContext, readMessagingApp } from './tools/messaging-app'

/**
 * The simulated messaging app (e2e/tools/messaging-app.ts) answers as the real one, deciding
 * `wx.config` through the platform sandbox; and the sandbox's authorize page as a phone shows it.
 */
const { appId, secret } = SANDBOX_WECHAT_MP
const WX = '/svc/sandbox/wx'

async function sandboxTicket(): Promise<string> {
  const token = (await (
    await fetch(
      `${baseUrl()}${WX}/cgi-bin/token?${new URLSearchParams({ grant_type: 'client_credential', appid: appId, secret }).toString()}`,
    )
  ).json()) as { access_token: string }
  const ticket = (await (
    await fetch(
      `${baseUrl()}${WX}/cgi-bin/ticket/getticket?${new URLSearchParams({ access_token: token.access_token, type: 'jsapi' }).toString()}`,
    )
  ).json()) as { ticket: string }
  return ticket.ticket
}

/** A trade at the pay sandbox, as our server's unified order makes one; its prepay id. */
async function sandboxTrade(totalFee: number): Promise<string> {
  const xml = toXml(
    signed(
      {
        appid: SANDBOX_WECHAT_PAY.appId,
        mch_id: SANDBOX_WECHAT_PAY.mchId,
        nonce_str: 'e2e',
        body: '泉藏拍卖-模拟应用测试',
        out_trade_no: `E2EAPP${Date.now()}`,
        total_fee: totalFee,
        // Nobody's order: the notice goes to a path that does not take it (the sandbox logs that).
        notify_url: `${baseUrl()}/svc/health`,
        trade_type: 'JSAPI',
      },
      SANDBOX_WECHAT_PAY.key,
    ),
  )
  const reply = await fetch(`${baseUrl()}/svc/sandbox/wxpay/pay/unifiedorder`, {
    method: 'POST',
    headers: { 'content-type': 'text/xml' },
    body: xml,
  })
  const prepayId = parseXml(await reply.text())?.prepay_id
  if (!prepayId) throw new Error('the pay sandbox gave no prepay id')
  return prepayId
}

/** Calls the bridge as the JS-SDK does and returns the app's answer. */
function invoke(page: Page, name: string, params: Record<string, unknown>) {
  return page.evaluate(
    ([n, p]) =>
      new Promise<{ err_msg: string }>((resolve) => {
        const bridge = (
          window as unknown as {
            WeixinJSBridge: {
              invoke(n: string, p: unknown, cb: (r: { err_msg: string }) => void): void
            }
          }
        ).WeixinJSBridge
        bridge.invoke(n, p, resolve)
      }),
    [name, params] as const,
  )
}

describe('the simulated messaging app', () => {
  let browser: Browser
  let context: BrowserContext
  let page: Page
  beforeAll(async () => {
    browser = await launchBrowser()
    // These pages are /svc/health, a JSON answer whose policy lets nothing load or connect; the
    // simulated bridge's requests stand for the app's native code, which no page's CSP governs.
    // (The shop's own pages allow them: the journeys through share and pay use the real policy.)
    context = await messagingAppContext(browser, { bypassCSP: true })
    page = await context.newPage()
  })
  afterAll(() => browser.close())

  it('has the app’s user agent and bridge, and says the bridge is ready', async () => {
    await page.goto('/svc/health')
    expect(await page.evaluate(() => navigator.userAgent)).toMatch(/MicroMessenger\/8\.0\.\d+/)
    expect(
      await page.evaluate(() => typeof (window as { WeixinJSBridge?: unknown }).WeixinJSBridge),
    ).toBe('object')
  })

  it('passes a wx.config signed with a sandbox ticket and refuses a tampered one', async () => {
    await page.goto('/svc/health?page=1')
    const ticket = await sandboxTicket()
    const url = page.url()
    const timestamp = Math.floor(Date.now() / 1000)
    const config = {
      verifyAppId: appId,
      verifyTimestamp: String(timestamp),
      verifyNonceStr: 'e2eNonce',
      verifySignType: 'sha1',
      verifySignature: jssdkSignature({ ticket, nonceStr: 'e2eNonce', timestamp, url }),
      verifyJsApiList: ['updateAppMessageShareData', 'updateTimelineShareData'],
    }
    expect(await invoke(page, 'preVerifyJSAPI', config)).toEqual({ err_msg: 'config:ok' })
    const share = { title: '清代银元', desc: '¥1,200', link: url, imgUrl: `${baseUrl()}/x.png` }
    expect(await invoke(page, 'updateAppMessageShareData', share)).toEqual({
      err_msg: 'updateAppMessageShareData:ok',
    })

    const tampered = { ...config, verifyNonceStr: 'tampered' }
    expect(await invoke(page, 'preVerifyJSAPI', tampered)).toEqual({
      err_msg: 'config:invalid signature',
    })
    // After a failed config the app refuses the page's share data.
    expect(await invoke(page, 'updateTimelineShareData', share)).toEqual({
      err_msg: 'updateTimelineShareData:permission denied',
    })

    const record = await readMessagingApp(page)
    expect(record.configs.map((c) => c.verdict)).toEqual(['config:ok', 'config:invalid signature'])
    expect(record.configs[0]!.url).toBe(url)
    expect(record.shared).toEqual({ appMessage: share, timeline: null })
  })

  it('answers the real JS-SDK: wx.config then sharing, and wx.error for a bad signature', async () => {
    await page.goto('/svc/health?page=sdk')
    // The SDK is CommonJS (the web app's bundler wraps it); a module object stands in here.
    const sdk = fs.readFileSync(
      path.resolve(import.meta.dirname, '../node_modules/weixin-js-sdk/index.js'),
      'utf8',
    )
    // Evaluated, not added as an inline script: /svc/health's CSP (issue 15) refuses inline
    // scripts, and the shop itself bundles the SDK (share.test.ts).
    const loadSdk = () =>
      page.evaluate(
        `(() => { var module = { exports: {} };\n${sdk}\nwindow.sdkWx = module.exports })()`,
      )
    await loadSdk()
    const ticket = await sandboxTicket()
    const timestamp = Math.floor(Date.now() / 1000)
    const configure = (signature: string) =>
      page.evaluate(
        ([cfg]) =>
          new Promise<string>((resolve) => {
            type Callbacks = { success?: () => void; fail?: (r: { errMsg: string }) => void }
            const wx = (
              window as unknown as {
                sdkWx: {
                  config(c: unknown): void
                  ready(f: () => void): void
                  error(f: (r: { errMsg: string }) => void): void
                  updateAppMessageShareData(
                    d: { title: string; desc: string; link: string; imgUrl: string } & Callbacks,
                  ): void
                }
              }
            ).sdkWx
            wx.error((r) => resolve(`error ${r.errMsg}`))
            wx.ready(() =>
              wx.updateAppMessageShareData({
                title: 'SDK',
                desc: 'd',
                link: location.href,
                imgUrl: '',
                success: () => resolve('shared'),
                fail: (r) => resolve(`share failed ${r.errMsg}`),
              }),
            )
            wx.config(cfg)
          }),
        [
          {
            appId,
            timestamp,
            nonceStr: 'sdkNonce',
            signature,
            jsApiList: ['updateAppMessageShareData', 'chooseWXPay'],
          },
        ] as const,
      )
    const good = jssdkSignature({ ticket, nonceStr: 'sdkNonce', timestamp, url: page.url() })
    expect(await configure(good)).toBe('shared')
    const { configs, shared } = await readMessagingApp(page)
    expect(configs.at(-1)).toMatchObject({
      verdict: 'config:ok',
      jsApiList: ['updateAppMessageShareData', 'getBrandWCPayRequest'],
    })
    expect(shared.appMessage?.title).toBe('SDK')

    await page.reload()
    await loadSdk()
    expect(await configure('0'.repeat(40))).toBe('error config:invalid signature')
  })

  it('shows its pay sheet; 取消 answers cancel', async () => {
    await page.goto('/svc/health?page=2')
    const answer = invoke(page, 'getBrandWCPayRequest', {
      appId,
      timeStamp: '1',
      nonceStr: 'n',
      package: 'prepay_id=wx-unknown',
      signType: 'MD5',
      paySign: 'x',
    })
    await page.getByTestId('wx-pay-sheet').waitFor()
    await screenshot(page, 'wx-app-pay-sheet')
    await page.getByRole('button', { name: '取消' }).click()
    expect(await answer).toEqual({ err_msg: 'get_brand_wcpay_request:cancel' })
    const { payments } = await readMessagingApp(page)
    expect(payments.at(-1)).toEqual({ prepayId: 'wx-unknown', amount: null, outcome: 'cancel' })
  })

  it('shows the sandbox trade’s amount; 确认支付 pays it and answers ok', async () => {
    await page.goto('/svc/health?page=3')
    const prepayId = await sandboxTrade(12_345)
    const answer = invoke(page, 'getBrandWCPayRequest', {
      appId,
      timeStamp: '1',
      nonceStr: 'n',
      package: `prepay_id=${prepayId}`,
      signType: 'MD5',
      paySign: 'x',
    })
    await expect.poll(() => page.getByTestId('wx-pay-amount').textContent()).toBe('¥123.45')
    await page.getByRole('button', { name: '确认支付' }).click()
    expect(await answer).toEqual({ err_msg: 'get_brand_wcpay_request:ok' })
    const { payments } = await readMessagingApp(page)
    expect(payments.at(-1)).toEqual({ prepayId, amount: '¥123.45', outcome: 'ok' })
    const cashier = await fetch(`${baseUrl()}/svc/sandbox/wxpay/cashier?prepay_id=${prepayId}`)
    expect(await cashier.text()).toContain('该订单已支付')
  })

  it('the sandbox’s authorize page refuses a redirect to another host', async () => {
    await page.goto(
      `${WX}/connect/oauth2/authorize?${new URLSearchParams({
        appid: appId,
        redirect_uri: 'https://evil.example/cb',
        response_type: 'code',
        scope: 'snsapi_userinfo',
      }).toString()}#wechat_redirect`,
    )
    await page.getByText('redirect_uri 参数错误').waitFor()
    await screenshot(page, 'wx-sandbox-authorize-problem')
  })

  it('the sandbox’s authorize page asks consent in Chinese and goes back with a code', async () => {
    const redirect = `${baseUrl()}/svc/health?to=%2Fitems%2F7`
    await page.goto(
      `${WX}/connect/oauth2/authorize?${new URLSearchParams({
        appid: appId,
        redirect_uri: redirect,
        response_type: 'code',
        scope: 'snsapi_userinfo',
        state: 'e2e',
      }).toString()}#wechat_redirect`,
    )
    await page.getByText('获得你的公开信息（昵称、头像）').waitFor()
    await page.getByLabel('沙箱微信用户（昵称）').fill('测试用户')
    await screenshot(page, 'wx-sandbox-consent')
    await page.getByRole('button', { name: '允许' }).click()
    await page.waitForURL(/[?&]code=/)
    const back = new URL(page.url())
    expect(back.searchParams.get('state')).toBe('e2e')
    expect(back.searchParams.get('to')).toBe('/items/7')
  })
})
