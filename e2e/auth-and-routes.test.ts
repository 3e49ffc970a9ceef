import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROUTES } from '../apps/web/src/app/routes'
import {
  baseUrl,
  fillSignIn,
  freshMobile,
  launchBrowser,
  phoneContext,
  signedInContext,
} from './fixtures'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser.close())

// The journeys here go through the real sign-in screen on purpose; elsewhere the fixture signs in.
describe('sign-in guard (spec §2)', () => {
  it('sends an anonymous visitor of an auth route to sign-in and back, signed in', async () => {
    const context = await phoneContext(browser)
    const page = await context.newPage()
    await page.goto('/myBuy?tab=leading')
    await page.waitForURL((url) => url.pathname === '/passport')
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/myBuy?tab=leading')

    await fillSignIn(page, freshMobile())
    await page.waitForURL((url) => url.pathname === '/myBuy')
    expect(new URL(page.url()).search).toBe('?tab=leading')
    await expect.poll(() => page.title()).toContain('我的竞买')

    const cookies = Object.fromEntries((await context.cookies()).map((c) => [c.name, c]))
    expect(cookies.agreement?.value).toBe('1')
    expect(cookies.userId?.value).toMatch(/^\d+$/)
    expect(cookies.sid?.httpOnly).toBe(true)
    expect(cookies.deviceId?.value).toBeTruthy()
    await context.close()
  })

  it('lets an anonymous visitor browse public routes without signing in', async () => {
    const context = await phoneContext(browser)
    const page = await context.newPage()
    await page.goto('/rules')
    await expect.poll(() => page.title()).toContain('竞买须知')
    expect(new URL(page.url()).pathname).toBe('/rules')
    await context.close()
  })

  it('refuses an off-site redirect after sign-in', async () => {
    const context = await phoneContext(browser)
    const page = await context.newPage()
    await page.goto(`/passport?redirect=${encodeURIComponent('//evil.example/steal')}`)
    await fillSignIn(page, freshMobile())
    await page.waitForURL((url) => url.pathname === '/')
    expect(new URL(page.url()).host).toBe(new URL(baseUrl()).host)
    await context.close()
  })
})

describe('every route of spec §2 renders with its title', () => {
  let context: BrowserContext
  let page: Page

  beforeAll(async () => {
    // Signed in by the fixture: the sign-in screen itself is tested above.
    ;({ context, page } = await signedInContext(browser))
  })
  afterAll(() => context.close())

  for (const route of ROUTES) {
    const path = route.path === '*' ? '/no-such-page' : route.path
    it(`${path} → ${route.title.zh}`, async () => {
      await page.goto(path)
      await expect.poll(() => page.title()).toContain(route.title.zh)
      expect(new URL(page.url()).pathname).toBe(path)
      // A real frame: the title on screen and some content, never a blank page.
      await page.getByText(route.title.zh, { exact: true }).first().waitFor()
      // Data-driven frames fill in once their reads answer: wait for more than the title.
      const content = async () =>
        (await page.locator('#root').innerText()).replace(route.title.zh, '').trim().length
      await expect.poll(content).toBeGreaterThan(0)
    })
  }
})

describe('a page that cannot load', () => {
  it('says so with a retry in place of the shell; the next page shows, and the page itself once it can be had', async () => {
    const context = await phoneContext(browser)
    const page = await context.newPage()
    const chunk = /\/assets\/category-page-[^/]*\.js$/
    await page.route(chunk, (route) => route.abort())
    await page.goto('/')
    await page.locator('#root [data-testid=special-list]').waitFor()

    await page.getByText('分类', { exact: true }).last().click() // tab bar → categories
    await page.getByText('页面加载失败，请重试').waitFor()
    await expect(page.getByRole('button', { name: '重试' }).count()).resolves.toBe(1)

    // Back to the home page: the failure was the category page's, not the app's.
    await page.goBack()
    await page.locator('#root [data-testid=special-list]').waitFor()
    await expect(page.getByText('页面加载失败，请重试').count()).resolves.toBe(0)

    // The connection is back: the next visit to the category page loads it.
    await page.unroute(chunk)
    await page.getByText('分类', { exact: true }).last().click()
    await page.waitForURL((url) => url.pathname === '/category')
    await page.locator('#root [data-testid=page-body]').waitFor()
    await expect(page.getByText('页面加载失败，请重试').count()).resolves.toBe(0)
    await context.close()
  })

  it('loads a page again at the next visit when its load failed after the reader had left it', async () => {
    const context = await phoneContext(browser)
    const page = await context.newPage()
    const chunk = /\/assets\/category-page-[^/]*\.js$/
    let fail = () => {}
    const failed = new Promise<void>((resolve) => (fail = resolve))
    await page.route(chunk, async (route) => {
      await failed
      await route.abort()
    })
    await page.goto('/')
    await page.locator('#root [data-testid=special-list]').waitFor()
    await page.getByText('分类', { exact: true }).last().click() // its chunk is on its way
    await page.waitForURL((url) => url.pathname === '/category')
    await page.goBack()
    await page.waitForURL((url) => url.pathname === '/')
    fail() // the load fails with nobody on the page
    // Once the handler has aborted the load: a plain unroute does not wait for it, lets the
    // request go on unrouted, and the handler's abort then throws (Route is already handled).
    await page.unrouteAll({ behavior: 'wait' })
    await page.waitForTimeout(200)

    await page.getByText('分类', { exact: true }).last().click()
    await page.waitForURL((url) => url.pathname === '/category')
    await page.locator('#root [data-testid=page-body]').waitFor()
    await expect.poll(() => page.getByText('页面加载失败，请重试').count()).toBe(0)
    await context.close()
  })
})
