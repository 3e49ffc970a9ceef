import type { CompanyBank } from '@numisma/contracts/account'
import { formatChinaDate } from '@numisma/contracts/dates'
import { HEADER, randomUuid } from '@numisma/contracts/signing'
import type { RefundableOrder } from '@numisma/contracts/staff-money'
import type { Browser } from 'playwright-core'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inject } from 'vitest'
import { consoleContext, orderRow, pressOk } from './console'
import {
  baseUrl,
  createMallItem,
  createUser,
  creditBalance,
  dataOf,
  launchBrowser,
  mainCall,
  screenshot,
  staffSession,
  type TestUser,
} from './fixtures'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser.close())

const PAY_PASSWORD = '246810'

/** A bank slip as a collector photographs it: a JPEG data URL. */
async function receiptPicture(amountText: string): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="320">
    <rect width="480" height="320" fill="#fdfaf2"/>
    <rect x="12" y="12" width="456" height="296" fill="none" stroke="#b22" stroke-width="4"/>
    <text x="240" y="80" font-size="34" text-anchor="middle" fill="#b22">BANK TRANSFER</text>
    <text x="40" y="160" font-size="26" fill="#333">AMOUNT CNY ${amountText}</text>
    <text x="40" y="220" font-size="22" fill="#555">PAYER ZHANG SAN</text>
  </svg>`
  const jpeg = await sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer()
  return `data:image/jpeg;base64,${jpeg.toString('base64')}`
}

/** The order as the refund desk sees it (staff API, the run's admin session). */
const deskOrder = (orderId: number) =>
  dataOf<RefundableOrder>(
    fetch(`${baseUrl()}/svc/main/admin/money/orders/${orderId}`, {
      headers: { cookie: inject('staffCookie') },
    }),
  )

/** A mall order placed by `user`, pending payment. */
async function placeOrder(user: TestUser, productNo: string): Promise<number> {
  const placed = await dataOf<{ status: string; orderId: number }>(
    mainCall('/mallorder/createOrder', {
      as: user,
      body: { productNo, quantity: 1 },
      headers: { [HEADER.idempotencyKey]: randomUuid() },
    }),
  )
  expect(placed.status).toBe('SUCCESS')
  return placed.orderId
}

describe('the money pages', () => {
  it('a cashier confirms a remittance on the page and its order is paid; then adjusts, refunds and reads a balanced day', async () => {
    const staff = await staffSession()
    const { productNo } = await createMallItem(staff, { price: 12_000, stock: 3 })
    const buyer = await createUser()
    const orderId = await placeOrder(buyer, productNo)
    const banks = await dataOf<CompanyBank[]>(
      mainCall('/user/finance/@companyBanks', { as: buyer }),
    )
    const notice = await dataOf<{ id: number }>(
      mainCall('/user/finance/@remittance', {
        as: buyer,
        body: {
          companyBankId: banks[0]!.id,
          amount: 12_000,
          payerName: '张三',
          payerBank: '中国银行北京分行',
          remittedOn: formatChinaDate(Date.now(), 'YYYY-MM-DD'),
          orderIds: [orderId],
          receipt: await receiptPicture('120.00'),
        },
        headers: { [HEADER.idempotencyKey]: randomUuid() },
      }),
    )
    // A withdrawal waiting too, for the 提现 page.
    await creditBalance(staff, buyer, 5_000)
    await dataOf(mainCall('/user/@setPayPass', { as: buyer, body: { password: PAY_PASSWORD } }))
    await dataOf(
      mainCall('/user/finance/withdrawals', {
        as: buyer,
        body: {
          amount: 3_000,
          source: 'balance',
          bankName: '中国工商银行',
          accountName: '张三',
          accountNo: '6222020200112233445',
          payPassword: PAY_PASSWORD,
        },
        headers: { [HEADER.idempotencyKey]: randomUuid() },
      }),
    )

    const { context, page } = await consoleContext(browser, ['cashier'])

    // 汇款确认: the notice with its slip; confirm what arrived (the notice's amount by default).
    await page.goto('/admin/money/remittances')
    const row = orderRow(page, orderId)
    await row.locator('img').waitFor()
    expect(await row.innerText()).toContain('120.00')
    // The company account the buyer named, to check against that statement.
    expect(await row.innerText()).toMatch(/\d{4} \d{4} \d{4}/)
    await screenshot(page, 'console-money-remittances')
    await row.getByRole('button', { name: '确认到账' }).click()
    const amount = page.getByRole('dialog').getByLabel('实收金额（元）')
    expect(await amount.inputValue()).toBe('120.00')
    await screenshot(page, 'console-money-confirm')
    await pressOk(page)
    await expect.poll(() => row.count()).toBe(0)
    await expect.poll(async () => (await deskOrder(orderId)).status).toBe('paid')
    await page.getByRole('tab', { name: '已处理' }).click()
    const decided = orderRow(page, orderId)
    await expect.poll(() => decided.innerText()).toContain('已确认到账')
    expect(await decided.innerText()).toContain(String(notice.id))
    await screenshot(page, 'console-money-remittances-history')

    // 提现: the waiting withdrawal, paid out.
    await page.goto('/admin/money/withdrawals')
    const withdrawal = page.locator('tr', { hasText: '6222020200112233445' })
    await withdrawal.waitFor()
    await screenshot(page, 'console-money-withdrawals')
    await withdrawal.getByRole('button', { name: '已打款' }).click()
    await pressOk(page)
    await expect.poll(() => withdrawal.count()).toBe(0)

    // 用户账户: look the buyer up, credit 10 yuan with a reason.
    await page.goto('/admin/money/accounts')
    await page.getByLabel('查询用户').fill(buyer.mobile)
    await page.getByRole('button', { name: '查询' }).click()
    const balance = page.locator('.ant-statistic', { hasText: '余额' }).first()
    await expect.poll(() => balance.innerText()).toContain('20.00')
    await page.getByRole('button', { name: '调整账户' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('金额（元）').fill('10')
    await dialog.getByLabel('原因').fill('柜台少记一笔')
    await screenshot(page, 'console-money-adjust')
    await pressOk(page)
    await expect.poll(() => balance.innerText()).toContain('30.00')
    await page.getByRole('dialog').waitFor({ state: 'detached' })
    await expect
      .poll(() => page.locator('tr', { hasText: '柜台少记一笔' }).count())
      .toBeGreaterThan(0)
    // Ledger lines in Chinese: the remittance and the order it paid, never the English memo.
    const lines = page.locator('.ant-table-tbody')
    expect(await lines.last().innerText()).toContain(`汇款 #${notice.id}`)
    expect(await lines.last().innerText()).toContain(`订单 #${orderId}`)
    expect(await lines.last().innerText()).not.toMatch(/payment \d|remittance \d/)
    await screenshot(page, 'console-money-accounts')

    // 退款: the paid order goes back to the buyer's balance.
    await page.goto('/admin/money/refunds')
    await page.getByLabel('订单号').fill(String(orderId))
    await page.getByRole('button', { name: '查找订单' }).click()
    await page.getByText('可退款', { exact: true }).waitFor()
    await screenshot(page, 'console-money-refund-order')
    await page.getByRole('button', { name: /^退款/ }).click()
    await page.getByRole('dialog').getByLabel('原因').fill('买家协商退款')
    await pressOk(page)
    await expect.poll(async () => (await deskOrder(orderId)).status).toBe('cancelled')
    await expect.poll(() => page.locator('tr', { hasText: '买家协商退款' }).count()).toBe(1)
    await screenshot(page, 'console-money-refunds')

    // 日账报表: today balances.
    await page.goto('/admin/money/ledger')
    const status = page.locator('[data-balanced]')
    await status.waitFor()
    expect(await status.getAttribute('data-balanced')).toBe('true')
    expect(await status.innerText()).toContain('账平')
    expect(await page.locator('tr', { hasText: '订单退款' }).count()).toBeGreaterThan(0)
    await screenshot(page, 'console-money-ledger')
    await context.close()
  })
})
