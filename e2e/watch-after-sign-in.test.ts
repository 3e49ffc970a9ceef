import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  buildSpecial,
  createMallItem,
  createSpecialWithLots,
  fillSignIn,
  freshMobile,
  launchBrowser,
  phoneContext,
  recordToasts,
  screenshot,
  staffSession,
} from './fixtures'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser.close())

/** Signed out, taps 关注, signs in on the real passport page and is brought back to `itemUrl`. */
async function watchThroughSignIn(page: Page, itemUrl: string, button: string): Promise<void> {
  await page.goto(itemUrl)
  const heart = page.locator(`[data-testid=${button}]`)
  await heart.click()
  await page.waitForURL((url) => url.pathname === '/passport')
  await fillSignIn(page, freshMobile())
}

// A guest's 关注 survives the sign-in it starts (plain browser: the passport page).
describe('关注 while signed out', () => {
  it('watches the lot once back from sign-in, and drops the intent from the URL', async () => {
    const staff = await staffSession()
    const title = `光绪元宝 江南省造 庚子 七钱二分 ${process.pid}-${Date.now() % 100_000}`
    const { lots } = await createSpecialWithLots(staff, buildSpecial(), [{ title }])
    const lotUrl = `/productDetail?id=${lots[0]!.id}`
    const context = await phoneContext(browser)
    const page = await context.newPage()
    try {
      const toasts = await recordToasts(page)
      await watchThroughSignIn(page, lotUrl, 'watch-button')

      const heart = page.locator('[data-testid=watch-button]')
      await expect.poll(() => heart.getAttribute('aria-pressed')).toBe('true')
      await expect.poll(toasts).toContain('已关注')
      await expect.poll(() => new URL(page.url()).search).toBe(new URL(lotUrl, 'http://x').search)
      await screenshot(page, 'lot-watched-after-sign-in')

      // The server holds it, and a reload neither repeats nor undoes the watch.
      await page.reload()
      await expect.poll(() => heart.getAttribute('aria-pressed')).toBe('true')
      await page.goto('/myLike')
      await page.locator('[data-testid=watched-lots]').getByText(title).waitFor()
    } finally {
      await context.close()
    }
  })

  it('watches the mall item once back from sign-in', async () => {
    const staff = await staffSession()
    const item = await createMallItem(staff)
    const itemUrl = `/productDetail?productNo=${item.productNo}`
    const context = await phoneContext(browser)
    const page = await context.newPage()
    try {
      const toasts = await recordToasts(page)
      await watchThroughSignIn(page, itemUrl, 'mall-watch-button')

      const heart = page.locator('[data-testid=mall-watch-button]')
      await expect.poll(() => heart.getAttribute('aria-pressed')).toBe('true')
      await expect.poll(toasts).toContain('已关注')
      await expect.poll(() => new URL(page.url()).search).toBe(`?productNo=${item.productNo}`)
      await page.reload()
      await expect.poll(() => heart.getAttribute('aria-pressed')).toBe('true')
    } finally {
      await context.close()
    }
  })
})
