import type { Booking, DeliveryInfo, Shipment, ShipmentsPage } from '@numisma/contracts/delivery'
import type { Order } from '@numisma/contracts/orders'
import { HEADER, randomUuid } from '@numisma/contracts/signing'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  baseUrl,
  bidAs,
  buildSpecial,
  createMallItem,
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
  type Staff,
  type TestUser,
} from './fixtures'
import { pendingOf, waitClosed, wonOrder } from './closing'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser.close())

const PASSWORD = '258036'

/** A mall order placed over the API, unpaid. */
async function mallOrder(staff: Staff, as: TestUser): Promise<number> {
  const { productNo } = await createMallItem(staff, { price: 12_000, stock: 3 })
  const placed = await dataOf<{ status: string; orderId: number }>(
    mainCall('/mallorder/createOrder', {
      as,
      body: { productNo, quantity: 1 },
      headers: { [HEADER.idempotencyKey]: randomUuid() },
    }),
  )
  expect(placed.status).toBe('SUCCESS')
  return placed.orderId
}

/** A payment password, and the orders paid from the balance (the journey of pay-balance.test). */
async function payWithBalance(as: TestUser, orderIds: number[]): Promise<void> {
  await dataOf(mainCall('/user/@setPayPass', { as, body: { password: PASSWORD } }))
  await dataOf(
    mainCall('/user/3_3/pay/doPay', {
      as,
      body: { orderIds, method: 'balance', payPassword: PASSWORD },
      headers: { [HEADER.idempotencyKey]: randomUuid() },
    }),
  )
}

/** Taps digits on antd-mobile's number keyboard (the one that is up). */
async function typeDigits(page: Page, digits: string): Promise<void> {
  for (const digit of digits) {
    await page.locator(`.adm-number-keyboard-key[title="${digit}"]:visible`).click()
  }
}

/** Taps an entry of the open picker's column (wheel items off screen take a dispatched click). */
async function pick(page: Page, column: number, label: string): Promise<void> {
  const item = page
    .locator('.adm-picker-view-column')
    .nth(column)
    .locator('.adm-picker-view-column-item')
    .filter({ has: page.getByText(label, { exact: true }) })
  await item.waitFor({ state: 'attached' })
  await item.dispatchEvent('click')
  await page.locator('.adm-picker-view-column-item-active', { hasText: label }).waitFor({
    state: 'attached',
  })
}

const fenOf = async (page: Page, testId: string): Promise<number> =>
  Number(await page.locator(`[data-testid=${testId}]`).first().getAttribute('data-fen'))

