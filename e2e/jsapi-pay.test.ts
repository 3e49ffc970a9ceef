import { HEADER, randomUuid } from '@numisma/contracts/signing'
import type { Order } from '@numisma/contracts/orders'
import type { UserStatistics } from '@numisma/contracts/user'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createMallItem,
  createUser,
  dataOf,
  launchBrowser,
  mainCall,
  recordToasts,
  screenshot,
  signInAs,
  staffSession,
  type TestUser,
} from './fixtures'
import { messagingAppContext } from './tools/messaging-app'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser.close())

const fenOf = async (page: Page, testId: string): Promise<number> =>
  Number(await page.locator(`[data-testid=${testId}]`).first().getAttribute('data-fen'))

const pendingOf = (as: TestUser) => dataOf<Order[]>(mainCall('/user/3_3/order/query', { as }))

/** The platform's pay sheet the simulated bridge shows over the page: the payer confirms. */
async function confirmOnSheet(page: Page, name: string): Promise<void> {
  const confirm = page.getByRole('button', { name: '确认支付' })
  await confirm.waitFor()
  await screenshot(page, name)
  await confirm.click()
}

describe('JSAPI pay inside the messaging app', () => {
  it('pays a mall order and recharges the deposit through the platform sheet, paid once the signed notice lands', async () => {
    const staff = await staffSession()
    const buyer = await createUser()
    const { productNo } = await createMallItem(staff, { price: 12_000, stock: 3 })
    const placed = await dataOf<{ status: string; orderId: number }>(
      mainCall('/mallorder/createOrder', {
        as: buyer,
        body: { productNo, quantity: 1 },
        headers: { [HEADER.idempotencyKey]: randomUuid() },
      }),
    )
    expect(placed.status).toBe('SUCCESS')

    const context = await messagingAppContext(browser)
    await signInAs(context, buyer)
    const page = await context.newPage()
    const toasts = await recordToasts(page)

    // 微信支付 on the payment screen opens the platform's sheet, not the sandbox cashier page.
    await page.goto(`/account/pay?orderIds=${placed.orderId}`)
    const wechat = page.locator('[data-testid=pay-method-wechat]')
    await wechat.click()
    await expect.poll(() => wechat.locator('.adm-radio-checked').count()).toBe(1)
    await screenshot(page, 'jsapi-pay-method')
    // Closing the sheet pays nothing: the page stays, says so, and the order still waits.
    await page.locator('[data-testid=pay-submit]').click()
    await page.getByRole('button', { name: '取消', exact: true }).click()
    await expect.poll(toasts).toContain('已取消支付')
    expect(new URL(page.url()).pathname).toBe('/account/pay')
    expect((await pendingOf(buyer)).map((o) => o.id)).toContain(placed.orderId)

    await page.locator('[data-testid=pay-submit]').click()
    // The sheet shows the platform's trade: the order's amount as our server placed it.
    expect(await page.locator('[data-testid=wx-pay-amount]').innerText()).toBe('¥120.00')
    await confirmOnSheet(page, 'jsapi-pay-sheet')
    expect(new URL(page.url()).pathname).not.toMatch(/sandbox/)

    // The success page believes the server, which believes the platform's signed notice.
    await page.waitForURL((url) => url.pathname === '/account/paySuc')
    const result = page.locator('[data-testid=pay-suc]')
    await expect.poll(() => result.getAttribute('data-status')).toBe('paid')
    await screenshot(page, 'jsapi-pay-paid')
    expect((await pendingOf(buyer)).map((o) => o.id)).not.toContain(placed.orderId)

    // A recharge the same way: the deposit grows by the amount once the notice lands.
    const before = await dataOf<UserStatistics>(mainCall('/user/@statistics', { as: buyer }))
    await page.goto('/account/quotaRecharge')
    await page.locator('[data-testid=recharge-deposit]').waitFor()
    const amount = await fenOf(page, 'recharge-amount')
    expect(amount).toBeGreaterThan(0)
    await page.locator('[data-testid=recharge-submit]').click()
    await confirmOnSheet(page, 'jsapi-recharge-sheet')
    const recharged = page.locator('[data-testid=recharge-result]')
    await expect.poll(() => recharged.getAttribute('data-status')).toBe('paid')
    await expect.poll(async () => fenOf(page, 'recharge-deposit')).toBe(before.deposit + amount)
    await screenshot(page, 'jsapi-recharge-paid')
    const after = await dataOf<UserStatistics>(mainCall('/user/@statistics', { as: buyer }))
    expect(after.deposit).toBe(before.deposit + amount)
    expect(await toasts()).not.toContain('支付失败')
    await context.close()
  })
})
