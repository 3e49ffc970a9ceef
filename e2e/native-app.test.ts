import { COOKIE } from '@numisma/contracts/cookies'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { baseUrl, clientConfig, createUser, launchBrowser, PHONE, screenshot } from './fixtures'
import { WX_STATE_KEY } from '../apps/web/src/lib/in-app/wx-oauth'
import { nativeAppContext, nativeCancelLogin, nativeLogin, nativeLogout } from './tools/native-app'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser.close())

async function cookiesOf(context: BrowserContext): Promise<Record<string, string>> {
  return Object.fromEntries((await context.cookies()).map((c) => [c.name, c.value]))
}

/** Signed calls the server refused: a login cookie pair without its sid would show up here. */
function refusedCalls(page: Page): string[] {
  const refused: string[] = []
  page.on('response', (res) => {
    if ([401, 403].includes(res.status())) refused.push(`${res.status()} ${res.url()}`)
  })
  return refused
}

describe('inside the native app (spec §2, DESIGN §7)', () => {
  it('takes the app’s user data into the cookies and is signed in from the first render', async () => {
    const user = await createUser()
    const { context, app } = await nativeAppContext(browser, { user })
    const page = await context.newPage()
    const refused = refusedCalls(page)
    await page.goto('/ucenter')
    // The balance comes from a signed call: id/key from the bridge, sid from the cookie store.
    await page.locator('[data-testid=ucenter-balance] [data-fen]').waitFor()
    expect(new URL(page.url()).pathname).toBe('/ucenter')
    expect(app.loginRequests).toEqual([])
    expect(app.calls.map((c) => c.method)).toContain('getUserData')
    const cookies = await cookiesOf(context)
    expect(cookies[COOKIE.userId]).toBe(String(user.userId))
    expect(cookies[COOKIE.agreement]).toBe('1')
    expect(cookies[COOKIE.id]).toBe(decodeURIComponent(user.cookies[COOKIE.id] ?? ''))
    expect(refused).toEqual([])
    await screenshot(page, 'native-ucenter')
    await context.close()
  })

  it('asks the app for its login screen, and reloads signed in on its login-status event', async () => {
    const { context, app } = await nativeAppContext(browser)
    const page = await context.newPage()
    const refused = refusedCalls(page)
    await page.goto('/myOrder?tab=pay')
    await expect.poll(() => app.loginRequests).toEqual(['/myOrder?tab=pay'])
    // The page waits in the web view for the app: no passport page, no signed-in screen yet.
    expect(new URL(page.url()).pathname).toBe('/myOrder')
    await expect(page.locator('[data-testid=order-list]').count()).resolves.toBe(0)
    expect((await cookiesOf(context))[COOKIE.userId]).toBeUndefined()
    await screenshot(page, 'native-login-waiting')

    const user = await createUser()
    const reloaded = page.waitForEvent('load')
    await nativeLogin(page, user)
    await reloaded
    // Signed in: the orders screen itself, its tabs counted by signed calls (a new user has none).
    await page.locator('[data-testid=order-tab-pay]').waitFor()
    await page.waitForLoadState('networkidle')
    await screenshot(page, 'native-orders-after-login')
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/myOrder?tab=pay')
    expect((await cookiesOf(context))[COOKIE.userId]).toBe(String(user.userId))
    expect(app.loginRequests).toHaveLength(1)
    expect(refused).toEqual([])
    await context.close()
  })

  it('shows a signed-out page when the app’s login is closed, and signs in from it', async () => {
    const { context, app } = await nativeAppContext(browser)
    const page = await context.newPage()
    const refused = refusedCalls(page)
    await page.goto('/ucenter')
    // Generous: the journeys run side by side, and the page first asks getUserData.
    await expect.poll(() => app.loginRequests, { timeout: 5_000 }).toEqual(['/ucenter'])
    await nativeCancelLogin(page)
    // Not an endless spinner: the page says it needs a sign-in and offers it again.
    const signedOut = page.locator('[data-testid=signed-out]')
    await signedOut.waitFor()
    await expect(page.getByText('需要登录后查看').count()).resolves.toBe(1)
    await expect(page.locator('[role=status]').count()).resolves.toBe(0)
    await screenshot(page, 'native-login-cancelled')

    await signedOut.getByRole('button', { name: '去登录' }).click()
    await expect.poll(() => app.loginRequests, { timeout: 5_000 }).toEqual(['/ucenter', '/ucenter'])
    const user = await createUser()
    const reloaded = page.waitForEvent('load')
    await nativeLogin(page, user)
    await reloaded
    await page.locator('[data-testid=ucenter-balance] [data-fen]').waitFor()
    expect(new URL(page.url()).pathname).toBe('/ucenter')
    expect(refused).toEqual([])
    await context.close()
  })

  it('goes home from the signed-out page, its tab bar shown', async () => {
    const { context, app } = await nativeAppContext(browser)
    const page = await context.newPage()
    await page.goto('/myOrder?tab=pay')
    await expect.poll(() => app.loginRequests, { timeout: 5_000 }).toHaveLength(1)
    await nativeCancelLogin(page)
    await page.locator('[data-testid=signed-out]').getByRole('button', { name: '返回首页' }).click()
    await page.locator('[data-testid=home-search]').waitFor()
    expect(new URL(page.url()).pathname).toBe('/')
    await expect(page.getByText('我的', { exact: true }).first().isVisible()).resolves.toBe(true)
    await context.close()
  })

  it('signs the page out when the app signs out', async () => {
    const user = await createUser()
    const { context, app } = await nativeAppContext(browser, { user })
    const page = await context.newPage()
    await page.goto('/ucenter')
    await page.locator('[data-testid=ucenter-balance] [data-fen]').waitFor()

    const reloaded = page.waitForEvent('load')
    await nativeLogout(page)
    await reloaded
    // Signed out: the guard asks the app for its login screen again, and the cookies are gone.
    await expect.poll(() => app.loginRequests).toEqual(['/ucenter'])
    const cookies = await cookiesOf(context)
    expect(cookies[COOKIE.userId]).toBeUndefined()
    expect(cookies[COOKIE.key]).toBeUndefined()
    expect(cookies[COOKIE.sid]).toBeUndefined()
    expect(cookies[COOKIE.deviceId]).toBeTruthy()
    await context.close()
  })

  it('starts signed out when the app does not answer, rather than staying blank', async () => {
    const user = await createUser()
    const { context, app } = await nativeAppContext(browser, { user, answers: false })
    // Left over from an earlier visit: an app that cannot confirm them must not sign calls with them.
    await context.addCookies([
      { name: COOKIE.userId, value: String(user.userId), url: baseUrl() },
      { name: COOKIE.agreement, value: '1', url: baseUrl() },
    ])
    const page = await context.newPage()
    const started = Date.now()
    await page.goto('/')
    await page.locator('[data-testid=home-search]').waitFor({ timeout: 15_000 })
    // The bridge's 10 s timeout, not a page that never asked.
    expect(Date.now() - started).toBeGreaterThan(9_000)
    expect(app.calls.map((c) => c.method)).toEqual(['getUserData'])
    expect((await cookiesOf(context))[COOKIE.userId]).toBeUndefined()
    await context.close()
  })
})

