import { formatFen } from '@numisma/contracts/money'
import { nextAmount } from '@numisma/domain/increments'
import type { UserStatistics } from '@numisma/contracts/user'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  baseUrl,
  bidAs,
  buildSpecial,
  createSpecialWithLots,
  createUser,
  creditDeposit,
  dataOf,
  launchBrowser,
  mainCall,
  screenshot,
  signedInContext,
  staffSession,
} from './fixtures'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser.close())

describe('the notices inbox', () => {
  it('an outbid shows as a badge in the user centre, reads in /notices, and the badge goes', async () => {
    const staff = await staffSession()
    const title = '光绪元宝 北洋造 卅四年 七钱二分'
    const { lots } = await createSpecialWithLots(staff, buildSpecial(), [
      { title, startPrice: 100_000 },
    ])
    const lotId = lots[0]!.id
    const [alice, bob] = [await createUser(), await createUser()]
    await creditDeposit(staff, alice, 1_000_000)
    await creditDeposit(staff, bob, 1_000_000)
    await bidAs(alice, { lotId, amount: 100_000 })
    const price = nextAmount(100_000)
    await bidAs(bob, { lotId, amount: price })

    const { context, page } = await signedInContext(browser, alice)
    await page.goto('/ucenter')
    const badge = page.locator('[data-testid=menu-notices-extra] .adm-badge')
    await badge.waitFor()
    expect(await badge.innerText()).toBe('1')
    await screenshot(page, 'notices-ucenter-badge')

    await page.locator('[data-testid=menu-notices]').click()
    await page.waitForURL((url) => url.pathname === '/notices')
    const notice = page.locator('[data-testid=notice][data-kind=outbid]')
    await notice.waitFor()
    expect(await page.locator('[data-testid=notice]').count()).toBe(1)
    const text = (await notice.innerText()).replace(/\s+/g, '')
    expect(text).toContain('您的出价已被超过')
    expect(text).toContain(`「${title.replace(/\s+/g, '')}」当前价¥${formatFen(price)}`)
    // Unread on this visit, and read on the server as soon as it was shown.
    expect(await notice.getAttribute('data-unread')).toBe('true')
    await expect
      .poll(async () => {
        const stats = await dataOf<UserStatistics>(mainCall('/user/@statistics', { as: alice }))
        return stats.counts.unreadNotices
      })
      .toBe(0)
    await screenshot(page, 'notices-list')

    // Tapping it opens the lot.
    await notice.locator('button').click()
    await page.waitForURL((url) => url.pathname === '/productDetail')
    expect(new URL(page.url()).searchParams.get('id')).toBe(String(lotId))

    // Back in the user centre the badge is gone; the notice is no longer marked unread.
    await page.goto('/ucenter')
    await page.locator('[data-testid=menu-notices]').waitFor()
    await page.waitForLoadState('networkidle')
    expect(await badge.count()).toBe(0)
    await page.goto('/notices')
    await notice.waitFor()
    expect(await notice.getAttribute('data-unread')).toBeNull()

    // In English for a reader who chose English: the notice is worded on the reader's side.
    await context.addCookies([{ name: 'lang', value: 'en', url: baseUrl() }])
    await page.reload()
    await notice.waitFor()
    const english = (await notice.innerText()).replace(/\s+/g, ' ')
    expect(english).toContain('You have been outbid')
    expect(english).toContain(`is now at ¥${formatFen(price)}`)
    await screenshot(page, 'notices-list-en')

    // Bob, who leads, was told nothing.
    const bobs = await dataOf<unknown[]>(mainCall('/user/notices', { as: bob }))
    expect(bobs).toEqual([])
    await context.close()
  })

  it('an empty inbox says so', async () => {
    const { context, page } = await signedInContext(browser)
    await page.goto('/notices')
    await page.getByText('暂无消息').waitFor()
    await screenshot(page, 'notices-empty')
    await context.close()
  })
})
