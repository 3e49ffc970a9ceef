import type { Browser, BrowserContext, Page } from 'playwright-core'
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
  waitsForTheApp,
} from './fixtures'
import { messagingAppContext, readMessagingApp } from './tools/messaging-app'
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

async function twoLots(): Promise<{ specialId: number; lots: { id: number; title: string }[] }> {
  const staff = await staffSession()
  const titles = [1, 2].map((n) => `分享 ${process.pid}-${Date.now()}-${n} 光绪元宝 库平七钱二分`)
  const { specialId, lots } = await createSpecialWithLots(
    staff,
    buildSpecial(),
    titles.map((title, n) => ({ title, startPrice: 124_000 + n * 2_000 })),
  )
  return { specialId, lots: lots.map((lot, n) => ({ id: lot.id, title: titles[n]! })) }
}

async function oneLot(): Promise<{ lotId: number; title: string }> {
  const { lots } = await twoLots()
  return { lotId: lots[0]!.id, title: lots[0]!.title }
}

/** Each `wx.config` the page made: the URL the app checked (without its hash), the verdict. */
async function configsOf(page: Page): Promise<[string, string][]> {
  const { configs } = await readMessagingApp(page)
  return configs.map((c) => [c.url.replace(/#.*$/, ''), c.verdict])
}

const SIGNATURE_CALL = '**/svc/main/h5/wechat/jsapi-signature?*'

async function microblogContext(): Promise<BrowserContext> {
  const context = await browser.newContext({
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
  context.on('page', waitsForTheApp)
  return context
}

describe('sharing', () => {
  it("configures the messaging app's JS-SDK for each page it shows and shares that item", async () => {
    const { specialId, lots } = await twoLots()
    const [first, second] = lots as [(typeof lots)[0], (typeof lots)[0]]
    const context = await messagingAppContext(browser)
    const page = await context.newPage()
    const toasts = await recordToasts(page)
    const scripts: string[] = []
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname)
    })
    const firstUrl = `${baseUrl()}/productDetail?id=${first.id}`
    await page.goto(`/productDetail?id=${first.id}#top`)
    await page.getByText(first.title).first().waitFor()

    // The platform checked the signature against this page's URL (it drops the hash) and
    // accepted it.
    await expect.poll(() => configsOf(page)).toEqual([[firstUrl, 'config:ok']])
    await expect
      .poll(async () => (await readMessagingApp(page)).shared.appMessage)
      .toMatchObject({ title: first.title, link: firstUrl })
    const { shared } = await readMessagingApp(page)
    expect(shared.appMessage?.desc).toContain('起拍价 ¥1,240.00')
    // The PNG rendition of our SVG artwork: the platform's cards draw no SVG.
    expect(shared.appMessage?.imgUrl).toMatch(new RegExp(`^${baseUrl()}/svc/media/art/.+\\.png$`))
    const picture = await page.request.get(shared.appMessage?.imgUrl ?? '')
    expect(picture.headers()['content-type']).toBe('image/png')
    // The timeline card shows no description: its title carries the price.
    expect(shared.timeline).toMatchObject({
      title: `${first.title} · 起拍价 ¥1,240.00`,
      link: firstUrl,
    })
    // Here, and only here (see the microblog journey), the JS-SDK's own chunk was fetched.
    expect(scripts.some((path) => path.includes('weixin-js-sdk'))).toBe(true)

    // The special, then the second lot, within the app: a new URL each time, so a new config.
    await page.getByText('所属专场').click()
    await page.waitForURL((url) => url.pathname === '/specialDetail')
    const secondUrl = `${baseUrl()}/productDetail?id=${second.id}`
    await page.locator(`[data-testid=special-lots] [data-lot-id="${second.id}"]`).click()
    await page.getByText(second.title).first().waitFor()
    await expect
      .poll(() => configsOf(page))
      .toEqual([
        [firstUrl, 'config:ok'],
        [`${baseUrl()}/specialDetail?id=${specialId}`, 'config:ok'],
        [secondUrl, 'config:ok'],
      ])
    await expect
      .poll(async () => (await readMessagingApp(page)).shared.appMessage)
      .toMatchObject({ title: second.title, link: secondUrl })
    expect((await readMessagingApp(page)).shared.appMessage?.desc).toContain('¥1,260.00')
    expect(await toasts()).toEqual([])
    await screenshot(page, 'share-messaging-second-lot')
    await context.close()
  })

  it('says 初始化分享失败 when the signature cannot be had', async () => {
    const { lotId, title } = await oneLot()
    const context = await messagingAppContext(browser)
    const page = await context.newPage()
    const toasts = await recordToasts(page)
    await page.route(SIGNATURE_CALL, (route) => route.fulfill({ status: 502, body: '' }))
    await page.goto(`/productDetail?id=${lotId}`)
    await page.getByText(title).first().waitFor()
    await expect.poll(toasts).toEqual(['初始化分享失败'])
    await screenshot(page, 'share-messaging-failed')
    expect((await readMessagingApp(page)).configs).toEqual([])
    await context.close()
  })

  it('says 初始化分享失败 when the platform refuses the signature', async () => {
    const { lotId, title } = await oneLot()
    const context = await messagingAppContext(browser)
    const page = await context.newPage()
    const toasts = await recordToasts(page)
    // Our server answers, but with a signature for another page: the platform refuses it.
    await page.route(SIGNATURE_CALL, async (route) => {
      const response = await route.fetch()
      const body = (await response.json()) as { data: { signature: string } }
      body.data.signature = '0'.repeat(40)
      await route.fulfill({ response, json: body })
    })
    await page.goto(`/productDetail?id=${lotId}`)
    await page.getByText(title).first().waitFor()
    await expect
      .poll(async () => (await readMessagingApp(page)).configs.map((c) => c.verdict))
      .toEqual(['config:invalid signature'])
    await expect.poll(toasts).toEqual(['初始化分享失败'])
    expect((await readMessagingApp(page)).shared.appMessage).toBeNull()
    await context.close()
  })

  it('copies the link in the microblog app and says so', async () => {
    const { lotId, title } = await oneLot()
    const context = await microblogContext()
    const page = await context.newPage()
    const toasts = await recordToasts(page)
    // The messaging app's JS-SDK and its set-up are fetched inside that app only.
    const scripts: string[] = []
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname)
    })
    await page.goto(`/productDetail?id=${lotId}#photos`)
    await page.getByText(title).first().waitFor()
    await page.getByRole('button', { name: '分享' }).click()
    await expect.poll(toasts).toContain('链接已复制，快去分享吧')
    await screenshot(page, 'share-microblog-copied')
    const copied = await page.evaluate(() => navigator.clipboard.readText())
    expect(copied).toBe(`${baseUrl()}/productDetail?id=${lotId}`)
    expect(scripts.filter((path) => /weixin-js-sdk|messaging-share/.test(path))).toEqual([])
    expect(scripts.length).toBeGreaterThan(3)
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
    expect(shared?.imgUrl).toMatch(new RegExp(`^${baseUrl()}/svc/media/art/.+\\.png$`))
    await context.close()
  })
})
