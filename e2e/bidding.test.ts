import { formatFen } from '@numisma/contracts/money'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  buildSpecial,
  createSpecialWithLots,
  createUser,
  creditDeposit,
  launchBrowser,
  screenshot,
  signedInContext,
  staffSession,
} from './fixtures'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser.close())

const yuan = (fen: number) => `¥${formatFen(fen)}`
const escape = (text: string) => text.replace(/[.$]/g, '\\$&')
const bar = (page: Page) => page.locator('[data-testid=bid-bar]')
/** The bar's text without the line breaks the price's spans put between ¥, yuan and cents. */
const barText = async (page: Page) => (await bar(page).innerText()).replace(/\s+/g, '')
const amountOf = async (page: Page) =>
  Number(await page.locator('[data-testid=bid-amount]').getAttribute('data-fen'))

/** Presses the bid button and confirms the dialog, checking what it asks. */
async function bidAndConfirm(page: Page, question: RegExp): Promise<void> {
  await page.locator('[data-testid=bid-submit]').click()
  const dialog = page.locator('.adm-dialog-body')
  await dialog.waitFor()
  expect(await dialog.innerText()).toMatch(question)
  // What winning at this price costs is said before the bid: the 10% handling fee and its days.
  expect(await dialog.locator('[data-testid=bid-fee-note]').innerText()).toMatch(
    /^成交另收 10% 手续费（按此价为 ¥[\d,]+\.\d{2}），须于成交后 3 天内付款。$/,
  )
  await screenshot(page, 'bid-confirm')
  await dialog.getByRole('button', { name: '确定' }).click()
  await dialog.waitFor({ state: 'detached' })
}

/** Taps the amount and types whole yuan on the keypad, then confirms it. */
async function typeAmount(page: Page, yuanDigits: string): Promise<void> {
  // Headless Chromium runs animation frames only in the page in front: the keypad slides in.
  await page.bringToFront()
  await page.locator('[data-testid=bid-amount] .adm-virtual-input').click()
  // The popup's own box is empty (its body is fixed to the bottom): wait on the body.
  const keypad = page.locator('.adm-number-keyboard-popup .adm-popup-body')
  await keypad.waitFor()
  for (const digit of yuanDigits) {
    await keypad.getByRole('button', { name: digit, exact: true }).click()
  }
  await screenshot(page, `typed-bid-keypad-${yuanDigits}`)
  await keypad.locator('.adm-number-keyboard-key-ok').click()
  await keypad.waitFor({ state: 'hidden' })
}

