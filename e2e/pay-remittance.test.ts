import type { CompanyBank, Remittance } from '@numisma/contracts/account'
import type { Order } from '@numisma/contracts/orders'
import { REMITTANCE_HOLD_MS } from '@numisma/domain/fees'
import type { UserStatistics } from '@numisma/contracts/user'
import { HEADER, randomUuid } from '@numisma/contracts/signing'
import zlib from 'node:zlib'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createMallItem,
  createUser,
  dataOf,
  launchBrowser,
  mainCall,
  phoneContext,
  recordToasts,
  screenshot,
  signInAs,
  staffSession,
  type TestUser,
} from './fixtures'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser.close())

/**
 * A phone photo of a bank slip: a 2400×3200 PNG the notice form must scale down before sending.
 * Its rows are noise (heavy for JPEG) repeating every four rows (light for the PNG itself).
 */
function slipPhoto(width = 2400, height = 3200): Buffer {
  const period = 4
  const noise = Buffer.alloc(width * 3 * period)
  for (let i = 0; i < noise.length; i++) noise[i] = ((i + 1) * 2_654_435_761) >>> 24
  const rows: Buffer[] = []
  for (let y = 0; y < height; y++) {
    const start = (y % period) * width * 3
    rows.push(Buffer.from([0]), noise.subarray(start, start + width * 3))
  }
  const chunk = (type: string, data: Buffer): Buffer => {
    const head = Buffer.alloc(4)
    head.writeUInt32BE(data.length)
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(zlib.crc32(body))
    return Buffer.concat([head, body, crc])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 2, 0, 0, 0], 8) // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

const statisticsOf = (user: TestUser) =>
  dataOf<UserStatistics>(mainCall('/user/@statistics', { as: user }))