describe('inside the messaging app (spec §2)', () => {
  it('sends an auth route to the platform’s OAuth with user-info scope and a stored state', async () => {
    const { wechat } = await clientConfig()
    expect(wechat).not.toBeNull()
    const context = await browser.newContext({
      viewport: PHONE,
      isMobile: true,
      hasTouch: true,
      locale: 'zh-CN',
      baseURL: baseUrl(),
      userAgent:
        'Mozilla/5.0 (Linux; Android 13) AppleWebKit/537.36 Chrome/116 Mobile Safari/537.36 ' +
        'MicroMessenger/8.0.50.2701(0x28003253) NetType/WIFI Language/zh_CN',
    })
    const page = await context.newPage()
    // Relative outside production (the sandbox on this server), absolute for the real platform.
    const authorizeUrl = new URL(wechat?.authorizeUrl ?? '/no-platform-configured', baseUrl()).href
    const isAuthorize = (url: URL) => url.href.startsWith(`${authorizeUrl}?`)
    // 204: the browser stays on the page that left, so its stored state can be read (the round
    // trip through the platform's sandbox is the messaging sign-in journey's).
    await page.route(isAuthorize, (route) => route.fulfill({ status: 204 }))
    const authorize = page.waitForRequest((req) => isAuthorize(new URL(req.url())))
    await page.goto('/myOrder?tab=pay')
    const url = new URL((await authorize).url())
    expect(url.searchParams.get('appid')).toBe(wechat?.appId)
    expect(url.searchParams.get('response_type')).toBe('code')
    expect(url.searchParams.get('scope')).toBe('snsapi_userinfo')
    // `#wechat_redirect` never reaches the network; lib/in-app/sign-in.test checks it.
    const callback = new URL(url.searchParams.get('redirect_uri') ?? '')
    expect(callback.origin).toBe(new URL(baseUrl()).origin)
    expect(callback.pathname).toBe('/wx/callback')
    expect(callback.searchParams.get('redirect')).toBe('/myOrder?tab=pay')
    const state = url.searchParams.get('state')
    expect(state).toMatch(/^[0-9a-f]{32}$/)
    // The callback checks the state against this tab's: the guard must have stored it.
    const stored = await page.evaluate<string | null>(
      `sessionStorage.getItem(${JSON.stringify(WX_STATE_KEY)})`,
    )
    expect(stored).toBe(state)
    await context.close()
  })
})