describe('delivery of paid goods', () => {
  it('a won lot and a mall order, paid together, go by express to a new address; staff ship; the buyer confirms receipt', async () => {
    const staff = await staffSession()
    const buyer = await createUser()
    await creditDeposit(staff, buyer, 100_000)
    // The lot may not leave the mainland.
    const banned = {
      title: '袁世凯像 民国三年 壹圆 NGC AU58',
      startPrice: 50_000,
      exportBanned: true,
    }
    const { lots } = await createSpecialWithLots(
      staff,
      buildSpecial({ endsInMs: 8_000, softCloseWindowSeconds: 0, staggerSeconds: 1 }),
      [banned],
    )
    const lotId = lots[0]!.id
    await bidAs(buyer, { lotId, amount: 50_000 })
    const mallOrderId = await mallOrder(staff, buyer)
    expect(await waitClosed(lotId, buyer)).toMatchObject({ status: 'sold', won: true })
    const won = await wonOrder(buyer, lotId)
    const unpaid = await pendingOf(buyer)
    const total = unpaid
      .filter((o) => o.id === won.id || o.id === mallOrderId)
      .reduce((s, o) => s + o.total, 0)
    // The goods and then some for the delivery fees.
    await creditBalance(staff, buyer, total + 20_000)
    await payWithBalance(buyer, [won.id, mallOrderId])

    // An address abroad, the first and so the default.
    const abroad = await dataOf<{ id: number }>(
      mainCall('/user/address', {
        as: buyer,
        body: {
          name: 'John Smith',
          mobile: '+12025550123',
          countryId: 'US',
          detail: '1600 Pennsylvania Avenue NW, Washington',
        },
      }),
    )

    const { page } = await signedInContext(browser, buyer)
    const toasts = await recordToasts(page)

    // 待发货 offers 申请发货 for the orders in storage.
    await page.goto('/order/list?tab=ship')
    await page.locator(`[data-testid=order-card][data-order-id="${won.id}"]`).waitFor()
    await page.locator(`[data-testid=order-card][data-order-id="${mallOrderId}"]`).waitFor()
    // From the waiting-to-ship reads: storage is free for now, until the 30th day after payment.
    const storage = page.locator(
      `[data-testid=order-card][data-order-id="${won.id}"] [data-testid=order-storage]`,
    )
    expect(await storage.innerText()).toMatch(/^免费保管至 \d{4}-\d{2}-\d{2}$/)
    await screenshot(page, 'delivery-orders-ship')
    await page.locator('[data-testid=order-apply-all]').click()
    await page.waitForURL((url) => url.pathname === '/order/applySend')

    // Both orders in storage, both ticked, free storage so far; express to the default address —
    // abroad, where the lot may not go: the exit ban names its order and the button stays off.
    const rows = page.locator('[data-testid=pick-order]')
    await expect.poll(() => rows.count()).toBe(2)
    await expect.poll(() => page.locator('.adm-checkbox-checked').count()).toBe(2)
    expect(await rows.first().innerText()).toContain('免费保管至')
    await page.locator(`[data-testid=apply-address][data-address-id="${abroad.id}"]`).waitFor()
    const exitBan = page.locator('[data-testid=apply-exit-banned]')
    await exitBan.waitFor()
    expect(await exitBan.innerText()).toContain(`订单 ${won.id} 含禁止出境的藏品`)
    await page.locator('[data-testid=fee-storage][data-fen="0"]').waitFor()
    expect(await page.locator('[data-testid=apply-submit]').isDisabled()).toBe(true)
    await screenshot(page, 'delivery-apply-send-exit-banned')

    // A new address through the address list in select mode, and back with it chosen.
    await page.locator('[data-testid=apply-address]').click()
    await page.waitForURL((url) => url.pathname === '/address/list')
    await page.locator('[data-testid=address-add]').click()
    await page.waitForURL((url) => url.pathname === '/address/edit')
    await page.locator('[data-testid=address-name] input').fill('王五')
    await page.locator('[data-testid=address-mobile] input').fill('13700137000')
    await page
      .locator('[data-testid=address-detail] textarea:not([readonly])')
      .fill('黄浦区南京东路 100 号')
    await page.locator('[data-testid=address-region]').click()
    await page.locator('.adm-picker').waitFor()
    await pick(page, 0, '上海市')
    await pick(page, 1, '黄浦区')
    await page.locator('.adm-picker-header-button', { hasText: '确定' }).click()
    await page.locator('[data-testid=address-save]').click()
    await page.waitForURL((url) => url.pathname === '/order/applySend')
    const addressId = Number(new URL(page.url()).searchParams.get('addressId'))
    expect(addressId).toBeGreaterThan(0)
    await page.locator(`[data-testid=apply-address][data-address-id="${addressId}"]`).waitFor()
    await expect.poll(() => page.locator('.adm-checkbox-checked').count()).toBe(2)
    await exitBan.waitFor({ state: 'detached' })

    // Insured: the quote adds queryKeepFee's fee; the total is what the server quotes.
    // The debug tools' bubbles float over the right edge in development: the switch takes a
    // dispatched click.
    await page.locator('[data-testid=apply-insured]').dispatchEvent('click')
    await page.locator('[data-testid=fee-insurance]').waitFor()
    const quoted = await dataOf<DeliveryInfo>(
      mainCall(
        `/api/user/logistic/delivery/query?orderIds=${won.id},${mallOrderId}&addressId=${addressId}&insured=1`,
        { as: buyer },
      ),
    )
    const quote = quoted.quote!
    expect(quote.shippingFee).toBeGreaterThan(0)
    expect(quote.insuranceFee).toBeGreaterThan(0)
    await page.locator(`[data-testid=apply-total][data-fen="${quote.total}"]`).waitFor()
    expect(await fenOf(page, 'fee-shipping')).toBe(quote.shippingFee)
    expect(await fenOf(page, 'fee-insurance')).toBe(quote.insuranceFee)
    await screenshot(page, 'delivery-apply-send')

    // The fees are paid with the payment password; the success page says what happens next.
    const balanceBefore = (
      await dataOf<{ balance: number }>(mainCall('/user/@statistics', { as: buyer }))
    ).balance
    await page.locator('[data-testid=apply-submit]:not([disabled])').click()
    await page.locator('[data-testid=pay-password-input]').waitFor()
    await screenshot(page, 'delivery-apply-password')
    // A wrong password is said in the sheet with the tries left; nothing is taken.
    await typeDigits(page, '111111')
    const wrong = page.locator('[data-testid=pay-password-error][role=alert]')
    await wrong.waitFor()
    expect(await wrong.innerText()).toBe('支付密码错误，还可尝试 4 次')
    await typeDigits(page, PASSWORD)
    await page.waitForURL((url) => url.pathname === '/account/applySuc')
    const shipmentId = Number(new URL(page.url()).searchParams.get('shipmentId'))
    expect(shipmentId).toBeGreaterThan(0)
    await page.locator('[data-testid=apply-suc]').getByText('已申请发货').waitFor()
    await page.locator(`[data-testid=shipment][data-shipment-id="${shipmentId}"]`).waitFor()
    await screenshot(page, 'delivery-apply-success')
    const balanceAfter = (
      await dataOf<{ balance: number }>(mainCall('/user/@statistics', { as: buyer }))
    ).balance
    expect(balanceBefore - balanceAfter).toBe(quote.total)

    // Waiting for dispatch under 自提/邮寄 until staff ship it.
    await page.goto('/order/selfSend')
    await page.locator('[data-testid=self-send-applied]').waitFor()
    await screenshot(page, 'delivery-self-send-applied')
    await staff.post(`/shipments/${shipmentId}/ship`, {
      carrier: '顺丰速运',
      trackingNo: 'SF1234567890',
    })

    // Shipped: 待收货 lists both orders; 自提/邮寄 shows the tracking number and confirms receipt.
    await page.goto('/order/list?tab=receive')
    await page
      .locator(`[data-testid=order-card][data-order-id="${won.id}"][data-status=shipped]`)
      .waitFor()
    await page
      .locator(
        `[data-testid=order-card][data-order-id="${mallOrderId}"] [data-testid=order-to-receive]`,
      )
      .click()
    await page.waitForURL((url) => url.pathname === '/order/selfSend')
    const card = page.locator(`[data-testid=shipment][data-shipment-id="${shipmentId}"]`)
    await card.locator('[data-testid=shipment-tracking]', { hasText: 'SF1234567890' }).waitFor()
    await screenshot(page, 'delivery-self-send-shipped')
    await card.locator('[data-testid=confirm-receipt]').click()
    await page.locator('.adm-dialog-body').getByText('请确认已收到包裹').waitFor()
    await screenshot(page, 'delivery-confirm-dialog')
    await page.locator('.adm-dialog-button', { hasText: '确认收货' }).click()
    await expect.poll(toasts).toContain('已确认收货')

    // Completed: under 已完成, and in the records with the shipment's detail.
    const records = await dataOf<ShipmentsPage['data']>(
      mainCall('/api/user/logistic/completed', { as: buyer }),
    )
    expect(records.map((s) => [s.id, s.status])).toEqual([[shipmentId, 'completed']])
    await page.goto('/order/list?tab=done')
    await page
      .locator(`[data-testid=order-card][data-order-id="${won.id}"][data-status=completed]`)
      .waitFor()
    await page
      .locator(`[data-testid=order-card][data-order-id="${mallOrderId}"][data-status=completed]`)
      .waitFor()
    await page.goto('/order/selfSend/list')
    await page
      .locator(`[data-testid=shipment][data-shipment-id="${shipmentId}"][data-status=completed]`)
      .waitFor()
    await screenshot(page, 'delivery-records')
    await page.goto(`/order/selfSend/list?id=${shipmentId}`)
    const detail = page.locator('[data-testid=shipment-detail]')
    await detail.getByText('SF1234567890').waitFor()
    expect(await fenOf(page, 'fee-total')).toBe(quote.total)
    await screenshot(page, 'delivery-shipment-detail')
  })

  it('self-pickup on a day and slot; a counter cash booking cancelled before its day, booked again and closed at the counter', async () => {
    const staff = await staffSession()
    const buyer = await createUser()
    const paidId = await mallOrder(staff, buyer)
    const unpaidId = await mallOrder(staff, buyer)
    const paid = (await pendingOf(buyer)).find((o) => o.id === paidId)!
    await creditBalance(staff, buyer, paid.total)
    await payWithBalance(buyer, [paidId])

    const { page } = await signedInContext(browser, buyer)
    const toasts = await recordToasts(page)

    // Self-pickup: no shipping, free storage, so no password; the first day and slot with places.
    await page.goto(`/order/applySend?orderIds=${paidId}&method=pickup`)
    await page.locator('[data-testid=fee-total][data-fen="0"]').waitFor()
    await screenshot(page, 'delivery-apply-send-pickup')
    await page.locator('[data-testid=apply-submit]').click()
    await page.waitForURL((url) => url.pathname === '/order/applySelf')
    await page.locator('[data-testid=slot-dates] .adm-selector-item-active').waitFor()
    await page.locator('[data-testid=slot-slots] .adm-selector-item-active').waitFor()
    await screenshot(page, 'delivery-apply-self')
    await page.locator('[data-testid=apply-self-submit]:not([disabled])').click()
    await page.waitForURL((url) => url.pathname === '/account/applySuc')
    const shipmentId = Number(new URL(page.url()).searchParams.get('shipmentId'))
    const shipment = await dataOf<Shipment>(
      mainCall(`/user/${shipmentId}/@logistic`, { as: buyer }),
    )
    expect(shipment).toMatchObject({ method: 'pickup', status: 'applied', orderIds: [paidId] })
    await page
      .locator('[data-testid=apply-suc]')
      .getByText(`${shipment.pickupDate} ${shipment.pickupSlot}`, { exact: false })
      .first()
      .waitFor()
    await screenshot(page, 'delivery-apply-self-success')
    // The pages left behind re-quote orders that just left storage: nothing is toasted for that.
    expect((await toasts()).filter((text) => text.includes('待发货状态'))).toEqual([])

    // Staff hand it over: the order completes and the pickup shows in the records.
    await staff.post(`/shipments/${shipmentId}/complete`, {})
    await page.goto('/order/selfSend/list')
    await page
      .locator(`[data-testid=shipment][data-shipment-id="${shipmentId}"][data-status=completed]`)
      .waitFor()

    // Counter cash for the unpaid order: booked, listed, cancelled before its day.
    await page.goto('/order/applySend?method=cash')
    await page.locator('[data-testid=apply-cashpay]').click()
    await page.waitForURL((url) => url.pathname === '/order/cashpay')
    await page
      .locator(`[data-testid=pick-order][data-order-id="${unpaidId}"] .adm-checkbox-checked`)
      .waitFor()
    await page.locator('[data-testid=slot-slots] .adm-selector-item-active').waitFor()
    await screenshot(page, 'delivery-cashpay')
    await page.locator('[data-testid=cashpay-submit]:not([disabled])').click()
    await page.waitForURL((url) => url.pathname === '/account/applySuc')
    const bookingId = Number(new URL(page.url()).searchParams.get('bookingId'))
    await page.locator(`[data-testid=booking][data-booking-id="${bookingId}"]`).waitFor()
    await screenshot(page, 'delivery-cashpay-success')
    await page.locator('[data-testid=apply-suc-list]').click()
    await page.waitForURL((url) => url.pathname === '/order/cashpay/list')
    const booking = page.locator(`[data-testid=booking][data-booking-id="${bookingId}"]`)
    await booking.locator('[data-testid=booking-cancel]').click()
    await page.locator('.adm-dialog-button', { hasText: '取消预约' }).click()
    await booking.locator('[data-testid=booking-status]', { hasText: '已取消' }).waitFor()
    await screenshot(page, 'delivery-cashpay-list')
    const listed = await dataOf<Booking[]>(
      mainCall('/user/booking/queryBookingList', { as: buyer }),
    )
    const cancelled = listed.find((b) => b.id === bookingId)!
    expect(cancelled.status).toBe('cancelled')

    // Booked again; on the day the buyer pays cash at the counter and staff close the booking:
    // the order is paid and handed over at once, and the buyer's list says so.
    const again = await dataOf<{ bookingId: number }>(
      mainCall('/user/booking/bookingApply', {
        as: buyer,
        body: { orderIds: [unpaidId], date: cancelled.date, slot: cancelled.slot },
      }),
    )
    await staff.post(`/bookings/${again.bookingId}/complete`, {})
    await page.goto('/order/cashpay/list')
    await page
      .locator(`[data-testid=booking][data-booking-id="${again.bookingId}"]`)
      .locator('[data-testid=booking-status]', { hasText: '已完成' })
      .waitFor()
    const order = await dataOf<Order>(mainCall(`/user/order/${unpaidId}`, { as: buyer }))
    expect(order.status).toBe('completed')
  })

  it('says honestly when there is nothing to deliver, in Chinese and in English', async () => {
    const { context, page } = await signedInContext(browser)
    const empty = async (path: string, text: string) => {
      await page.goto(path)
      await page.locator('.adm-error-block-description', { hasText: text }).waitFor()
    }
    await empty('/order/applySend', '暂无待发货的拍品')
    await screenshot(page, 'delivery-empty-apply-send')
    await empty('/order/selfSend', '暂无发货中或待自提的拍品')
    await empty('/order/selfSend/list', '暂无提货记录')
    await empty('/order/cashpay', '暂无可预约的订单')
    await empty('/order/cashpay/list', '暂无预约记录')
    await screenshot(page, 'delivery-empty-cashpay-list')
    await context.addCookies([{ name: 'lang', value: 'en', url: baseUrl() }])
    await empty('/order/applySend', 'Nothing waiting to ship')
    await screenshot(page, 'delivery-empty-apply-send-en')
    await empty('/order/selfSend', 'Nothing on its way to you')
    await context.close()
  })
})