describe('paying a mall order by bank remittance', () => {
  it('a collector chooses 银行汇款, copies an account, sends a notice with the slip; staff confirm it and the order waits to ship', async () => {
    const staff = await staffSession()
    const { productNo } = await createMallItem(staff, { price: 12_000, stock: 3 })
    const user = await createUser()
    const placed = await dataOf<{ status: string; orderId: number }>(
      mainCall('/mallorder/createOrder', {
        as: user,
        body: { productNo, quantity: 1 },
        headers: { [HEADER.idempotencyKey]: randomUuid() },
      }),
    )
    expect(placed.status).toBe('SUCCESS')
    const orderId = placed.orderId
    const banks = await dataOf<CompanyBank[]>(mainCall('/user/finance/@companyBanks', { as: user }))
    expect(banks.length).toBeGreaterThan(0)

    const context = await phoneContext(browser)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await signInAs(context, user)
    const page = await context.newPage()
    const toasts = await recordToasts(page)

    // 待付款 → 去付款 → /account/pay, 银行汇款.
    await page.goto('/order/list?tab=pay')
    const pending = page.locator(`[data-testid=order-card][data-order-id="${orderId}"]`)
    await pending.locator('[data-testid=order-pay]').click()
    await page.waitForURL(new RegExp(`/account/pay\\?orderIds=${orderId}$`))
    await page.locator('[data-testid=pay-method-remittance]').click()
    const chosenAt = Date.now()
    await page.locator('[data-testid=pay-submit]:not([disabled])').click()
    await page.waitForURL(new RegExp(`/account/bankAddress\\?orderIds=${orderId}$`))

    // Choosing remittance holds the order three days, and the bank screens say until when.
    const held = (await dataOf<Order[]>(mainCall('/user/3_3/order/query', { as: user }))).find(
      (o) => o.id === orderId,
    )!
    expect(held.payMethod).toBe('remittance')
    const dueAt = Date.parse(held.dueAt!)
    expect(dueAt).toBeGreaterThanOrEqual(chosenAt + REMITTANCE_HOLD_MS - 1_000)
    expect(dueAt).toBeLessThanOrEqual(Date.now() + REMITTANCE_HOLD_MS)
    const deadline = page.locator('[data-testid=bank-orders-deadline]')
    await deadline.waitFor()
    expect(await deadline.getAttribute('data-due')).toBe(held.dueAt)
    expect(await deadline.innerText()).toMatch(
      /^请于 \d{4}-\d{2}-\d{2} \d{2}:\d{2}（北京时间）前汇款/,
    )

    // The company's accounts, for this order and what it comes to.
    await page.locator(`[data-testid=bank-orders-total][data-fen="12000"]`).waitFor()
    expect(await page.locator('[data-testid=bank-orders-note]').innerText()).toContain(
      `本次汇款用于订单 ${orderId}`,
    )
    await expect.poll(() => page.locator('[data-testid=company-bank]').count()).toBe(banks.length)
    await screenshot(page, 'pay-remittance-banks')
    const bank = banks[0]!
    await page.locator(`[data-testid=company-bank][data-bank-id="${bank.id}"]`).click()

    // One account: copy its number (what the clipboard holds is the number, without spaces), and
    // the order number goes in the transfer note.
    await page.waitForURL(
      new RegExp(`/account/bankAddressDetail\\?id=${bank.id}&orderIds=${orderId}$`),
    )
    expect(
      (await page.locator('[data-testid=bank-account-no]').innerText()).replace(/\s/g, ''),
    ).toBe(bank.accountNo)
    await page.locator('[data-testid=copy-account-no]').click()
    await expect.poll(toasts).toContain('已复制')
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(bank.accountNo)
    expect(await page.locator('[data-testid=bank-transfer-note]').innerText()).toBe(
      `订单号 ${orderId}`,
    )
    await screenshot(page, 'pay-remittance-account')
    await page.locator('[data-testid=bank-remitted]').click()

    // The notice: the amount starts from the order's total; the slip is scaled on the phone.
    await page.waitForURL(
      new RegExp(`/account/sendBankInfo\\?bankId=${bank.id}&orderIds=${orderId}$`),
    )
    await page.locator('[data-testid=remittance-due][data-fen="12000"]').waitFor()
    const amount = page.locator('[data-testid=remittance-amount] input')
    await expect.poll(() => amount.inputValue()).toBe('120')
    expect(await page.locator('[data-testid=remittance-bank]').innerText()).toContain(
      bank.accountNo.slice(-4),
    )
    await page.locator('[data-testid=remittance-payer-name] input').fill('张三')
    await page.locator('[data-testid=remittance-payer-bank] input').fill('中国建设银行')
    const photo = slipPhoto()
    await page
      .locator('[data-testid=receipt-upload] input[type=file]')
      .setInputFiles({ name: 'slip.png', mimeType: 'image/png', buffer: photo })
    const preview = page.locator('[data-testid=receipt-upload] .adm-image-uploader-cell img')
    await expect
      .poll(() => preview.getAttribute('src'), { timeout: 15_000 })
      .toMatch(/^data:image\/jpeg;base64,/)
    const sent = (await preview.getAttribute('src'))!
    expect(sent.length).toBeLessThanOrEqual(1_500_000)
    // A string, not a function: this file is typed for Node, the script runs in the page.
    const size = await page.evaluate<[number, number]>(`(async () => {
      const image = new Image()
      image.src = ${JSON.stringify(sent)}
      await image.decode()
      return [image.naturalWidth, image.naturalHeight]
    })()`)
    // Scaled to 1600 px on the longer side at most, upright and in proportion (3:4).
    expect(Math.max(...size)).toBeLessThanOrEqual(1600)
    expect(size[0] / size[1]).toBeCloseTo(0.75, 2)
    await screenshot(page, 'pay-remittance-notice')
    await page.locator('[data-testid=remittance-submit]:not([disabled])').click()

    // Sent: what happens next, and the notice in my list, waiting for staff.
    await page.locator('[data-testid=remittance-sent]').waitFor()
    const notice = page.locator('[data-testid=remittance]').first()
    await notice.waitFor()
    expect(await notice.getAttribute('data-status')).toBe('submitted')
    expect(await notice.locator('[data-testid=remittance-status]').innerText()).toBe('待确认')
    const remittanceId = Number(await notice.getAttribute('data-remittance-id'))
    expect(remittanceId).toBeGreaterThan(0)
    await screenshot(page, 'pay-remittance-sent')

    // Still unpaid until staff see the money.
    await page.goto('/order/list?tab=pay')
    await pending.waitFor()
    expect(await pending.getAttribute('data-status')).toBe('pending_payment')

    // Staff confirm what the bank shows, ¥125: the order takes its ¥120 of it, ¥5 stays.
    const decided = await staff.post<Remittance>(`/remittances/${remittanceId}/confirm`, {
      amountReceived: 12_500,
    })
    expect(decided).toMatchObject({ status: 'confirmed', amount: 12_000, amountReceived: 12_500 })
    await page.goto('/order/list?tab=ship')
    const paid = page.locator(`[data-testid=order-card][data-order-id="${orderId}"]`)
    await paid.waitFor()
    expect(await paid.getAttribute('data-status')).toBe('paid')
    expect(await paid.locator('[data-testid=order-status]').innerText()).toBe('待发货')
    await screenshot(page, 'pay-remittance-paid')
    const after = await statisticsOf(user)
    expect(after.balance).toBe(500)
    expect(after.counts.pendingPayment ?? 0).toBe(0)

    // The notice now reads 已入账 where the collector sent it from.
    await page.goto('/account/bankAddress')
    const confirmed = page.locator(
      `[data-testid=remittance][data-remittance-id="${remittanceId}"][data-status=confirmed]`,
    )
    await confirmed.waitFor()
    expect(await confirmed.locator('[data-testid=remittance-status]').innerText()).toBe('已入账')
    expect(await confirmed.locator('[data-testid=remittance-received]').innerText()).toBe(
      '实际到账 ¥125.00',
    )
    await screenshot(page, 'pay-remittance-confirmed')

    await context.close()
  })
})
