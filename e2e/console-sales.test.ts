import fs from 'node:fs'
import { formatChinaDate } from '@numisma/contracts/dates'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clickSteady, consoleContext } from './console'
import {
  bidAs,
  buildSpecial,
  createSpecialWithLots,
  createUser,
  creditDeposit,
  dataOf,
  launchBrowser,
  mainCall,
  screenshot,
  staffSession,
  type Staff,
} from './fixtures'

/** Issue 12 · the console's sales pages at 1280×800: live view, closing results, relist. */
let browser: Browser
let staff: Staff

beforeAll(async () => {
  browser = await launchBrowser()
  staff = await staffSession()
})
afterAll(() => browser.close())

const text = (page: Page, testId: string) =>
  page
    .locator(`[data-testid="${testId}"]`)
    .first()
    .innerText()
    .catch(() => '')

/** A short special: lots close a few seconds from now, one second apart, no soft close. */
async function shortSale(lots: { startPrice: number; reservePrice?: number }[]) {
  return createSpecialWithLots(
    staff,
    buildSpecial({ endsInMs: 12_000, staggerSeconds: 1, softCloseWindowSeconds: 0 }),
    lots,
  )
}

/** Every text the live page's connection badge shows, in order, from the page's first paint. */
const RECORD_CONNECTION = `
  window.__connection = []
  new MutationObserver(() => {
    const badge = document.querySelector('[data-testid=live-connection]')
    const text = badge ? badge.innerText : null
    const seen = window.__connection
    if (text && seen[seen.length - 1] !== text) seen.push(text)
  }).observe(document, { subtree: true, childList: true, characterData: true })
`

