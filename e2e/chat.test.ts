import type { UserStatistics } from '@numisma/contracts/user'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  baseUrl,
  buildSpecial,
  createMallItem,
  createSpecialWithLots,
  dataOf,
  E2E_ADMIN_PASSWORD,
  launchBrowser,
  mainCall,
  recordToasts,
  screenshot,
  signedInContext,
  staffSession,
} from './fixtures'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser.close())

/** A staff desk at desk size, signed in through the console's own form. */
async function deskContext(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: 'zh-CN',
    baseURL: baseUrl(),
  })
  const page = await context.newPage()
  await page.goto('/admin/support/chat')
  await page.getByLabel('用户名').waitFor()
  await screenshot(page, 'chat-desk-sign-in')
  await page.getByLabel('用户名').fill('admin')
  await page.getByLabel('密码').fill(E2E_ADMIN_PASSWORD)
  await page.getByRole('button', { name: '登录', exact: true }).click()
  await page.locator('[data-testid=staff-username]').waitFor()
  return { context, page }
}

/** The texts of the thread's text bubbles (`testId`: chat-message, desk-message; a `from` too). */
const bubbleTexts = (page: Page, testId: string) =>
  page.locator(`[data-testid=${testId}] p`).allInnerTexts()

/** A small picture as a phone would pick it: a PNG of one colour. */
const pngFile = async (name: string, width: number, height: number) => ({
  name,
  mimeType: 'image/png',
  buffer: await sharp({
    create: { width, height, channels: 3, background: { r: 176, g: 132, b: 48 } },
  })
    .png()
    .toBuffer(),
})

/** Whether each <img> found has actually loaded a picture (a refused request leaves it 0 wide). */
const loaded = (images: Locator) =>
  images.evaluateAll((all) =>
    all.map((img) => img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0),
  )

/**
 * Resolves once the page's push socket has said hello to this user: from then on the push role
 * routes the user's messages to it. Listens from the socket's opening, as the hello comes at once.
 */
const pushHello = (page: Page, userId: number) =>
  new Promise<void>((resolve) => {
    page.on('websocket', (socket) => {
      if (!socket.url().endsWith('/svc/push/ws')) return
      socket.on('framereceived', (frame) => {
        if (String(frame.payload).includes(`"userId":${userId}`)) resolve()
      })
    })
  })

