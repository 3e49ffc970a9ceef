import type { CompanyBank } from '@numisma/contracts/account'
import { formatChinaDate } from '@numisma/contracts/dates'
import type { Order } from '@numisma/contracts/orders'
import { HEADER, randomUuid } from '@numisma/contracts/signing'
import type { StaffSpecialDetail } from '@numisma/contracts/staff-catalogue'
import type { Browser } from 'playwright-core'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { clickSteady, consoleContext, orderRow, pressOk, whenSteady } from './console'
import {
  baseUrl,
  buildSpecial,
  createUser,
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

const PAY_PASSWORD = '369258'

const asAdmin = <T>(path: string): Promise<T> =>
  dataOf<T>(
    fetch(`${baseUrl()}/svc/main/admin${path}`, { headers: { cookie: inject('staffCookie') } }),
  )

const staffIdOf = async (username: string): Promise<number> =>
  (await asAdmin<{ id: number; username: string }[]>('/staff-members')).find(
    (m) => m.username === username,
  )!.id

/** The bank slip a collector photographs: a JPEG data URL. */
async function slip(amountText: string): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="320"><rect width="480" height="320" fill="#fdfaf2"/><text x="40" y="160" font-size="26" fill="#333">CNY ${amountText}</text></svg>`
  const jpeg = await sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer()
  return `data:image/jpeg;base64,${jpeg.toString('base64')}`
}

describe('a whole sale run from the console', () => {
  it('a cataloguer lists a lot, a collector wins it, the cashier confirms the remittance, shipping ships it, the buyer confirms receipt', async () => {
    const staff = await staffSession()
    const { id: specialId } = await staff.post<{ id: number }>(
      '/specials',
      buildSpecial({ endsInMs: 40_000, softCloseWindowSeconds: 0, staggerSeconds: 1 }),
    )
    const buyer = await createUser()
    await creditDeposit(staff, buyer, 100_000)

    // 1. The cataloguer lists the lot on the special's page, with a photo.
    const cataloguer = await consoleContext(browser, ['cataloguer'])
    const desk = cataloguer.page
    const title = `整场 ${process.pid} 民国十年 袁世凯像 壹圆 PCGS MS62`
    await desk.goto(`/admin/catalogue/specials/${specialId}`)
    await desk.getByRole('button', { name: '添加拍品' }).click()
    const drawer = desk.getByRole('dialog')
    const photo = await sharp({
      create: { width: 1200, height: 1200, channels: 3, background: { r: 190, g: 190, b: 196 } },
    })
      .jpeg()
      .toBuffer()
    await drawer
      .locator('input[type=file]')
      .setInputFiles({ name: 'coin.jpg', mimeType: 'image/jpeg', buffer: photo })
    await drawer.locator('.ant-upload-list-item-done').first().waitFor()
    await drawer.getByLabel('标题', { exact: true }).fill(title)
    await drawer.getByLabel('起拍价（元）').fill('500')
    await clickSteady(desk.locator('.ant-drawer-footer button.ant-btn-primary'))
    await expect.poll(() => desk.locator('tr', { hasText: title }).innerText()).toContain('¥500.00')
    await screenshot(desk, 'console-full-sale-listed')
    const special = await asAdmin<StaffSpecialDetail>(`/specials/${specialId}`)
    const lotId = special.lots.find((lot) => lot.title === title)!.id
    await cataloguer.context.close()

    // 2. A collector bids on the phone and wins when the lot closes.
    const shop = await signedInContext(browser, buyer)
    await shop.page.goto(`/productDetail?id=${lotId}`)
    await shop.page.locator('[data-testid=bid-submit]').click()
    const confirm = shop.page.locator('.adm-dialog-body')
    await confirm.waitFor()
    await confirm.getByRole('button', { name: '确定' }).click()
    await expect
      .poll(() => shop.page.locator('[data-testid=bid-standing]').innerText())
      .toContain('领先')
    expect(await waitClosed(lotId, buyer)).toMatchObject({
      status: 'sold',
      won: true,
      price: 50_000,
    })
    const order = await wonOrder(buyer, lotId)

    // 3. The winner remits the total and a little more for the delivery fees, and files the notice.
    const remitted = order.total + 10_000
    const banks = await dataOf<CompanyBank[]>(
      mainCall('/user/finance/@companyBanks', { as: buyer }),
    )
    await dataOf(
      mainCall('/user/finance/@remittance', {
        as: buyer,
        body: {
          companyBankId: banks[0]!.id,
          amount: remitted,
          payerName: '李四',
          payerBank: '招商银行上海分行',
          remittedOn: formatChinaDate(Date.now(), 'YYYY-MM-DD'),
          orderIds: [order.id],
          receipt: await slip(String(remitted / 100)),
        },
        headers: { [HEADER.idempotencyKey]: randomUuid() },
      }),
    )

    // 4. The cashier confirms it on 汇款确认: the order is paid, the rest stays in the balance.
    const cashier = await consoleContext(browser, ['cashier'])
    await cashier.page.goto('/admin/money/remittances')
    const notice = orderRow(cashier.page, order.id)
    await notice.locator('img').waitFor()
    await screenshot(cashier.page, 'console-full-sale-remittance')
    await notice.getByRole('button', { name: '确认到账' }).click()
    // The form opens on what the notice says arrived; OK is pressed on a filled form, and the
    // message that follows says whether the server took it (a refusal names its reason here).
    const received = cashier.page.getByRole('dialog').getByLabel('实收金额（元）')
    await expect.poll(() => received.inputValue()).toBe((remitted / 100).toFixed(2))
    await pressOk(cashier.page)
    await expect
      .poll(() => cashier.page.locator('.ant-message').innerText())
      .toContain('已确认到账')
    await expect.poll(() => notice.count()).toBe(0)
    await cashier.context.close()
    await expect
      .poll(
        async () =>
          (await dataOf<Order[]>(mainCall('/user/3_3/order/query', { as: buyer }))).length,
      )
      .toBe(0)

    // 5. The buyer applies for express delivery to a new address, the fees from the balance.
    await dataOf(mainCall('/user/@setPayPass', { as: buyer, body: { password: PAY_PASSWORD } }))
    const address = await dataOf<{ id: number }>(
      mainCall('/user/address', {
        as: buyer,
        body: {
          name: '李四',
          mobile: '13700137001',
          countryId: 'CN',
          provinceId: '310000',
          cityId: '310101',
          detail: '南京东路 100 号',
        },
      }),
    )
    const { shipmentId } = await dataOf<{ shipmentId: number }>(
      mainCall('/api/user/logistic/delivery/apply', {
        as: buyer,
        body: {
          orderIds: [order.id],
          method: 'express',
          addressId: address.id,
          insured: true,
          payPassword: PAY_PASSWORD,
        },
      }),
    )

    // 6. Shipping ships it from 待发货 with the carrier's tracking number.
    const shipping = await consoleContext(browser, ['shipping'])
    await shipping.page.goto('/admin/fulfilment/shipments')
    const row = shipping.page.locator(`tr[data-row-key="${shipmentId}"]`)
    await expect.poll(() => row.innerText()).toContain(title)
    await row.locator('[data-testid=ship]').click()
    const modal = shipping.page.locator('.ant-modal-content')
    await modal.locator('[data-testid=ship-tracking]').fill('SF1234567890123')
    const ship = modal.locator('.ant-modal-footer .ant-btn-primary')
    await whenSteady(ship) // the dialog in full, for the picture
    await screenshot(shipping.page, 'console-full-sale-ship')
    await ship.click()
    await shipping.page.getByText(`发货单 ${shipmentId} 已发货`).waitFor()
    await shipping.context.close()

    // 7. The buyer sees the tracking number and confirms receipt on the phone.
    const toasts = await recordToasts(shop.page)
    await shop.page.goto('/order/selfSend')
    const card = shop.page.locator(`[data-testid=shipment][data-shipment-id="${shipmentId}"]`)
    await card.locator('[data-testid=shipment-tracking]', { hasText: 'SF1234567890123' }).waitFor()
    await card.locator('[data-testid=confirm-receipt]').click()
    await shop.page.locator('.adm-dialog-button', { hasText: '确认收货' }).click()
    await expect.poll(toasts).toContain('已确认收货')
    await shop.page.goto('/order/list?tab=done')
    await shop.page
      .locator(`[data-testid=order-card][data-order-id="${order.id}"][data-status=completed]`)
      .waitFor()
    await screenshot(shop.page, 'console-full-sale-received')
    await shop.context.close()

    // The audit log holds each staff step, by whom.
    for (const [route, query, username] of [
      ['/svc/main/admin/lots', `target=lot:${lotId}`, cataloguer.username],
      ['/svc/main/admin/shipments/:id/ship', `target=shipment:${shipmentId}`, shipping.username],
      [
        '/svc/main/admin/remittances/:id/confirm',
        `route=${encodeURIComponent('/remittances/:id/confirm')}&staffId=${await staffIdOf(cashier.username)}`,
        cashier.username,
      ],
    ] as const) {
      const lines = await asAdmin<{ username: string; route: string }[]>(`/audit?${query}`)
      expect(lines.filter((l) => l.route === route).map((l) => l.username)).toContain(username)
    }
    // The lot's close is waited for in real time: more than the suite's default minute in all.
  }, 180_000)
})
