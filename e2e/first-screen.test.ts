import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  buildSpecial,
  createMallItem,
  createSpecialWithLots,
  launchBrowser,
  phoneContext,
  staffSession,
} from './fixtures'

/**
 * Issue 13: a landing page's first answers come inlined in its HTML (server platform/first-screen.ts)
 * and seed the query cache before the first render (the queries' `initialData`), so the page's
 * first render already shows them. Were they only answered by the query functions, the first
 * render would show skeletons and a second, blocking render the data — on a slow phone the longest
 * task of the load, and a later largest paint.
 */

let browser: Browser
/** Closed after each test, passed or failed. */
const opened: BrowserContext[] = []

beforeAll(async () => {
  browser = await launchBrowser()
})
afterEach(async () => {
  await Promise.all(opened.splice(0).map((context) => context.close()))
})
afterAll(() => browser.close())

/**
 * Watches the page from its first byte: whether a skeleton was ever put on screen before `marker`
 * (the page's data) appeared, and which API calls the page made.
 */
async function openWatched(
  url: string,
  marker: string,
): Promise<{ page: Page; skeletonsBefore: () => Promise<number>; calls: string[] }> {
  const context = await phoneContext(browser)
  const page = await context.newPage()
  const calls: string[] = []
  page.on('request', (request) => {
    const { pathname } = new URL(request.url())
    if (pathname.startsWith('/svc/main/')) calls.push(pathname.replace('/svc/main', ''))
  })
  opened.push(context)
  await page.addInitScript(`(() => {
    window.__skeletonsBefore = 0
    const observer = new MutationObserver(() => {
      if (document.querySelector(${JSON.stringify(marker)})) return observer.disconnect()
      window.__skeletonsBefore += document.querySelectorAll('.adm-skeleton').length
    })
    observer.observe(document, { childList: true, subtree: true })
  })()`)
  await page.goto(url)
  await page.locator(marker).first().waitFor()
  return {
    page,
    calls,
    skeletonsBefore: () => page.evaluate<number>('window.__skeletonsBefore'),
  }
}

describe('first screen', () => {
  it('the home page shows its banners and specials in its first render, with no call for them', async () => {
    const { page, calls, skeletonsBefore } = await openWatched(
      '/',
      '[data-testid=special-list] [data-special-id]',
    )
    expect(await skeletonsBefore()).toBe(0)
    await expect(page.locator('.home-banners img').count()).resolves.toBeGreaterThan(0)
    expect(calls).not.toContain('/mall/advertis/0')
    expect(calls).not.toContain('/meta/@category')
    expect(calls).not.toContain('/special/V1')
  })

  it('a special, a lot and a mall item show their data in their first render', async () => {
    const staff = await staffSession()
    const { specialId, lots } = await createSpecialWithLots(staff, buildSpecial(), [{}, {}])
    const { productNo } = await createMallItem(staff)

    const special = await openWatched(
      `/specialDetail?id=${specialId}`,
      '[data-testid=special-lots] [data-testid=lot-card]',
    )
    expect(await special.skeletonsBefore()).toBe(0)
    expect(special.calls).not.toContain(`/special/${specialId}`)

    const lot = await openWatched(`/productDetail?id=${lots[0]!.id}`, '[data-testid=price-band]')
    expect(await lot.skeletonsBefore()).toBe(0)
    expect(lot.calls).not.toContain(`/auction/${lots[0]!.id}`)

    const item = await openWatched(`/productDetail?productNo=${productNo}`, '[data-testid=buy-bar]')
    expect(await item.skeletonsBefore()).toBe(0)
    expect(item.calls).not.toContain(`/mallproduct/getMallByProductNo/${productNo}`)
  })
})
