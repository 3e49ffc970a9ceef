import fs from 'node:fs'
import path from 'node:path'
import type { LotDetail } from '@numisma/contracts/catalog'
import type { DeliveryInfo } from '@numisma/contracts/delivery'
import type { Order } from '@numisma/contracts/orders'
import { HEADER, randomUuid } from '@numisma/contracts/signing'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clickSteady, consoleContext } from './console'
import {
  bidAs,
  buildLot,
  buildSpecial,
  createMallItem,
  createUser,
  creditBalance,
  creditDeposit,
  dataOf,
  launchBrowser,
  mainCall,
  screenshot,
  signedInContext,
  staffSession,
  type Staff,
  type TestUser,
} from './fixtures'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser.close())

const PASSWORD = '258036'

async function waitClosed(lotId: number, as: TestUser): Promise<LotDetail> {
  const deadline = Date.now() + 60_000
  for (;;) {
    const lot = await dataOf<LotDetail>(mainCall(`/auction/${lotId}`, { as }))
    if (lot.status === 'sold' || lot.status === 'unsold') return lot
    if (Date.now() > deadline) throw new Error(`lot ${lotId} did not close: ${lot.status}`)
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
}

async function wonOrder(as: TestUser, lotId: number): Promise<Order> {
  const deadline = Date.now() + 20_000
  for (;;) {
    const pending = await dataOf<Order[]>(mainCall('/user/3_3/order/query', { as }))
    const order = pending.find((o) => o.items.some((i) => i.lotId === lotId))
    if (order) return order
    if (Date.now() > deadline) throw new Error(`no order for lot ${lotId}`)
    await new Promise((resolve) => setTimeout(resolve, 300))
  }
}

async function pay(as: TestUser, orderIds: number[]): Promise<void> {
  await dataOf(mainCall('/user/@setPayPass', { as, body: { password: PASSWORD } }))
  await dataOf(
    mainCall('/user/3_3/pay/doPay', {
      as,
      body: { orderIds, method: 'balance', payPassword: PASSWORD },
      headers: { [HEADER.idempotencyKey]: randomUuid() },
    }),
  )
}

/** A mall order placed over the API (unpaid), and its title. */
async function mallOrder(staff: Staff, as: TestUser, title: string): Promise<number> {
  const { productNo } = await createMallItem(staff, { title, price: 12_000, stock: 3 })
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

/** The pick list is loaded and 打印 enabled (its fade-in over: the screenshot shows it ready). */
async function printReady(page: Page): Promise<void> {
  await page.locator('[data-testid=print]:not([disabled])').waitFor()
  await page.waitForTimeout(400)
}

/** The pick list as paper: an A4 PDF, and a screenshot in print media (kept for a person). */
async function keepPrint(page: Page, name: string): Promise<void> {
  const dir = process.env.SCREENSHOT_DIR
  if (!dir) return
  fs.mkdirSync(dir, { recursive: true })
  await page.pdf({ path: path.join(dir, `${name}.pdf`), format: 'A4', printBackground: true })
  await page.emulateMedia({ media: 'print' })
  await page.screenshot({ path: path.join(dir, `${name}-print.png`), fullPage: true })
  // Back to no emulation: a forced `screen` would make the next page.pdf print the screen.
  await page.emulateMedia({ media: null })
}

describe('console fulfilment', () => {
  it('a won lot paid and applied for express is shipped from the console with a tracking number; the buyer waits to receive it; the counter sees its day by slot and prints pick lists', async () => {
    const staff = await staffSession()
    const buyer = await createUser()
    await creditDeposit(staff, buyer, 100_000)
    const lotTitle = `光绪元宝 库平七钱二分 PCGS AU55 ${process.pid}`
    // A graded coin: its grade and certificate go on the pick list.
    const special = buildSpecial({ endsInMs: 8_000, softCloseWindowSeconds: 0, staggerSeconds: 1 })
    const { id: specialId } = await staff.post<{ id: number }>('/specials', special)
    const { id: lotId } = await staff.post<{ id: number }>('/lots', {
      ...buildLot(specialId, { title: lotTitle, startPrice: 50_000 }),
      gradeCode: 51,
      gradingService: 'PCGS',
      certNo: '40123456',
    })
    await bidAs(buyer, { lotId, amount: 50_000 })
    expect(await waitClosed(lotId, buyer)).toMatchObject({ status: 'sold', won: true })
    const won = await wonOrder(buyer, lotId)
    await creditBalance(staff, buyer, won.total + 20_000)
    await pay(buyer, [won.id])
    const address = await dataOf<{ id: number }>(
      mainCall('/user/address', {
        as: buyer,
        body: {
          name: '王五',
          mobile: '13700137000',
          countryId: 'CN',
          provinceId: '110000',
          cityId: '110105',
          detail: '建国路 88 号 SOHO 现代城 2 号楼',
        },
      }),
    )
    const { shipmentId } = await dataOf<{ shipmentId: number }>(
      mainCall('/api/user/logistic/delivery/apply', {
        as: buyer,
        body: {
          orderIds: [won.id],
          method: 'express',
          addressId: address.id,
          insured: true,
          payPassword: PASSWORD,
        },
      }),
    )

    // The counter's day: one buyer picks up a paid mall order, another booked to pay cash.
    const collector = await createUser()
    const paidId = await mallOrder(staff, collector, `1980年 长城币 壹圆 ${process.pid}`)
    await creditBalance(staff, collector, 12_000)
    await pay(collector, [paidId])
    const info = await dataOf<DeliveryInfo>(
      mainCall('/api/user/logistic/delivery/query', { as: collector }),
    )
    const date = info.pickupDays[0]!.date
    const slot = '10:00-12:00'
    const { shipmentId: pickupId } = await dataOf<{ shipmentId: number }>(
      mainCall('/api/user/logistic/delivery/apply', {
        as: collector,
        body: { orderIds: [paidId], method: 'pickup', pickupDate: date, pickupSlot: slot },
      }),
    )
    const cashBuyer = await createUser()
    const unpaidId = await mallOrder(staff, cashBuyer, `熊猫金币 2024 30克 ${process.pid}`)
    const { bookingId } = await dataOf<{ bookingId: number }>(
      mainCall('/user/booking/bookingApply', {
        as: cashBuyer,
        body: { orderIds: [unpaidId], date, slot },
      }),
    )

    // 待发货 as a member of shipping: the shipment with its buyer, address and lot.
    const { page } = await consoleContext(browser, ['shipping'])
    await page.goto('/admin/fulfilment/shipments')
    const row = page.locator(`tr[data-row-key="${shipmentId}"]`)
    await row.waitFor()
    expect(await row.innerText()).toContain(lotTitle)
    // The special and the lot's number in it, where the picker finds the coin.
    expect(await row.innerText()).toContain(`《${special.title}》 第 1 号 · 拍品 ${lotId}`)
    expect(await row.innerText()).toContain('王五 13700137000')
    await screenshot(page, 'console-fulfilment-shipments')

    // Its pick list: chosen on the table, one A4 sheet with the lot and a tick box.
    await row.locator('.ant-checkbox-input').check()
    await page.locator('[data-testid=print-selected]:not([disabled])').click()
    await page.waitForURL((url) => url.pathname === '/admin/fulfilment/pick-lists')
    expect(new URL(page.url()).searchParams.get('shipmentIds')).toBe(String(shipmentId))
    const sheet = page.locator(
      `[data-testid=pick-list] [data-testid=pick-sheet][data-kind=express][data-id="${shipmentId}"]`,
    )
    await sheet.waitFor()
    expect(await sheet.innerText()).toContain(lotTitle)
    expect(await sheet.innerText()).toContain(`《${special.title}》`)
    expect(await sheet.innerText()).toContain(`第 1 号 · 拍品 ${lotId}`)
    expect(await sheet.innerText()).toContain('137****7000')
    expect(await sheet.innerText()).toContain('评级币 · PCGS 40123456')
    expect(await sheet.innerText()).not.toContain('13700137000')
    await printReady(page)
    await screenshot(page, 'console-fulfilment-pick-list-express')
    await keepPrint(page, 'console-fulfilment-pick-list-express')

    // Ship it: a number that is not SF's shape is refused in the form, then the right one.
    await page.goto('/admin/fulfilment/shipments')
    await row.locator('[data-testid=ship]').click()
    const modal = page.locator('.ant-modal-content')
    await modal.locator('[data-testid=ship-tracking]').fill('12345')
    await clickSteady(modal.locator('.ant-modal-footer .ant-btn-primary'))
    await modal.getByText('运单号格式不符，例如 SF1234567890123').waitFor()
    await screenshot(page, 'console-fulfilment-ship-form')
    await modal.locator('[data-testid=ship-tracking]').fill('SF1234567890123')
    // The error line leaves with a height transition that moves the footer: gone before OK.
    await modal.getByText('运单号格式不符，例如 SF1234567890123').waitFor({ state: 'detached' })
    await clickSteady(modal.locator('.ant-modal-footer .ant-btn-primary'))
    await page.getByText(`发货单 ${shipmentId} 已发货`).waitFor()
    await row.waitFor({ state: 'detached' })
    await page.getByRole('tab', { name: '已发货' }).click()
    await row.locator('[data-testid=shipment-tracking]', { hasText: 'SF1234567890123' }).waitFor()
    await screenshot(page, 'console-fulfilment-shipped')

    // The buyer's 待收货 in the shop shows it, with the tracking number on 自提/邮寄.
    const shop = await signedInContext(browser, buyer)
    await shop.page.goto('/order/list?tab=receive')
    await shop.page
      .locator(`[data-testid=order-card][data-order-id="${won.id}"][data-status=shipped]`)
      .waitFor()
    await screenshot(shop.page, 'console-fulfilment-buyer-to-receive')
    await shop.page.goto('/order/selfSend')
    await shop.page
      .locator(`[data-testid=shipment][data-shipment-id="${shipmentId}"]`)
      .locator('[data-testid=shipment-tracking]', { hasText: 'SF1234567890123' })
      .waitFor()
    await shop.context.close()

    // 拣货单 for the counter's morning: the pickup and the cash booking, a sheet each.
    await page.goto(`/admin/fulfilment/pick-lists?date=${date}&slot=${slot}`)
    await page
      .locator(
        `[data-testid=pick-list] [data-testid=pick-sheet][data-kind=pickup][data-id="${pickupId}"]`,
      )
      .waitFor()
    await page
      .locator(
        `[data-testid=pick-list] [data-testid=pick-sheet][data-kind=booking][data-id="${bookingId}"]`,
      )
      .waitFor()
    await printReady(page)
    await screenshot(page, 'console-fulfilment-pick-list-day')
    await keepPrint(page, 'console-fulfilment-pick-list-day')

    // 自提 for that day: the pickup and the booking take places in the morning (other journeys of
    // the run may have booked that slot too, so at least two); hand over.
    await page.goto(`/admin/fulfilment/pickups?date=${date}`)
    const morning = page.locator(`[data-testid=pickup-slot][data-slot="${slot}"]`)
    const places = morning.locator('[data-testid=slot-places]')
    await places.waitFor()
    expect(Number(await places.getAttribute('data-booked'))).toBeGreaterThanOrEqual(2)
    const pickupRow = morning.locator(`[data-testid=pickup][data-shipment-id="${pickupId}"]`)
    await pickupRow.waitFor()
    await screenshot(page, 'console-fulfilment-pickups')
    await pickupRow.locator('[data-testid=hand-over]').click()
    await clickSteady(page.locator('.ant-popconfirm .ant-btn-primary'))
    await pickupRow.getByText('已交付').waitFor()

    // 柜台预约: shipping may cancel but not take the cash; a cashier may.
    await page.goto(`/admin/fulfilment/bookings?date=${date}`)
    const bookingRow = page.locator(`[data-testid=booking][data-booking-id="${bookingId}"]`)
    await bookingRow.locator('[data-testid=booking-cancel]').waitFor()
    expect(await bookingRow.locator('[data-testid=booking-complete]').count()).toBe(0)
    await screenshot(page, 'console-fulfilment-bookings')
    const cashier = await consoleContext(browser, ['cashier'])
    await cashier.page.goto(`/admin/fulfilment/bookings?date=${date}`)
    const cashierRow = cashier.page.locator(`[data-testid=booking][data-booking-id="${bookingId}"]`)
    await cashierRow.locator('[data-testid=booking-complete]').click()
    await clickSteady(cashier.page.locator('.ant-popconfirm .ant-btn-primary'))
    await cashierRow.locator('[data-testid=booking-status]', { hasText: '已完成' }).waitFor()
    await screenshot(cashier.page, 'console-fulfilment-bookings-cashier')
    await cashier.context.close()
  })
})