describe('bidding', () => {
  it('two collectors bid on one lot: live prices, outbid notice, a typed proxy, why a bid does not lead, and the lists', async () => {
    const staff = await staffSession()
    const { lots } = await createSpecialWithLots(staff, buildSpecial(), [{ startPrice: 62_000 }])
    const lotId = lots[0]!.id
    const lotUrl = `/productDetail?id=${lotId}`
    const users = await Promise.all([createUser(), createUser()])
    await Promise.all(users.map((user) => creditDeposit(staff, user, 100_000)))
    const [sa, sb] = await Promise.all(users.map((user) => signedInContext(browser, user)))
    const a = sa!.page
    const b = sb!.page
    for (const page of [a, b]) {
      await page.goto(lotUrl)
      await bar(page).waitFor()
      await expect.poll(() => amountOf(page)).toBe(62_000)
      expect(await barText(page)).toContain('起拍价¥620.00')
    }

    // A bids the minimum: the start price.
    await bidAndConfirm(a, new RegExp(`确认出价 ${escape(yuan(62_000))}`))
    await expect.poll(() => a.locator('[data-testid=bid-standing]').innerText()).toContain('领先')
    // The direct button is closed to the leader.
    await expect.poll(() => a.locator('[data-testid=bid-submit]').innerText()).toContain('您已领先')

    // B sees A's bid arrive without a reload, and the stepper moves to the next valid amount.
    await expect.poll(() => b.locator('[data-testid=bid-count]').innerText()).toContain('出价 1 次')
    await expect.poll(() => amountOf(b), { timeout: 5000 }).toBe(63_000)

    // B bids ¥630; A sees it live and is told they were outbid.
    await bidAndConfirm(b, /确认出价/)
    await expect.poll(() => b.locator('[data-testid=bid-standing]').innerText()).toContain('领先')
    await expect.poll(() => a.locator('[data-testid=bid-count]').innerText()).toContain('出价 2 次')
    await expect.poll(() => barText(a)).toContain('当前价¥630.00')
    await a.locator('.adm-toast-main', { hasText: '您的出价已被超越' }).waitFor()
    await expect
      .poll(() => a.locator('[data-testid=bid-standing]').innerText())
      .toContain('已被超越')

    // A types a proxy maximum instead of tapping + eighteen times: ¥803 is off the grid, so the
    // bar offers the two nearest valid amounts; A picks ¥800.
    await a.locator('[data-mode=proxy]').click()
    await typeAmount(a, '803')
    const hint = a.locator('[data-testid=typed-hint]')
    expect(await hint.getAttribute('data-kind')).toBe('off-grid')
    const choices = hint.locator('[data-testid=grid-choice]')
    expect(
      await choices.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-fen'))),
    ).toEqual(['80000', '81000'])
    await expect.poll(() => a.locator('[data-testid=bid-submit]').isDisabled()).toBe(true)
    await screenshot(a, 'typed-bid-off-grid')
    await choices.first().click()
    expect(await amountOf(a)).toBe(80_000)
    await bidAndConfirm(a, new RegExp(`确认委托上限 ${escape(yuan(80_000))}`))
    await expect
      .poll(() => a.locator('[data-testid=bid-standing]').innerText())
      .toMatch(new RegExp(`领先[\\s\\S]*委托上限 ${escape(yuan(80_000))}`))
    await b.locator('.adm-toast-main', { hasText: '您的出价已被超越' }).waitFor()

    // B types an amount under the minimum and is told the minimum.
    await expect.poll(() => barText(b)).toContain('当前价¥640.00')
    await typeAmount(b, '100')
    const low = b.locator('[data-testid=typed-hint]')
    expect(await low.getAttribute('data-kind')).toBe('below-minimum')
    expect((await low.innerText()).replace(/\s+/g, '')).toContain('最低可出¥650.00')

    // B bids ¥800 straight: accepted, but A's earlier proxy of ¥800 keeps the lead, and B is told
    // that rule and what it takes now.
    await typeAmount(b, '800')
    expect(await amountOf(b)).toBe(80_000)
    await bidAndConfirm(b, new RegExp(`确认出价 ${escape(yuan(80_000))}`))
    const why = b.locator('[data-testid=not-leading]')
    await why.waitFor()
    await screenshot(b, 'typed-bid-not-leading')
    expect((await why.innerText()).replace(/\s+/g, '')).toBe(
      '另一位买家更早设置了不低于此金额的委托，仍然领先；请出价¥810.00或以上',
    )
    await expect.poll(() => barText(a)).toContain('当前价¥800.00')
    expect(await a.locator('[data-testid=bid-standing]').innerText()).toContain('领先')

    // My bids: A leads, B is outbid.
    await a.goto('/myBuy')
    await a.locator(`[data-testid=my-bids] [data-lot-id="${lotId}"]`).waitFor()
    await b.goto('/myBuy?tab=outbid')
    await b.locator(`[data-testid=my-bids] [data-lot-id="${lotId}"]`).waitFor()
    expect(await b.locator('[data-testid=my-bids]').innerText()).toContain('出局')

    // My proxy bids: A's is active; cancelling it (after confirming) moves it to 已取消.
    await a.goto('/myEntrust')
    const item = a.locator(
      `[data-testid=my-proxy-bids] [data-testid=proxy-bid][data-lot-id="${lotId}"]`,
    )
    await item.waitFor()
    expect((await item.innerText()).replace(/\s+/g, '')).toContain(yuan(80_000))
    await item.locator('[data-testid=cancel-proxy]').click()
    const dialog = a.locator('.adm-dialog-body')
    await dialog.waitFor()
    await dialog.getByRole('button', { name: '取消委托' }).click()
    await item.waitFor({ state: 'detached' })
    await a.locator('.adm-tabs-tab', { hasText: '已取消' }).click()
    await a
      .locator(`[data-testid=my-proxy-bids] [data-testid=proxy-bid][data-lot-id="${lotId}"]`)
      .waitFor()

    await Promise.all([sa!.context.close(), sb!.context.close()])
  })
})
