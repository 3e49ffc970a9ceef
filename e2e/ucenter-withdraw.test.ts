import type { UserStatistics } from '@numisma/contracts/user'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createUser,
  dataOf,
  launchBrowser,
  mainCall,
  recordToasts,
  screenshot,
  signedInContext,
  staffSession,
  type TestUser,
} from './fixtures'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser.close())

const statisticsOf = (user: TestUser) =>
  dataOf<UserStatistics>(mainCall('/user/@statistics', { as: user }))

const fenOf = async (page: Page, testId: string): Promise<number> =>
  Number(await page.locator(`[data-testid=${testId}] [data-fen]`).first().getAttribute('data-fen'))

/** Taps digits on antd-mobile's number keyboard (the payment password sheet, setPayPwd). */
async function typeDigits(page: Page, digits: string): Promise<void> {
  for (const digit of digits) {
    await page.locator(`.adm-number-keyboard-key[title="${digit}"]:visible`).click()
  }
}

/** Old "coming soon" texts: no entry of the user centre may lead to one. */
const COMING_SOON = /即将上线|即将开放/

describe('the user centre and withdrawals', () => {
  it('shows the money, every entry leads to a working page, and a withdrawal is held, refused and given back', async () => {
    const staff = await staffSession()
    const user = await createUser()
    await staff.post(`/users/${user.userId}/balance`, { amount: 35_000 })
    const before = await statisticsOf(user)
    const { context, page } = await signedInContext(browser, user)
    const toasts = await recordToasts(page)

    // The card: balance, deposit, and the quota with what bids hold of it.
    await page.goto('/ucenter')
    await page.locator('[data-testid=ucenter-balance] [data-fen="35000"]').waitFor()
    expect(await fenOf(page, 'ucenter-deposit')).toBe(before.deposit)
    expect(
      Number(await page.locator('[data-testid=ucenter-quota-total]').getAttribute('data-fen')),
    ).toBe(before.quota)
    expect(
      Number(await page.locator('[data-testid=ucenter-exposure]').getAttribute('data-fen')),
    ).toBe(before.exposure)
    expect(await page.locator('[data-testid=menu-setPayPwd-extra]').innerText()).toBe('未设置')
    await screenshot(page, 'ucenter-money')

    // Each entry opens its page, none a coming-soon one.
    const entries = [
      ['wallet-recharge', '/account/quotaRecharge'],
      ['wallet-withdraw', '/account/withdraw'],
      ['wallet-remit', '/account/bankAddress'],
      ['menu-setPayPwd', '/account/setPayPwd'],
      ['menu-myCoupon', '/myCoupon'],
    ] as const
    for (const [testId, path] of entries) {
      await page.goto('/ucenter')
      await page.locator(`[data-testid=${testId}]`).click()
      await page.waitForURL((url) => url.pathname === path)
      await page.locator('[data-testid=page-body]').last().waitFor()
      await page.waitForLoadState('networkidle')
      expect(await page.locator('#root').innerText(), path).not.toMatch(COMING_SOON)
    }
    await page.goto('/ucenter')
    await page.getByText('待付款', { exact: true }).click()
    await page.waitForURL(/\/myOrder\?tab=pay$/)

    // Withdraw ¥100 of the ¥350 balance to a bank card.
    const fillForm = async (amount: string) => {
      await page.locator('[data-testid=withdraw-amount] input').fill(amount)
      await page.locator('[data-testid=withdraw-bank-name] input').fill('招商银行')
      await page.locator('[data-testid=withdraw-account-name] input').fill('张三')
      await page.locator('[data-testid=withdraw-account-no] input').fill('6225 8800 1234 5678')
      await page.locator('[data-testid=withdraw-submit]').click()
    }
    const dialog = page.locator('.adm-dialog-body')
    await page.goto('/account/withdraw')
    await page.getByText('可提 ¥350.00').waitFor()
    await fillForm('400')
    // More than the balance is refused on the form, before any call.
    await page.getByText('超出可提金额 ¥350.00').waitFor()
    await page.locator('[data-testid=withdraw-amount] input').fill('100')
    await page.locator('[data-testid=withdraw-submit]').click()
    await dialog.waitFor()
    expect(await dialog.innerText()).toContain('从账户余额提现 ¥100.00 到 招商银行（尾号 5678）')
    await dialog.getByRole('button', { name: '申请提现' }).click()

    // No payment password yet: off to set one, and back to the form.
    await dialog.getByText('提现需验证支付密码').waitFor()
    await dialog.getByRole('button', { name: '去设置' }).click()
    await page.waitForURL((url) => url.pathname === '/account/setPayPwd')
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/account/withdraw')
    await page.locator('[data-testid=set-pay-pwd-cells]').waitFor()
    await typeDigits(page, '258036')
    await page.locator('[data-step=confirm]').waitFor()
    await typeDigits(page, '258036')
    await page.waitForURL((url) => url.pathname === '/account/withdraw')
    await page.getByText('可提 ¥350.00').waitFor()
    await fillForm('100')
    await dialog.getByRole('button', { name: '申请提现' }).click()

    // The password sheet: a wrong one is refused in it, with the tries left, and nothing is held.
    await page.locator('[data-testid=pay-password-input]').waitFor()
    expect(await page.locator('[data-testid=pay-password]').innerText()).toContain('提现金额')
    await screenshot(page, 'withdraw-password')
    await typeDigits(page, '111111')
    const wrong = page.locator('[data-testid=pay-password-error][role=alert]')
    await wrong.waitFor()
    expect(await wrong.innerText()).toBe('支付密码错误，还可尝试 4 次')
    await screenshot(page, 'withdraw-password-wrong')
    expect((await statisticsOf(user)).balance).toBe(35_000)
    await typeDigits(page, '258036')
    await expect.poll(toasts).toContain('提现申请已提交')
    await page.locator('[data-testid=pay-password]').waitFor({ state: 'detached' })
    const request = page.locator('[data-testid=withdrawal]').first()
    await request.waitFor()
    expect(await request.getAttribute('data-status')).toBe('requested')
    expect(await request.innerText()).toContain('5678')
    await page.getByText('可提 ¥250.00').waitFor()
    await screenshot(page, 'withdraw-requested')
    expect((await statisticsOf(user)).balance).toBe(25_000)

    // Staff refuse it: the money comes back and the request says why.
    const list = await dataOf<{ id: number }[]>(mainCall('/user/finance/withdrawals', { as: user }))
    const id = list[0]!.id
    await staff.post(`/withdrawals/${id}/refuse`, { note: '户名与账户不符' })
    await page.reload()
    const refused = page.locator('[data-testid=withdrawal][data-status=refused]')
    await refused.waitFor()
    expect(await refused.innerText()).toContain('退回原因：户名与账户不符')
    await page.getByText('可提 ¥350.00').waitFor()
    await screenshot(page, 'withdraw-refused')
    expect((await statisticsOf(user)).balance).toBe(35_000)

    await context.close()
  })
})