describe('the sales pages', () => {
  it('a support member watches prices and bid counts move on the live page as collectors bid', async () => {
    const sale = await createSpecialWithLots(staff, buildSpecial(), [
      { startPrice: 62_000 },
      { startPrice: 62_000, reservePrice: 100_000 },
      { startPrice: 62_000 },
    ])
    const [alice, bob] = [await createUser(), await createUser()]
    for (const who of [alice, bob]) await creditDeposit(staff, who, 1_000_000)
    for (const who of [alice, bob]) {
      await dataOf(mainCall(`/auction/${sale.lots[0]!.id}/@attention`, { as: who, method: 'POST' }))
    }

    const { context, page } = await consoleContext(browser, ['support'])
    await page.addInitScript(RECORD_CONNECTION)
    await page.goto(`/admin/sales/live?special=${sale.specialId}`)
    const lot = sale.lots[0]!.id
    await expect.poll(() => text(page, 'live-connection'), { timeout: 10_000 }).toBe('实时更新中')
    // Connecting for the first time is not a lost connection.
    expect(await page.evaluate('window.__connection')).toEqual(['连接中…', '实时更新中'])
    expect(await text(page, `bids-${lot}`)).toBe('0')
    expect(await text(page, `watchers-${lot}`)).toBe('2')
    // A marker that a reload would wipe.
    await page.evaluate('window.__stillHere = true')

    await bidAs(alice, { lotId: lot, amount: 62_000 })
    await expect.poll(() => text(page, `price-${lot}`)).toBe('¥620.00')
    expect(await text(page, `bids-${lot}`)).toBe('1')
    await bidAs(bob, { lotId: lot, amount: 63_000 })
    await bidAs(alice, { lotId: sale.lots[1]!.id, amount: 62_000 })
    await expect.poll(() => text(page, `price-${lot}`)).toBe('¥630.00')
    await expect.poll(() => text(page, `bids-${lot}`)).toBe('2')
    await expect.poll(() => text(page, 'total-bids')).toContain('3')
    expect(await page.evaluate('window.__stillHere')).toBe(true)
    // The leader's masked mobile arrives with the re-read that follows a burst of bids.
    await expect
      .poll(() => page.locator('tr', { hasText: '¥630.00' }).innerText())
      .toContain(`${bob.mobile.slice(0, 3)}****${bob.mobile.slice(7)}`)
    await screenshot(page, 'console-sales-live')
    await context.close()
  })

  it('closing results of a short special, a CSV of them, and relisting an unsold lot', async () => {
    const sale = await shortSale([
      { startPrice: 62_000 },
      { startPrice: 62_000 },
      { startPrice: 62_000, reservePrice: 100_000 },
    ])
    const target = await createSpecialWithLots(
      staff,
      buildSpecial({ title: `E2E 重新上拍专场 ${process.pid}` }),
      [],
    )
    const alice = await createUser()
    await creditDeposit(staff, alice, 1_000_000)
    await bidAs(alice, { lotId: sale.lots[0]!.id, amount: 62_000 })
    await bidAs(alice, { lotId: sale.lots[2]!.id, amount: 62_000 })

    const { context, page } = await consoleContext(browser, ['cataloguer'])
    // The live page sees the lots close over push, then the results are read.
    await page.goto(`/admin/sales/live?special=${sale.specialId}`)
    const last = sale.lots[2]!.id
    const lastClose = formatChinaDate(sale.lots[2]!.endsAt, 'MM-DD HH:mm')
    await expect.poll(() => text(page, `status-${last}`), { timeout: 30_000 }).toBe('流拍')
    expect(await text(page, `status-${sale.lots[0]!.id}`)).toBe('成交')
    // The picker follows the sale as it closes: its state, and its end at the last lot's close.
    await expect.poll(() => text(page, 'special-picker'), { timeout: 10_000 }).toContain('已结束')
    expect(await text(page, 'special-picker')).toContain(`结拍 ${lastClose}`)

    await page.goto(`/admin/sales/results?special=${sale.specialId}`)
    await expect.poll(() => text(page, `outcome-${sale.lots[0]!.id}`)).toBe('成交')
    const outcome = async (lotId: number) =>
      (await text(page, `outcome-${lotId}`)).replace(/\s+/g, '')
    expect(await outcome(sale.lots[1]!.id)).toBe('流拍（无人出价）')
    // Below its reserve: the reason, the highest bid (not a hammer) and whom to call.
    expect(await outcome(last)).toBe('流拍（未达保留价¥1,000.00）')
    expect((await text(page, `price-${last}`)).replace(/\s+/g, ' ')).toBe('¥620.00 最高出价')
    expect(await text(page, `buyer-${last}`)).toContain(
      `${alice.mobile.slice(0, 3)}****${alice.mobile.slice(7)}`,
    )
    expect(await text(page, `buyer-${last}`)).toContain('最高出价人')
    expect((await text(page, 'sold-count')).replace(/\s/g, '')).toContain('1/3')
    expect((await text(page, 'sell-through')).replace(/\s/g, '')).toContain('33.3%')
    const soldRow = page.locator('tr', {
      has: page.locator(`[data-testid=outcome-${sale.lots[0]!.id}]`),
    })
    await expect.poll(() => soldRow.innerText()).toContain('待付款')
    await screenshot(page, 'console-sales-results')

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-testid=export-csv]').click(),
    ])
    const csv = fs.readFileSync(await download.path(), 'utf8')
    expect(csv).toContain('拍品号,拍品,结果')
    expect(csv).toContain('成交率,33.3%')
    expect(csv).toContain('"流拍（未达保留价 ¥1,000.00）",1000.00,,620.00,1,,,')
    expect(csv).toContain('流拍（无人出价）')

    // Relist lot 2 (no bids) into the open special.
    const unsold = sale.lots[1]!.id
    const row = page.locator('tr', { has: page.locator(`[data-testid=outcome-${unsold}]`) })
    await row.locator('[data-testid=relist]').click()
    const dialog = page.locator('.ant-modal')
    await dialog.locator('.ant-select').first().click()
    await page.keyboard.type(`E2E 重新上拍专场 ${process.pid}`)
    await page.keyboard.press('Enter')
    await screenshot(page, 'console-sales-relist')
    await clickSteady(dialog.locator('.ant-modal-footer .ant-btn-primary'))
    await expect.poll(() => row.innerText()).toContain(`已重新上拍：专场 ${target.specialId}`)
    expect(await row.locator('[data-testid=relist]').count()).toBe(0)
    await screenshot(page, 'console-sales-results-relisted')

    // The new lot is live in the target special.
    await page.goto(`/admin/sales/live?special=${target.specialId}`)
    await expect.poll(() => page.locator('tbody tr').first().innerText()).toContain('E2E 拍品')
    await context.close()
  })

  it('a cashier opens the overdue orders from the sales menu (none are overdue three days into a fresh run)', async () => {
    const { context, page } = await consoleContext(browser, ['cashier'])
    await page.goto('/admin/sales/overdue')
    await expect
      .poll(() => page.locator('.ant-pro-page-container').innerText())
      .toContain('逾期订单')
    await expect
      .poll(() => page.locator('.ant-pro-sider .ant-menu-title-content').allInnerTexts())
      .toContain('逾期订单')
    await expect
      .poll(() => page.locator('.ant-table-placeholder').innerText())
      .toContain('暂无逾期订单')
    await screenshot(page, 'console-sales-overdue')
    await context.close()
  })
})
