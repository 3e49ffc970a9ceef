import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freshMobile, launchBrowser, phoneContext, recordToasts, screenshot } from './fixtures'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser.close())

describe('the sign-in page (issue 11)', () => {
  it('says the agreement is needed under its checkbox, clear of the submit button', async () => {
    const context = await phoneContext(browser)
    const page = await context.newPage()
    const toasts = await recordToasts(page)
    await page.goto(`/passport?redirect=${encodeURIComponent('/ucenter')}`)
    await page.locator('[data-testid=passport] input[type=tel]').fill(freshMobile())
    await page.locator('[data-testid=passport] input[autocomplete=one-time-code]').fill('123456')
    const submit = page.locator('[data-testid=passport] button[type=submit]')
    await submit.click()

    const hint = page.locator('[data-testid=passport-agreement-hint]')
    await expect(hint.textContent()).resolves.toBe('请先阅读并同意用户协议')
    const [hintBox, checkboxBox, submitBox] = await Promise.all([
      hint.boundingBox(),
      page.locator('[data-testid=passport-agreement]').boundingBox(),
      submit.boundingBox(),
    ])
    // Between the checkbox and the button, overlapping neither.
    expect(hintBox && checkboxBox && submitBox).toBeTruthy()
    if (!hintBox || !checkboxBox || !submitBox) return
    expect(hintBox.y).toBeGreaterThanOrEqual(checkboxBox.y + checkboxBox.height - 1)
    expect(hintBox.y + hintBox.height).toBeLessThanOrEqual(submitBox.y)
    expect(await toasts()).not.toContain('请先阅读并同意用户协议')
    await screenshot(page, 'passport-agreement-hint')

    await page.locator('[data-testid=passport-agreement] .adm-checkbox').click()
    await expect(hint.count()).resolves.toBe(0)
    await context.close()
  })

  it('goes back to a public wanted page, or home when the wanted page needs a user', async () => {
    const context = await phoneContext(browser)
    const page = await context.newPage()
    await page.goto(`/passport?redirect=${encodeURIComponent('/rules?from=bid')}`)
    await page.locator('[data-testid=passport-back]').click()
    await page.waitForURL((url) => url.pathname === '/rules')
    expect(new URL(page.url()).search).toBe('?from=bid')

    await page.goto(`/passport?redirect=${encodeURIComponent('/myOrder?tab=pay')}`)
    await screenshot(page, 'passport-back')
    await page.getByRole('button', { name: '返回' }).click()
    await page.waitForURL((url) => url.pathname === '/')
    await page.locator('[data-testid=home-search]').waitFor()
    await context.close()
  })
})