describe('the customer-service chat', () => {
  it('a collector asks about a lot with its card, staff answer live, history and unread hold', async () => {
    const staff = await staffSession()
    const title = '民国三年 袁世凯像 壹圆 签字版'
    const { lots } = await createSpecialWithLots(staff, buildSpecial(), [
      { title, startPrice: 250_000 },
    ])
    const lotId = lots[0]!.id

    const { context: phone, page, user } = await signedInContext(browser)
    const toasts = await recordToasts(page)
    await page.goto(`/productDetail?id=${lotId}`)
    await page.locator('[data-testid=bid-bar]').waitFor()
    await screenshot(page, 'chat-entry-lot')
    await page.locator('[data-testid=chat-entry]').click()
    await page.waitForURL((url) => url.pathname === '/chat')
    expect(new URL(page.url()).searchParams.get('lot')).toBe(String(lotId))
    // Nothing said yet: the agent's greeting is a hint, not a message.
    await page.locator('[data-testid=chat-greeting]').waitFor()
    expect(await page.locator('[data-testid=chat-message]').count()).toBe(0)
    const pinned = page.locator('[data-testid=chat-pinned-card]')
    await pinned.waitFor()
    expect(await pinned.innerText()).toContain(title)
    await screenshot(page, 'chat-opened-from-lot')

    await page.locator('[data-testid=chat-send-card]').click()
    const card = page.locator('[data-testid=chat-message][data-from=user] [data-testid=chat-card]')
    await card.waitFor()
    expect(await card.getAttribute('data-ref')).toBe(String(lotId))
    expect(await pinned.count()).toBe(0)
    await page.getByPlaceholder('请输入消息').fill('请问这枚品相如何？有没有细节图？')
    await page.locator('[data-testid=chat-send]').click()
    await expect
      .poll(() => bubbleTexts(page, 'chat-message'))
      .toContain('请问这枚品相如何？有没有细节图？')
    expect(await page.locator('[data-testid=chat-pending]').count()).toBe(0)

    // Staff see the conversation with the card and the question, unread.
    const { context: deskCtx, page: desk } = await deskContext()
    const row = desk.locator(`[data-testid=desk-conversation]`, { hasText: user.mobile })
    await row.waitFor()
    expect(Number(await row.getAttribute('data-unread'))).toBe(2)
    // The unread total over every conversation, loaded or not, heads the list.
    expect(await desk.locator('[data-testid=desk-unread-total]').innerText()).toMatch(
      /^\d+ 个会话有未读（\d+ 条）$/,
    )
    await row.click()
    const pane = desk.locator('[data-testid=desk-pane]')
    await pane.locator('[data-testid=chat-card]').waitFor()
    expect(await pane.locator('[data-testid=chat-card]').innerText()).toContain(title)
    await expect
      .poll(() => bubbleTexts(desk, 'desk-message'))
      .toContain('请问这枚品相如何？有没有细节图？')
    await expect.poll(() => row.getAttribute('data-unread')).toBe('0')

    // A message arrives at the desk live.
    await page.getByPlaceholder('请输入消息').fill('另外可以走柜台自提吗')
    await page.locator('[data-testid=chat-send]').click()
    await expect.poll(() => bubbleTexts(desk, 'desk-message')).toContain('另外可以走柜台自提吗')
    await screenshot(desk, 'chat-desk')

    // The reply reaches the collector live.
    await desk.getByPlaceholder(/^输入回复/).fill('您好，品相极美，细节图稍后发您。')
    await desk.locator('[data-testid=desk-send]').click()
    await expect
      .poll(() => page.locator('[data-testid=chat-message][data-from=agent] p').allInnerTexts())
      .toContain('您好，品相极美，细节图稍后发您。')
    await screenshot(page, 'chat-conversation')

    // Both reload: the history is the server's.
    await page.reload()
    await expect
      .poll(() => bubbleTexts(page, 'chat-message'))
      .toEqual(expect.arrayContaining(['请问这枚品相如何？有没有细节图？', '另外可以走柜台自提吗']))
    expect(await page.locator('[data-testid=chat-message] [data-testid=chat-card]').count()).toBe(1)
    await desk.reload()
    await desk.locator('[data-testid=desk-pane]').waitFor()
    await expect
      .poll(() => bubbleTexts(desk, 'desk-message'))
      .toContain('您好，品相极美，细节图稍后发您。')

    // The collector leaves; the agent writes; the user centre's badge counts it at once (the
    // page's push socket says an agent answered) and until /chat is opened.
    const pushGreeted = pushHello(page, user.userId)
    await page.goto('/ucenter')
    await page.locator('[data-testid=menu-chat]').waitFor()
    await pushGreeted
    const badge = page.locator('[data-testid=menu-chat-extra] .adm-badge')
    expect(await badge.count()).toBe(0)
    await desk.getByPlaceholder(/^输入回复/).fill('细节图已整理好，请查看。')
    await desk.locator('[data-testid=desk-send]').click()
    await expect.poll(() => badge.count()).toBe(1)
    expect(await badge.innerText()).toBe('1')
    await page.reload()
    await badge.waitFor()
    expect(await badge.innerText()).toBe('1')
    await screenshot(page, 'chat-ucenter-unread')
    await page.locator('[data-testid=menu-chat]').click()
    await page.waitForURL((url) => url.pathname === '/chat')
    await expect
      .poll(() => page.locator('[data-testid=chat-message][data-from=agent] p').allInnerTexts())
      .toContain('细节图已整理好，请查看。')
    await expect
      .poll(async () => {
        const stats = await dataOf<UserStatistics>(mainCall('/user/@statistics', { as: user }))
        return stats.counts.unreadChat ?? 0
      })
      .toBe(0)
    await page.goto('/ucenter')
    await page.locator('[data-testid=menu-chat]').waitFor()
    await page.waitForLoadState('networkidle')
    expect(await badge.count()).toBe(0)

    expect(await toasts()).toEqual([])
    await phone.close()
    await deskCtx.close()
  })

  it('pictures both ways show on the phone, in its zoom and on the desk', async () => {
    const { context: phone, page, user } = await signedInContext(browser)
    const toasts = await recordToasts(page)
    await page.goto('/chat')
    await page.locator('[data-testid=chat-greeting]').waitFor()
    await page
      .locator('[data-testid=chat-picture-input]')
      .setInputFiles(await pngFile('coin.png', 240, 160))
    const mine = page.locator(
      '[data-testid=chat-message][data-from=user] [data-testid=chat-image] img',
    )
    await mine.waitFor()
    await expect.poll(() => loaded(mine)).toEqual([true])

    // Staff see the collector's picture and answer with one of their own.
    const { context: deskCtx, page: desk } = await deskContext()
    await desk.locator('[data-testid=desk-conversation]', { hasText: user.mobile }).click()
    const deskImages = desk.locator('[data-testid=desk-message] img')
    await deskImages.first().waitFor()
    await expect.poll(() => loaded(deskImages)).toEqual([true])
    await desk
      .locator('[data-testid=desk-picture-input]')
      .setInputFiles(await pngFile('detail.png', 160, 200))
    await expect.poll(() => loaded(deskImages)).toEqual([true, true])
    // The console speaks Chinese throughout: antd's own words too (the picture's hover mask), and
    // no gap in two-character labels.
    expect(
      await desk.locator('[data-testid=desk-message] .ant-image-mask').first().innerText(),
    ).toBe('预览')
    expect(await desk.locator('[data-testid=desk-send]').innerText()).toBe('发送')
    expect(await desk.getByRole('button', { name: '图片', exact: true }).count()).toBe(1)
    await screenshot(desk, 'chat-desk-pictures')

    // The agent's picture reaches the phone live and loads there too, and again from history.
    const theirs = page.locator(
      '[data-testid=chat-message][data-from=agent] [data-testid=chat-image] img',
    )
    await theirs.waitFor()
    await expect.poll(() => loaded(theirs)).toEqual([true])
    await page.reload()
    const all = page.locator('[data-testid=chat-message] [data-testid=chat-image] img')
    await expect.poll(() => loaded(all)).toEqual([true, true])
    await screenshot(page, 'chat-pictures')

    // A tap zooms it; the viewer loads the same picture.
    await page
      .locator('[data-testid=chat-message][data-from=agent] [data-testid=chat-image]')
      .click()
    const zoomed = page.locator('.adm-image-viewer-content img')
    await zoomed.first().waitFor()
    await expect.poll(() => loaded(zoomed.first())).toEqual([true])
    await screenshot(page, 'chat-picture-zoom')

    expect(await toasts()).toEqual([])
    await phone.close()
    await deskCtx.close()
  })

  it('a mall item opens the chat with its card pinned; a lost send is retried', async () => {
    const staff = await staffSession()
    const title = '1980年 长城币 壹圆 原光'
    const { productNo } = await createMallItem(staff, { title, price: 36_000 })
    const { context, page } = await signedInContext(browser)
    await page.goto(`/productDetail?productNo=${productNo}`)
    await page.locator('[data-testid=buy-bar]').waitFor()
    await screenshot(page, 'chat-entry-mall')
    await page.locator('[data-testid=chat-entry]').click()
    await page.waitForURL((url) => url.pathname === '/chat')
    const pinned = page.locator('[data-testid=chat-pinned-card]')
    await pinned.waitFor()
    expect(await pinned.innerText()).toContain('¥360.00')
    await page.locator('[data-testid=chat-send-card]').click()
    const card = page.locator('[data-testid=chat-message] [data-testid=chat-card]')
    await card.waitFor()
    expect(await card.getAttribute('data-ref')).toBe(productNo)
    expect(await card.innerText()).toContain(title)
    // A send the network loses shows as failed; the retry stores it once.
    let posts = 0
    await page.route('**/svc/main/chat/messages', async (route) => {
      if (route.request().method() !== 'POST') return route.fallback()
      posts += 1
      return posts === 1 ? route.abort('connectionreset') : route.fallback()
    })
    await page.getByPlaceholder('请输入消息').fill('这枚还有库存吗')
    await page.locator('[data-testid=chat-send]').click()
    const failed = page.locator('[data-testid=chat-pending][data-state=failed]')
    await failed.waitFor()
    expect(await failed.innerText()).toContain('这枚还有库存吗')
    await screenshot(page, 'chat-send-failed')
    await failed.locator('[data-testid=chat-retry]').click()
    await expect
      .poll(() => page.locator('[data-testid=chat-message] p').allInnerTexts())
      .toEqual(['这枚还有库存吗'])
    expect(await page.locator('[data-testid=chat-pending]').count()).toBe(0)
    await page.unroute('**/svc/main/chat/messages')

    // The card leads back to the item.
    await card.click()
    await page.waitForURL((url) => url.searchParams.get('productNo') === productNo)
    await context.close()
  })

  it('a chat open when its session is signed out elsewhere goes to sign-in, and stays there', async () => {
    const { context, page, user } = await signedInContext(browser)
    const opened: string[] = []
    page.on('websocket', (socket) => {
      if (socket.url().endsWith('/chat')) opened.push(socket.url())
    })
    await page.goto('/chat')
    await page.locator('[data-testid=chat-greeting]').waitFor()
    await expect.poll(() => opened.length).toBe(1)
    // Signed out in another tab: the server ends the session and closes its sockets (ADR 035).
    expect((await mainCall('/passport/logout', { as: user, body: {} })).status).toBe(200)
    await page.waitForURL((url) => url.pathname === '/passport')
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/chat')
    await screenshot(page, 'chat-signed-out-elsewhere')
    // The ended socket is not reopened: a reopen would be refused, and before it was retried
    // every second.
    await page.waitForTimeout(2_500)
    expect(opened).toHaveLength(1)
    await context.close()
  })
})
