import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  bidAs,
  buildSpecial,
  createSpecialWithLots,
  createUser,
  creditDeposit,
  launchBrowser,
  phoneContext,
  screenshot,
  signedInContext,
  staffSession,
} from './fixtures'
import { waitClosed } from './closing'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser.close())

const bar = (page: Page) => page.locator('[data-testid=bid-bar]')
/** Visible text without the breaks the price's spans put between ¥, yuan and cents. */
const flat = async (page: Page, selector = '#root') =>
  (await page.locator(selector).innerText()).replace(/\s+/g, '')

describe('closed lots', () => {
  it('tell the winner they won and where to pay, the loser they lost, and call an unsold lot unsold', async () => {
    const staff = await staffSession()
    const [winner, loser] = await Promise.all([createUser(), createUser()])
    await Promise.all([creditDeposit(staff, winner, 100_000), creditDeposit(staff, loser, 100_000)])
    // Closes in a few seconds, without soft close, so the bids below cannot push the end out.
    const { lots } = await createSpecialWithLots(
      staff,
      buildSpecial({ endsInMs: 12_000, softCloseWindowSeconds: 0, staggerSeconds: 1 }),
      [
        { title: '光绪元宝 库平七钱二分 北洋造 PCGS AU55', startPrice: 62_000 },
        { title: '民国三年袁世凯像壹圆 NGC MS61', startPrice: 112_000 },
        { title: '1980年贰角 纸币 PMG 66EPQ', startPrice: 50_000, reservePrice: 100_000 },
      ],
    )
    const [sold, unsold, belowReserve] = lots.map((lot) => lot.id) as [number, number, number]

    await bidAs(loser, { lotId: sold, amount: 62_000 })
    await bidAs(winner, { lotId: sold, amount: 80_000, proxy: true })
    const loserAgain = await bidAs(loser, { lotId: sold, amount: 70_000 })
    expect(loserAgain.leading).toBe(false)
    await bidAs(loser, { lotId: belowReserve, amount: 50_000 })

    const won = await waitClosed(sold, winner)
    expect(won).toMatchObject({ status: 'sold', won: true, price: 71_000 })
    await waitClosed(unsold)
    await waitClosed(belowReserve)

    // The winner: congratulated, the hammer price, a way on to pay — and no "您当前领先".
    const w = await signedInContext(browser, winner)
    await w.page.goto(`/productDetail?id=${sold}`)
    const result = w.page.locator('[data-testid=lot-result]')
    await expect.poll(() => result.getAttribute('data-outcome')).toBe('won')
    expect(await flat(w.page, '[data-testid=bid-bar]')).toContain('成交价¥710.00')
    expect(await result.innerText()).toContain('恭喜拍得')
    const pay = w.page.locator('[data-testid=pay-link]')
    expect(await pay.getAttribute('href')).toBe('/order/list?tab=pay')
    await w.page.locator('[data-testid=item-title]').waitFor()
    expect(await flat(w.page)).not.toContain('您当前领先')
    await screenshot(w.page, 'lot-won')
    await pay.click()
    await w.page.waitForURL((url) => url.pathname === '/order/list')
    expect(new URL(w.page.url()).searchParams.get('tab')).toBe('pay')
    await w.context.close()

    // The other bidder: not won, the same hammer price.
    const l = await signedInContext(browser, loser)
    await l.page.goto(`/productDetail?id=${sold}`)
    await expect
      .poll(() => l.page.locator('[data-testid=lot-result]').getAttribute('data-outcome'))
      .toBe('lost')
    expect(await flat(l.page, '[data-testid=lot-result]')).toContain('未拍得')
    expect(await flat(l.page, '[data-testid=bid-bar]')).toContain('成交价¥710.00')
    await l.page.locator('[data-testid=item-title]').waitFor()
    await screenshot(l.page, 'lot-lost')

    // A lot whose highest bid missed the reserve: unsold, its start price, and that bid said as such.
    await l.page.goto(`/productDetail?id=${belowReserve}`)
    await expect
      .poll(() => l.page.locator('[data-testid=lot-result]').getAttribute('data-outcome'))
      .toBe('lost')
    const belowText = await flat(l.page, '[data-testid=bid-bar]')
    expect(belowText).toContain('起拍价¥500.00')
    expect(belowText).toContain('最高出价¥500.00，未达保留价')
    expect(belowText).not.toMatch(/成交价|结拍价/)
    await l.context.close()

    // An unsold lot nobody bid on, to anyone: 流拍 and its start price, never a hammer price.
    const context = await phoneContext(browser)
    const page = await context.newPage()
    await page.goto(`/productDetail?id=${unsold}`)
    await expect
      .poll(() => page.locator('[data-testid=lot-result]').getAttribute('data-outcome'))
      .toBe('unsold')
    await page.locator('[data-testid=item-title]').waitFor()
    const text = await flat(page)
    expect(await flat(page, '[data-testid=bid-bar]')).toContain('起拍价¥1,120.00')
    expect(text).toContain('流拍')
    expect(text).not.toMatch(/成交价|结拍价/)
    expect(await bar(page).locator('[data-testid=pay-link]').count()).toBe(0)
    await screenshot(page, 'lot-unsold')
    await context.close()
  })
})
