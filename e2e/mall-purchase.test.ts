import type { MallItemDetail } from '@numisma/contracts/catalog'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createCoupon,
  createMallItem,
  dataOf,
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

/** The item's stock as the server has it now. */
const stockOf = async (productNo: string): Promise<number> =>
  (await dataOf<MallItemDetail>(mainCall(`/mallproduct/getMallByProductNo/${productNo}`))).stock

const fenOf = async (page: Page, testId: string): Promise<number> =>
  Number(await page.locator(`[data-testid=${testId}]`).getAttribute('data-fen'))

/** A price's text without the line breaks its spans put between ¥, yuan and cents. */
const flatText = async (locator: Locator): Promise<string> =>
  (await locator.innerText()).replace(/\s+/g, '')

/** A ticket on /myCoupon once its tab has loaded. */
const ticket = (page: Page, userCouponId: number) =>
  page.locator(`[data-testid=coupon-list] [data-testid=user-coupon-${userCouponId}]`)

describe('mall purchase', () => {
  it('a collector receives a coupon, buys with it, sees it locked, cancels and gets coupon and stock back', async () => {
    const staff = await staffSession()
    const { productNo } = await createMallItem(staff, { price: 12_000, stock: 3 })
    const { id: couponId } = await createCoupon(staff, {
      threshold: 10_000,
      amount: 1_000,
      productNos: [productNo],
    })
    const { context, page } = await signedInContext(browser)
    const toasts = await recordToasts(page)

    // The item page: receive the coupon from the 领券 popup.
    await page.goto(`/productDetail?productNo=${productNo}`)
    await page.locator('[data-testid=coupons-entry]').click()
    const receive = page.locator(`[data-testid=receive-coupon-${couponId}]`)
    await receive.click()
    await page.locator(`[data-testid=receive-coupon-${couponId}][data-state=received]`).waitFor()
    await page.locator('.adm-popup-close-icon').click()

    // The buy bar pre-selects it: ¥120 − ¥10.
    const row = page.locator('[data-testid=coupon-row]:not([data-user-coupon-id=""])')
    await row.waitFor()
    const userCouponId = Number(await row.getAttribute('data-user-coupon-id'))
    expect(userCouponId).toBeGreaterThan(0)
    await page.locator('[data-testid=buy-total][data-fen="11000"]').waitFor()

    // Confirm and place the order; it lands in pending payment.
    await page.locator('[data-testid=buy-button]').click()
    await page.waitForURL(/\/order\/confirm\?/)
    await page.locator('[data-testid=confirm-total][data-fen="11000"]').waitFor()
    await page.locator('[data-testid=confirm-submit]:not([disabled])').click()
    await page.waitForURL(/\/order\/list\?tab=pay$/)
    const card = page.locator('[data-testid=order-card][data-status=pending_payment]')
    await card.waitFor()
    expect(await card.count()).toBe(1)
    expect(await flatText(card.locator('[data-testid=order-discount]'))).toBe('−¥10.00')
    expect(await flatText(card.locator('[data-testid=order-total]'))).toBe('¥110.00')
    // 30 minutes to pay, counted down from server time.
    await expect
      .poll(() => card.locator('[data-testid=order-pay-left]').innerText())
      .toMatch(/剩余付款时间\s*00:(?:29:\d\d|30:00)/)
    expect(await page.locator('[data-testid=order-pay-count]').innerText()).toBe('1')
    expect(await stockOf(productNo)).toBe(2)
    await screenshot(page, 'mall-purchase-pending-order')

    // /myCoupon: the coupon is held by the unpaid order, under 已使用, and not usable.
    await page.goto('/myCoupon?tab=used')
    const locked = ticket(page, userCouponId)
    await locked.waitFor()
    expect(await locked.getAttribute('data-status')).toBe('locked')
    expect(await locked.innerText()).toContain('待付款占用')
    expect(await locked.locator('[data-testid=coupon-summary]').innerText()).toBe('满100减10')
    await screenshot(page, 'mall-purchase-coupon-locked')
    await page.locator('[data-testid=coupon-tab-usable]').click()
    await page.waitForURL(/\/myCoupon\?tab=usable$/)
    await page
      .locator('[data-testid=coupon-list][data-tab=usable], .adm-error-block')
      .first()
      .waitFor()
    expect(await ticket(page, userCouponId).count()).toBe(0)

    // Back to the order through the locked coupon's link, and cancel it.
    await page.locator('[data-testid=coupon-tab-used]').click()
    await ticket(page, userCouponId).locator('[data-testid=coupon-locked]').click()
    await page.waitForURL(/\/order\/list\?tab=pay$/)
    await card.locator('[data-testid=order-cancel]').click()
    const dialog = page.locator('.adm-dialog-body')
    await dialog.waitFor()
    expect(await dialog.innerText()).toContain('优惠券将退回')
    await dialog.getByRole('button', { name: '取消订单' }).click()
    await page.getByText('暂无待付款的订单').waitFor()
    // The toast follows the refreshed list (the hook awaits its refetch first): poll for it.
    await expect.poll(toasts).toContain('订单已取消')
    await page.locator('[data-testid=order-tab-all]').click()
    await page.locator('[data-testid=order-card][data-status=cancelled]').waitFor()
    expect(await page.locator('[data-testid=order-pay-count]').count()).toBe(0)
    await screenshot(page, 'mall-purchase-order-cancelled')

    // The coupon is usable again, and the stock is back on the item page.
    await page.goto('/myCoupon?tab=usable')
    const usable = ticket(page, userCouponId)
    await usable.waitFor()
    expect(await usable.getAttribute('data-status')).toBe('usable')
    await screenshot(page, 'mall-purchase-coupon-usable-again')
    expect(await stockOf(productNo)).toBe(3)
    await page.goto(`/productDetail?productNo=${productNo}`)
    await page.getByText('库存 3 件').first().waitFor()
    await page.locator('[data-testid=buy-total][data-fen="11000"]').waitFor()
    expect(await fenOf(page, 'buy-total')).toBe(11_000)

    await context.close()
  })
})
