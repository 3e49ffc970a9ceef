import { formatChinaDate } from '@numisma/contracts/dates'
import type { StaffBanner, StaffCoupon, StaffMallItemPage } from '@numisma/contracts/staff-settings'
import { DEFAULT_PRICE_STEPS } from '@numisma/domain/increments'
import type { Browser, Page } from 'playwright-core'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { clickSteady, consoleContext } from './console'
import { baseUrl, launchBrowser, phoneContext, screenshot } from './fixtures'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser.close())

const DAY = 86_400_000
/** A date picker's text for an instant, China time (what the console shows and reads). */
const picked = (ms: number) => formatChinaDate(ms, 'YYYY-MM-DD HH:mm')

/** The run's admin, for reading back and tidying what the journey changed in the shared shop. */
async function asAdmin<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl()}/svc/main/admin${path}`, {
    method,
    headers: {
      cookie: inject('staffCookie'),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { data: T }).data
}

/** The open form's own submit button (not a date picker's 确定 inside it). */
const confirm = (page: Page) =>
  clickSteady(
    page.locator(
      '.ant-modal-footer button.ant-btn-primary, .ant-drawer-footer button.ant-btn-primary',
    ),
  )

/** Waits until no dialog is open (its closing animation done), for a clean screenshot. */
const closed = (page: Page) =>
  expect.poll(() => page.locator('.ant-modal:visible').count(), { timeout: 5_000 }).toBe(0)

async function pickDate(page: Page, label: string, value: string) {
  const input = page.getByRole('dialog').getByLabel(label)
  await input.click()
  await input.fill(value)
  // A picker with a time column keeps its panel open until its own 确定.
  const panel = page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)')
  await clickSteady(panel.locator('.ant-picker-ok button'))
  // Gone, not only fading out, before the next field or a screenshot.
  await expect.poll(() => panel.count(), { timeout: 5_000 }).toBe(0)
}

describe('the shop settings pages', () => {
  it('lets a cataloguer add a mall item, a banner, a coupon and an increment band the shop then shows', async () => {
    const { context, page } = await consoleContext(browser, ['cataloguer'])
    const tag = `${process.pid}-${Date.now() % 100_000}`
    const title = `E2E 设置 ${tag} 熊猫金币`

    // 商城商品: a new item with stock, a photo, a description and a grade, all in the one form.
    const photo = await sharp({
      create: { width: 600, height: 600, channels: 3, background: { r: 212, g: 175, b: 55 } },
    })
      .png()
      .toBuffer()
    await page.goto('/admin/settings/mall-items')
    await page.getByRole('button', { name: '新建商品' }).click()
    const form = page.locator('.ant-drawer-content')
    await form
      .locator('input[type=file]')
      .setInputFiles({ name: 'panda.png', mimeType: 'image/png', buffer: photo })
    await form.locator('.ant-upload-list-item-done, .ant-upload-list-item img').first().waitFor()
    await form.getByLabel('标题', { exact: true }).fill(title)
    await form.getByLabel('副标题').fill('1盎司 原盒')
    await form.getByLabel('价格（元）').fill('388')
    await form.getByLabel('初始库存').fill('12')
    await form.getByLabel('年份').fill('2012')
    await form.getByLabel('评级编号').fill('40123456')
    await form.getByLabel('商品描述').fill('原盒原证，品相如图。')
    // The form's top (photo, title, price, stock) in the picture, not the last field typed in.
    await form.locator('.ant-drawer-body').evaluate((body) => body.scrollTo(0, 0))
    await screenshot(page, 'console-settings-new-mall-item')
    await confirm(page)
    const row = page.locator('tr', { hasText: title })
    await expect.poll(() => row.innerText()).toContain('388.00')
    const items = await asAdmin<StaffMallItemPage>(
      'GET',
      `/mall-items?keyword=${encodeURIComponent(tag)}`,
    )
    const item = items.items[0]!
    expect(item).toMatchObject({
      title,
      subtitle: '1盎司 原盒',
      description: '原盒原证，品相如图。',
      year: '2012',
      certNo: '40123456',
      price: 38_800,
      stock: 12,
      onSale: true,
    })
    expect(item.images).toHaveLength(1)
    expect(item.images[0]).toMatch(/^\/svc\/media\/photos\/[a-f0-9]{32}\/full\.jpg$/)

    // Stock: take 2 off the shelf through the row's form.
    await row.getByText('调整库存').click()
    await page.getByRole('dialog').getByLabel('增减数量').fill('-2')
    await confirm(page)
    await expect
      .poll(
        async () =>
          (await asAdmin<StaffMallItemPage>('GET', `/mall-items?keyword=${tag}`)).items[0]?.stock,
      )
      .toBe(10)
    await closed(page)
    await page.locator('tr', { hasText: title }).getByText('10', { exact: true }).waitFor()
    await screenshot(page, 'console-settings-mall-items')

    // Edit: a subtitle and a limit per buyer through the drawer.
    await page.locator('tr', { hasText: title }).getByText('编辑').click()
    const drawer = page.locator('.ant-drawer-content')
    await drawer.getByLabel('副标题').fill('熊猫30周年')
    await drawer.getByLabel('每人限购').fill('2')
    await screenshot(page, 'console-settings-edit-mall-item')
    await confirm(page)
    await expect
      .poll(
        async () =>
          (await asAdmin<StaffMallItemPage>('GET', `/mall-items?keyword=${tag}`)).items[0],
      )
      .toMatchObject({ subtitle: '熊猫30周年', limitPerUser: 2, stock: 10 })

    // 首页横幅: a banner with an uploaded picture linking to the item.
    const picture = await sharp({
      create: { width: 750, height: 320, channels: 3, background: { r: 178, g: 34, b: 34 } },
    })
      .png()
      .toBuffer()
    const bannerTitle = `E2E 横幅 ${tag}`
    await page.goto('/admin/settings/banners')
    await page.getByRole('button', { name: '新建横幅' }).click()
    const bannerDialog = page.getByRole('dialog')
    await bannerDialog
      .locator('input[type=file]')
      .setInputFiles({ name: 'banner.png', mimeType: 'image/png', buffer: picture })
    await bannerDialog
      .locator('.ant-upload-list-item-done, .ant-upload-list-item img')
      .first()
      .waitFor()
    await bannerDialog.getByLabel('标题', { exact: true }).fill(bannerTitle)
    await bannerDialog.getByLabel('链接').fill(`/productDetail?productNo=${item.productNo}`)
    await pickDate(page, '开始展示', picked(Date.now() - DAY))
    await screenshot(page, 'console-settings-new-banner')
    await confirm(page)
    await expect
      .poll(() => page.locator('tr', { hasText: bannerTitle }).innerText())
      .toContain('展示中')
    await closed(page)
    await screenshot(page, 'console-settings-banners')
    const banner = (await asAdmin<StaffBanner[]>('GET', '/banners')).find(
      (b) => b.title === bannerTitle,
    )!
    expect(banner.image).toMatch(/^\/svc\/media\/photos\/[a-f0-9]{32}\/full\.jpg$/)

    // 优惠券: a coupon for the item.
    const couponTitle = `E2E 券 ${tag}`
    await page.goto('/admin/settings/coupons')
    await page.getByRole('button', { name: '新建优惠券' }).click()
    const couponDialog = page.getByRole('dialog')
    await couponDialog.getByLabel('标题').fill(couponTitle)
    await couponDialog.getByLabel('使用门槛（元）').fill('300')
    await couponDialog.getByLabel('减免金额（元）').fill('20')
    await couponDialog.getByLabel('发放总量').fill('50')
    await pickDate(page, '开始时间', picked(Date.now() - DAY))
    await pickDate(page, '结束时间', picked(Date.now() + 7 * DAY))
    const productNos = couponDialog.getByLabel('指定商品货号')
    await productNos.fill(item.productNo)
    await productNos.press('Enter')
    await screenshot(page, 'console-settings-new-coupon')
    await confirm(page)
    await expect
      .poll(() => page.locator('tr', { hasText: couponTitle }).innerText())
      .toContain('发放中')
    await closed(page)
    await screenshot(page, 'console-settings-coupons')
    const coupon = (await asAdmin<StaffCoupon[]>('GET', '/coupons')).find(
      (c) => c.title === couponTitle,
    )!
    expect(coupon).toMatchObject({
      threshold: 30_000,
      amount: 2_000,
      total: 50,
      productNos: [item.productNo],
    })

    // 加价阶梯: a band above two million yuan (no other journey bids that high).
    await page.goto('/admin/settings/price-steps')
    const rows = DEFAULT_PRICE_STEPS.length
    await page.getByLabel(`第 ${rows} 档 起始价（元）`).waitFor()
    await page.getByRole('button', { name: '添加一档' }).click()
    await page.getByLabel(`第 ${rows + 1} 档 起始价（元）`).fill('2000000')
    await page.getByLabel(`第 ${rows + 1} 档 加价幅度（元）`).fill('15000')
    await expect.poll(() => page.locator('.ant-alert-error').innerText()).toContain('整数倍')
    await screenshot(page, 'console-settings-price-steps-refused')
    await page.getByLabel(`第 ${rows + 1} 档 加价幅度（元）`).fill('20000')
    await page.getByRole('button', { name: '保存阶梯' }).click()
    await expect
      .poll(async () => (await asAdmin<unknown[]>('GET', '/price-steps')).length)
      .toBe(rows + 1)
    await page
      .getByRole('button', { name: '保存阶梯' })
      .and(page.locator(':not(.ant-btn-loading)'))
      .waitFor()
    await screenshot(page, 'console-settings-price-steps')

    // 分类: the page opens on both trees.
    await page.goto('/admin/settings/categories')
    await page.getByText('拍品分类').first().waitFor()
    await screenshot(page, 'console-settings-categories')
    await page.getByRole('tab', { name: '商城分类' }).click()
    await page.getByRole('button', { name: '新建一级分类' }).waitFor()
    await screenshot(page, 'console-settings-mall-categories')
    await context.close()

    // The shop: the item with its coupon, the banner on the home page, the new band in the rules.
    const shop = await phoneContext(browser)
    const phone = await shop.newPage()
    try {
      await phone.goto(`/productDetail?productNo=${item.productNo}`)
      await expect
        .poll(() => phone.locator('body').innerText(), { timeout: 10_000 })
        .toContain(title)
      await phone.locator('[data-testid=coupons-entry]').click()
      await phone.locator(`[data-testid=receive-coupon-${coupon.id}]`).waitFor()
      await phone.goto('/')
      await expect
        .poll(() => phone.locator('.home-banners').textContent(), { timeout: 10_000 })
        .toContain(bannerTitle)
      await phone.goto('/rules')
      const last = phone.locator('[data-testid=price-steps] tbody tr').last()
      await expect.poll(() => last.innerText(), { timeout: 10_000 }).toContain('20,000')
    } finally {
      await shop.close()
      // The shop is shared with the other journeys: its table and home page go back as they were.
      await asAdmin('PUT', '/price-steps', { steps: DEFAULT_PRICE_STEPS })
      await asAdmin('DELETE', `/banners/${banner.id}`)
      await asAdmin('POST', `/coupons/${coupon.id}/stop`)
    }
  })
})
