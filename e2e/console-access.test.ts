import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { consoleContext } from './console'
import { launchBrowser, screenshot } from './fixtures'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser.close())

const menuTexts = async (page: Page) =>
  (await page.locator('.ant-pro-sider .ant-menu-title-content').allInnerTexts()).map((t) =>
    t.trim(),
  )

describe('the console by role', () => {
  it('opens a support member straight on the chat desk, with only what support may use', async () => {
    const { context, page, username } = await consoleContext(browser, ['support'])
    await page.goto('/admin')
    await page.waitForURL(/\/admin\/support\/chat$/)
    await expect
      .poll(() => page.locator('[data-testid=staff-username]').innerText())
      .toContain(username)
    // Support works the chat; every staff member may also watch the sales.
    await expect.poll(() => menuTexts(page)).toContain('客服工作台')
    const menu = await menuTexts(page)
    expect(menu).toContain('销售')
    for (const closed of ['拍卖目录', '商城与设置', '财务', '履约', '系统'])
      expect(menu).not.toContain(closed)
    await screenshot(page, 'console-support-landing')
    await context.close()
  })

  it('opens a cashier on 汇款确认, and tells a shipping member a money page is not theirs', async () => {
    const cashier = await consoleContext(browser, ['cashier'])
    await cashier.page.goto('/admin')
    await cashier.page.waitForURL(/\/admin\/money\/remittances$/)
    await cashier.context.close()

    const shipping = await consoleContext(browser, ['shipping'])
    await shipping.page.goto('/admin/money/ledger')
    const forbidden = shipping.page.locator('[data-testid=console-forbidden]')
    await expect.poll(() => forbidden.innerText()).toContain('无权访问此页面')
    expect(await forbidden.innerText()).toContain('出纳')
    await screenshot(shipping.page, 'console-forbidden')
    await shipping.context.close()
  })
})
