import type { Order } from '@numisma/contracts/orders'
import type { UserStatistics } from '@numisma/contracts/user'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  bidAs,
  buildSpecial,
  createSpecialWithLots,
  createUser,
  creditBalance,
  creditDeposit,
  dataOf,
  launchBrowser,
  mainCall,
  recordToasts,
  screenshot,
  signedInContext,
  staffSession,
} from './fixtures'
import { waitClosed, wonOrder } from './closing'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser.close())

/** Taps digits on antd-mobile's number keyboard (the one that is up). */
async function typeDigits(page: Page, digits: string): Promise<void> {
  for (const digit of digits) {
    await page.locator(`.adm-number-keyboard-key[title="${digit}"]:visible`).click()
  }
}

const fenOf = async (page: Page, testId: string): Promise<number> =>
  Number(await page.locator(`[data-testid=${testId}]`).first().getAttribute('data-fen'))

describe('paying a won lot from the balance', () => {
  it('sets a payment password on the way, refuses a wrong one, pays once and files the order under 待发货', async () => {
    const staff = await staffSession()
    const winner = await createUser()
    await creditDeposit(staff, winner, 100_000)
    // Closes in a few seconds without soft close, so the bid cannot push the end out.
    const { lots } = await createSpecialWithLots(
      staff,
      buildSpecial({ endsInMs: 8_000, softCloseWindowSeconds: 0, staggerSeconds: 1 }),
      [{ title: '光绪元宝 库平七钱二分 北洋造 PCGS AU55', startPrice: 62_000 }],
    )
    const lotId = lots[0]!.id
    await bidAs(winner, { lotId, amount: 62_000 })
    expect(await waitClosed(lotId, winner)).toMatchObject({ status: 'sold', won: true })

    // The won lot waits for payment: the hammer price and the buyer's fee (the order is made as
    // the lot closes, a moment after its status turns).
    const order = await wonOrder(winner, lotId)
    expect(order).toMatchObject({ kind: 'auction', goods: 62_000, status: 'pending_payment' })
    expect(order.fee).toBeGreaterThan(0)
    // Exactly what the order costs, at the counter: the balance covers it and ends at nothing.
    const before = await dataOf<UserStatistics>(mainCall('/user/@statistics', { as: winner }))
    await creditBalance(staff, winner, order.total)

    const { context, page } = await signedInContext(browser, winner)
    const toasts = await recordToasts(page)

    // From 待付款 to the payment screen, the order ticked and the balance chosen.
    await page.goto('/order/list?tab=pay')
    const card = page.locator(`[data-testid=order-card][data-order-id="${order.id}"]`)
    await card.locator('[data-testid=order-pay]').click()
    await page.waitForURL((url) => url.pathname === '/account/pay')
    expect(new URL(page.url()).searchParams.get('orderIds')).toBe(String(order.id))
    const row = page.locator(`[data-testid=pay-order][data-order-id="${order.id}"]`)
    await expect.poll(() => row.locator('.adm-checkbox-checked').count()).toBe(1)
    await page.locator(`[data-testid=pay-total][data-fen="${order.total}"]`).waitFor()
    expect(await fenOf(page, 'pay-goods')).toBe(62_000)
    expect(await fenOf(page, 'pay-fee')).toBe(order.fee)
    const balanceRow = page.locator('[data-testid=pay-method-balance]')
    expect(await balanceRow.locator('.adm-radio-checked').count()).toBe(1)
    await screenshot(page, 'pay-balance-screen')

    // No payment password yet: off to set one, and back here.
    await page.locator('[data-testid=pay-submit]').click()
    const dialog = page.locator('.adm-dialog-body')
    await dialog.getByText('您尚未设置支付密码').waitFor()
    await dialog.getByRole('button', { name: '去设置' }).click()
    await page.waitForURL((url) => url.pathname === '/account/setPayPwd')
    expect(new URL(page.url()).searchParams.get('redirect')).toBe(
      `/account/pay?orderIds=${order.id}`,
    )
    await page.locator('[data-testid=set-pay-pwd-cells]').waitFor()
    await typeDigits(page, '258036')
    await page.locator('[data-step=confirm]').waitFor()
    await typeDigits(page, '258036')
    await page.waitForURL((url) => url.pathname === '/account/pay')
    expect(new URL(page.url()).searchParams.get('orderIds')).toBe(String(order.id))

    // A wrong password is refused in the keypad, with the tries left; nothing is paid.
    await page.locator(`[data-testid=pay-total][data-fen="${order.total}"]`).waitFor()
    await page.locator('[data-testid=pay-submit]').click()
    await page.locator('[data-testid=pay-password-input]').waitFor()
    await screenshot(page, 'pay-balance-password')
    await typeDigits(page, '111111')
    const error = page.locator('[data-testid=pay-password-error][role=alert]')
    await error.waitFor()
    expect(await error.innerText()).toBe('支付密码错误，还可尝试 4 次')
    await screenshot(page, 'pay-balance-password-wrong')
    const unpaid = await dataOf<Order[]>(mainCall('/user/3_3/order/query', { as: winner }))
    expect(unpaid.map((o) => o.id)).toContain(order.id)

    // The right one pays, once, and the success page says so from the server's payment.
    await typeDigits(page, '258036')
    await page.waitForURL((url) => url.pathname === '/account/paySuc')
    const paymentId = Number(new URL(page.url()).searchParams.get('paymentId'))
    expect(paymentId).toBeGreaterThan(0)
    const result = page.locator('[data-testid=pay-suc]')
    await expect.poll(() => result.getAttribute('data-status')).toBe('paid')
    expect(await fenOf(page, 'pay-suc-amount')).toBe(order.total)
    expect(await result.innerText()).toContain('支付成功')
    await screenshot(page, 'pay-balance-success')

    const after = await dataOf<UserStatistics>(mainCall('/user/@statistics', { as: winner }))
    expect(after.balance).toBe(before.balance)
    expect(after.counts.pendingPayment).toBe(0)
    const payment = await dataOf<{ status: string; amount: number; orderIds: number[] }>(
      mainCall(`/user/payments/${paymentId}`, { as: winner }),
    )
    expect(payment).toMatchObject({ status: 'paid', amount: order.total, orderIds: [order.id] })

    // On to the order list: the order now waits to ship.
    await page.locator('[data-testid=pay-suc-orders]').click()
    await page.waitForURL((url) => url.pathname === '/order/list')
    expect(new URL(page.url()).searchParams.get('tab')).toBe('ship')
    const shipped = page.locator(
      `[data-testid=order-list][data-tab=ship] [data-testid=order-card][data-order-id="${order.id}"]`,
    )
    await shipped.waitFor()
    expect(await shipped.getAttribute('data-status')).toBe('paid')
    expect(await shipped.locator('[data-testid=order-status]').innerText()).toBe('待发货')
    await screenshot(page, 'pay-balance-order-to-ship')
    // Nothing said the payment failed, nor asked the amounts of the orders just paid.
    const said = await toasts()
    expect(said).not.toContain('余额支付失败')
    expect(said.filter((text) => text.startsWith('订单无法支付'))).toEqual([])

    await context.close()
  })
})
