import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { consoleContext, pressOk } from './console'
import { baseUrl, launchBrowser, screenshot } from './fixtures'
import { staffLogin } from './global-setup'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser.close())

describe('the system pages', () => {
  it('lets an admin open a shipping account through the form, and logs it with its roles', async () => {
    const { context, page } = await consoleContext(browser)
    const username = `ship.${process.pid}`
    await page.goto('/admin/system/staff')
    await page.getByRole('button', { name: '新建员工' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('用户名').fill(username)
    await dialog.getByLabel('密码').fill('shipping-password-1')
    await dialog.getByLabel('发货').check()
    await screenshot(page, 'console-system-new-member')
    await pressOk(page)
    const row = page.locator('tr', { hasText: username })
    await expect.poll(() => row.innerText()).toContain('发货')
    await screenshot(page, 'console-system-staff')

    // The new account signs in and holds only the shipping role.
    const cookie = await staffLogin(baseUrl(), 'shipping-password-1', username)
    const session = await fetch(`${baseUrl()}/svc/main/admin/session`, { headers: { cookie } })
    expect((await session.json()) as unknown).toMatchObject({
      data: { username, roles: ['shipping'] },
    })

    await page.goto('/admin/system/audit')
    const line = page.locator('[data-testid=audit-table] tr', { hasText: '新建员工' }).first()
    await expect.poll(() => line.innerText()).toContain('admin')
    await line.getByRole('button').first().click()
    await expect
      .poll(() => page.locator('[data-testid=audit-table]').innerText())
      .toContain('[redacted]')
    expect(await page.locator('[data-testid=audit-table]').innerText()).not.toContain(
      'shipping-password-1',
    )
    await screenshot(page, 'console-system-audit')
    await context.close()
  })
})
