import type { Banner, Category } from '@numisma/contracts/catalog'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dataOf, launchBrowser, mainCall, signedInContext } from './fixtures'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser.close())

const HAN = /\p{Script=Han}/u

/**
 * Waits until every home category shows under its name in `names`, and none under `not`. By role
 * and accessible name, so the journey does not depend on class names.
 */
async function expectHomeCategories(page: Page, names: string[], not: string[]): Promise<void> {
  const grid = page.getByRole('navigation', { name: /^(分类|Categories)$/ })
  for (const name of names) await grid.getByRole('link', { name, exact: true }).waitFor()
  for (const name of not)
    expect(await grid.getByRole('link', { name, exact: true }).count()).toBe(0)
}

describe('language', () => {
  it('switches to English in the user centre, everywhere at once, and keeps it after a reload', async () => {
    const categories = await dataOf<Category[]>(mainCall('/meta/@category'))
    const banners = await dataOf<Banner[]>(mainCall('/mall/advertis/0'))
    const english = categories.map((c) => c.nameEn)
    const chinese = categories.map((c) => c.name)
    expect(english.some((name) => HAN.test(name))).toBe(false)
    const { context, page } = await signedInContext(browser)

    await page.goto('/ucenter')
    const cell = page.getByTestId('language-cell')
    await expect.poll(() => cell.textContent()).toContain('简体中文')
    expect(await page.locator('.adm-tab-bar').textContent()).toContain('我的')

    await cell.click()
    await page.locator('.adm-action-sheet-button-item', { hasText: 'English' }).click()

    // The same page re-renders in English: the row, the menu, the tab bar and the title.
    await expect.poll(() => cell.textContent()).toContain('English')
    expect(await cell.textContent()).toContain('Language / 语言')
    expect(await page.locator('.adm-tab-bar').textContent()).toContain('Me')
    await expect.poll(() => page.title()).toBe('My account')

    await page.locator('.adm-tab-bar-item', { hasText: /^Home$/ }).click()
    await page.waitForURL((url) => url.pathname === '/')
    await expectHomeCategories(page, english, chinese)
    // A slide is named by its visible text: the English title, then its call to action.
    await page
      .getByRole('button', { name: `${banners[0]!.titleEn} View`, exact: false })
      .first()
      .waitFor()

    await page.reload()
    await expectHomeCategories(page, english, chinese)
    expect(await page.locator('html').getAttribute('lang')).toBe('en')
    expect(await page.locator('.adm-tab-bar').textContent()).toContain('Categories')

    // The server learns the choice from the cookie too: its error messages come in English.
    const message = await page.evaluate<string>(
      `fetch('/svc/main/special/999999').then((r) => r.json()).then((b) => b.message)`,
    )
    expect(message).not.toMatch(HAN)
    expect(message.length).toBeGreaterThan(0)

    // And back: Chinese names again, without a reload.
    await page.locator('.adm-tab-bar-item', { hasText: /^Me$/ }).click()
    await page.getByTestId('language-cell').click()
    await page.locator('.adm-action-sheet-button-item', { hasText: '简体中文' }).click()
    await page.locator('.adm-tab-bar-item', { hasText: '首页' }).click()
    await expectHomeCategories(page, chinese, english)
    await context.close()
  })
})
