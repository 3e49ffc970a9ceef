import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  bidAs,
  buildSpecial,
  createSpecialWithLots,
  creditDeposit,
  createUser,
  dataOf,
  launchBrowser,
  mainCall,
  screenshot,
  signedInContext,
  staffSession,
} from './fixtures'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser.close())

/** DESIGN §4: a watcher is reminded five minutes before a watched lot ends. */
const REMINDER_LEAD_MS = 5 * 60_000

describe('ending-soon reminders', () => {
  it('show a notice on any page that leads to the watched lot', async () => {
    const staff = await staffSession()
    // The lot enters its last five minutes a few seconds from now.
    const { lots } = await createSpecialWithLots(
      staff,
      buildSpecial({ endsInMs: REMINDER_LEAD_MS + 8_000 }),
      [{ title: '咸丰元宝 当千 宝泉局 GBCA 美品' }],
    )
    const lotId = lots[0]!.id
    const user = await createUser()
    await dataOf(mainCall(`/auction/${lotId}/@attention`, { as: user, method: 'POST' }))

    // The collector is elsewhere in the shop with the push connection open.
    const { context, page } = await signedInContext(browser, user)
    await page.goto('/ucenter')
    const notice = page.locator(`[data-testid=reminders] [data-lot-id="${lotId}"]`)
    await notice.waitFor({ timeout: 40_000 })
    const text = (await notice.innerText()).replace(/\s+/g, '')
    expect(text).toContain('即将结拍（不足5分钟）：咸丰元宝当千宝泉局GBCA美品')
    await screenshot(page, 'reminder-notice')

    await notice.locator('[data-testid=reminder-link]').click()
    await page.waitForURL((url) => url.pathname === '/productDetail')
    expect(new URL(page.url()).searchParams.get('id')).toBe(String(lotId))
    await page.locator(`[data-testid=item-detail][data-lot-id="${lotId}"]`).waitFor()
    expect(await page.locator('[data-testid=reminders]').count()).toBe(0)
    await context.close()
  })

  it('an outbid away from the lot is a notice with its title and a way back to bid', async () => {
    const staff = await staffSession()
    const { lots } = await createSpecialWithLots(staff, buildSpecial({ endsInMs: 60 * 60_000 }), [
      { title: '光绪元宝 广东省造 七钱二分', startPrice: 100_000 },
    ])
    const lotId = lots[0]!.id
    const [a, b] = [await createUser(), await createUser()]
    for (const user of [a, b]) await creditDeposit(staff, user, 1_000_000)
    await bidAs(a, { lotId, amount: 100_000 })

    const { context, page } = await signedInContext(browser, a)
    // The outbid goes to the sockets A has open when B bids: wait until the page's push socket
    // is open and the server has said hello to A (a fixed second was not always enough).
    const hello = new Promise<void>((resolve) => {
      page.on('websocket', (ws) => {
        ws.on('framereceived', ({ payload }) => {
          if (String(payload).includes('"hello"')) resolve()
        })
      })
    })
    await page.goto('/ucenter')
    await hello
    await bidAs(b, { lotId, amount: 110_000 })
    const notice = page.locator(
      `[data-testid=reminders] [data-kind=outbid][data-lot-id="${lotId}"]`,
    )
    await notice.waitFor({ timeout: 20_000 })
    const text = (await notice.innerText()).replace(/\s+/g, '')
    expect(text).toContain('您的出价已被超越：光绪元宝广东省造七钱二分当前价¥1,100.00')
    await notice.locator('[data-testid=reminder-link]').click()
    await page.waitForURL((url) => url.pathname === '/productDetail')
    await page.locator(`[data-testid=item-detail][data-lot-id="${lotId}"]`).waitFor()
    expect(await page.locator('[data-testid=reminders]').count()).toBe(0)
    await context.close()
  })
})
