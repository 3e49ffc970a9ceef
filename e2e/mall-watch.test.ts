import type { WatchedMallItem } from '@numisma/contracts/mall'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
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

/** A finger dragged right to left across a row (SwipeAction follows touch, not the mouse). */
async function swipeLeft(page: Page, row: Locator): Promise<void> {
  const box = await row.boundingBox()
  if (!box) throw new Error('the row is not on screen')
  const cdp = await page.context().newCDPSession(page)
  const y = box.y + box.height / 2
  const start = box.x + box.width - 16
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x: number) =>
    cdp.send('Input.dispatchTouchEvent', {
      type,
      touchPoints: type === 'touchEnd' ? [] : [{ x, y }],
    })
  await touch('touchStart', start)
  for (let step = 1; step <= 10; step++) await touch('touchMove', start - step * 20)
  await touch('touchEnd', start - 200)
  await cdp.detach()
}

describe('the mall tab of /myLike', () => {
  it('lists the mall items I watch, newest first, and a swipe stops watching one', async () => {
    const staff = await staffSession()
    const stamp = `${process.pid}-${Date.now() % 100_000}`
    const older = await staff.post<{ productNo: string }>('/mall-items', {
      title: `E2E 熊猫银币30克 ${stamp}`,
      price: 32_800,
      stock: 6,
    })
    const newer = await staff.post<{ productNo: string }>('/mall-items', {
      title: `E2E 钱币评级盒 ${stamp}`,
      price: 4_800,
      stock: 0,
    })
    const { context, page, user } = await signedInContext(browser)
    try {
      for (const item of [older, newer]) {
        await dataOf(mainCall(`/mall/attention/${item.productNo}`, { as: user, method: 'POST' }))
      }
      const toasts = await recordToasts(page)
      await page.goto('/myLike?tab=mall')

      const rows = page.locator('[data-testid=watched-mall-item]')
      await expect.poll(() => rows.count()).toBe(2)
      expect(await rows.evaluateAll((els) => els.map((el) => el.dataset.productNo))).toEqual([
        newer.productNo,
        older.productNo,
      ])
      const first = (await rows.nth(0).innerText()).replace(/\s+/g, '')
      expect(first).toContain('已售罄')
      expect(first).toContain('¥48.00')
      expect((await rows.nth(1).innerText()).replace(/\s+/g, '')).toContain('库存6件')
      await screenshot(page, 'my-like-mall')

      await swipeLeft(page, rows.nth(1))
      const unwatch = page
        .locator('.adm-swipe-action')
        .filter({ has: page.locator(`[data-product-no="${older.productNo}"]`) })
        .getByRole('button', { name: '取消关注' })
      // The swipe brought the button onto the screen (it waits off its right edge until then).
      await expect.poll(async () => (await unwatch.boundingBox())?.x ?? 999).toBeLessThan(300)
      await screenshot(page, 'my-like-mall-swiped')
      await unwatch.click()
      await expect.poll(() => rows.count()).toBe(1)
      expect(await rows.first().getAttribute('data-product-no')).toBe(newer.productNo)
      await expect.poll(toasts).toContain('已取消关注')

      // The server agrees: the unwatched item is gone from the list, the other stays.
      const watched = await dataOf<WatchedMallItem[]>(
        mainCall('/user/auction/queryUserMallAttentions', { as: user }),
      )
      expect(watched.map((i) => i.productNo)).toEqual([newer.productNo])

      // Tapping a row opens the item's page.
      await rows.first().click()
      await page.waitForURL(/\/productDetail\?productNo=/)
      expect(new URL(page.url()).searchParams.get('productNo')).toBe(newer.productNo)
    } finally {
      await context.close()
    }
  })

  it('says so when nothing is watched, with the way to the mall', async () => {
    const { context, page } = await signedInContext(browser)
    try {
      await page.goto('/myLike?tab=mall')
      await page.getByText('暂无关注的商城商品', { exact: false }).waitFor()
      await page.getByRole('button', { name: '去商城逛逛' }).click()
      await page.waitForURL(/\/categoryDetail\?type=mall/)
    } finally {
      await context.close()
    }
  })
})
