import type { Browser, BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  baseUrl,
  buildSpecial,
  createSpecialWithLots,
  launchBrowser,
  PHONE,
  recordToasts,
  screenshot,
  staffSession,
} from './fixtures'
import { nativeAppContext, nativeShares } from './tools/native-app'

/** The microblog app's browser on an iPhone (the `Weibo` marker, spec §1). */
const MICROBLOG_USER_AGENT =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) ' +
  'Mobile/15E148 Weibo (iPhone15,2__weibo__14.1.0__iphone__os17.0)'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser.close())

async function oneLot(): Promise<{ lotId: number; title: string; specialId: number }> {
  const staff = await staffSession()
  const title = `分享 ${process.pid}-${Date.now()} 光绪元宝 库平七钱二分`
  const { specialId, lots } = await createSpecialWithLots(staff, buildSpecial(), [
    { title, startPrice: 124_000 },
  ])
  return { lotId: lots[0]!.id, title, specialId }
}

function microblogContext(): Promise<BrowserContext> {
  return browser.newContext({
    viewport: PHONE,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'zh-CN',
    timezoneId: 'America/New_York',
    baseURL: baseUrl(),
    userAgent: MICROBLOG_USER_AGENT,
    // The test reads the clipboard back; the page only writes it.
    permissions: ['clipboard-read', 'clipboard-write'],
  })
}

describe('sharing', () => {
  it('copies the link in the microblog app and says so', async () => {
    const { lotId, title } = await oneLot()
    const context = await microblogContext()
    const page = await context.newPage()
    const toasts = await recordToasts(page)
    await page.goto(`/productDetail?id=${lotId}#photos`)
    await page.getByText(title).first().waitFor()
    await page.getByRole('button', { name: '分享' }).click()
    await expect.poll(toasts).toContain('链接已复制，快去分享吧')
    await screenshot(page, 'share-microblog-copied')
    const copied = await page.evaluate(() => navigator.clipboard.readText())
    expect(copied).toBe(`${baseUrl()}/productDetail?id=${lotId}`)
    await context.close()
  })

  it("hands the lot's share info to the native app's share sheet", async () => {
    const { lotId, title } = await oneLot()
    const { context } = await nativeAppContext(browser)
    const page = await context.newPage()
    await page.goto(`/productDetail?id=${lotId}`)
    await page.getByText(title).first().waitFor()
    await screenshot(page, 'share-native-lot')
    await page.getByRole('button', { name: '分享' }).click()
    await expect.poll(() => nativeShares(page).length).toBe(1)
    const [shared] = nativeShares(page)
    expect(shared).toMatchObject({
      title,
      link: `${baseUrl()}/productDetail?id=${lotId}`,
    })
    expect(shared?.desc).toContain('起拍价 ¥1,240.00')
    expect(shared?.imgUrl).toMatch(new RegExp(`^${baseUrl()}/svc/media/art/`))
    await context.close()
  })
})
