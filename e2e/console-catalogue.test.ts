import { formatChinaDate } from '@numisma/contracts/dates'
import type { StaffSpecialDetail } from '@numisma/contracts/staff-catalogue'
import type { Browser, Page } from 'playwright-core'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { clickSteady, consoleContext } from './console'
import {
  baseUrl,
  buildSpecial,
  createSpecialWithLots,
  launchBrowser,
  phoneContext,
  screenshot,
  staffSession,
} from './fixtures'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser.close())

const HOUR = 3_600_000
/** A date picker's text for an instant, China time (what the console shows and reads). */
const picked = (ms: number) => formatChinaDate(ms, 'YYYY-MM-DD HH:mm')

async function asAdmin<T>(path: string): Promise<T> {
  const res = await fetch(`${baseUrl()}/svc/main/admin${path}`, {
    headers: { cookie: inject('staffCookie') },
  })
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { data: T }).data
}

/** Lets a drawer's or a dropdown's animation finish before a screenshot. */
const settle = (page: Page) => page.waitForTimeout(500)

/** A photo-like JPEG: a silver coin on a grey cloth. */
function coinPhoto(width: number, height: number, label: string): Promise<Buffer> {
  const r = Math.round(Math.min(width, height) * 0.4)
  return sharp({
    create: { width, height, channels: 3, background: { r: 200, g: 200, b: 205 } },
  })
    .composite([
      {
        input: Buffer.from(
          `<svg width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2}" r="${r}" fill="#b8b8c0" stroke="#8a8a92" stroke-width="${r / 20}"/><text x="${width / 2}" y="${height / 2 + r / 8}" font-size="${r / 3}" text-anchor="middle" fill="#555">${label}</text></svg>`,
        ),
      },
    ])
    .jpeg()
    .toBuffer()
}

/** The open drawer's own submit button (not a date picker's 确定 inside it). */
const submitDrawer = (page: Page) =>
  clickSteady(page.locator('.ant-drawer-footer button.ant-btn-primary'))

/** Types a time into the range picker's focused side and confirms it (its panel's 确定). */
async function typeTime(page: Page, input: ReturnType<Page['locator']>, value: string) {
  await input.click()
  await input.fill(value)
  await clickSteady(
    page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden) .ant-picker-ok button'),
  )
}

describe('the catalogue pages', () => {
  it('lets a cataloguer create a special, add a photographed lot, import two by CSV, and the shop shows them', async () => {
    const { context, page } = await consoleContext(browser, ['cataloguer'])
    const tag = `${process.pid}-${Date.now() % 100_000}`
    const title = `E2E 目录 ${tag} 机制币专场`

    // 专场管理 → 新建专场: starts in an hour, first lot closes a day later.
    await page.goto('/admin/catalogue/specials')
    await page.getByRole('button', { name: '新建专场' }).click()
    const drawer = page.getByRole('dialog')
    await drawer.getByLabel('标题', { exact: true }).fill(title)
    await drawer.getByLabel('副标题').fill('清代民国机制银币 · 晚八点起依次结拍')
    const range = drawer.locator('.ant-picker-range input')
    const startsAt = Date.now() + HOUR
    const endsAt = Date.now() + 26 * HOUR
    await typeTime(page, range.first(), picked(startsAt))
    await typeTime(page, range.last(), picked(endsAt))
    await drawer.locator('.ant-drawer-title').click()
    await drawer.getByLabel('错开间隔（秒）').fill('60')
    await drawer.getByLabel('描述').fill('本场汇集清代至民国机制银币，均经评级。')
    await drawer.locator('input[type=file]').setInputFiles({
      name: 'cover.jpg',
      mimeType: 'image/jpeg',
      buffer: await coinPhoto(1600, 900, '机制币专场'),
    })
    await drawer.locator('.ant-upload-list-item-done').first().waitFor()
    await settle(page)
    await screenshot(page, 'console-catalogue-new-special')
    await submitDrawer(page)

    // The new special's page.
    await page.waitForURL(/\/admin\/catalogue\/specials\/\d+$/)
    const specialId = Number(/specials\/(\d+)$/.exec(page.url())![1])
    await expect.poll(() => page.locator('.ant-card-head').first().innerText()).toContain(title)
    const created = await asAdmin<StaffSpecialDetail>(`/specials/${specialId}`)
    expect(created).toMatchObject({ status: 'preview', staggerSeconds: 60, lotCount: 0 })
    expect(created.cover).toMatch(/^\/svc\/media\/photos\/[a-f0-9]{32}\/full\.jpg$/)
    expect(picked(Date.parse(created.startsAt))).toBe(picked(startsAt))

    // 添加拍品 with two photos chosen in one pick, 正面 (landscape) then 背面 (square); the 正面's
    // upload is held back so it finishes last, and still it stays first: the cover.
    const front = await coinPhoto(1600, 1200, '正面')
    const back = await coinPhoto(1000, 1000, '背面')
    expect(front.length).toBeGreaterThan(back.length * 1.2)
    await page.route('**/svc/main/admin/photos', async (route) => {
      if ((route.request().postData() ?? '').length > back.length * 1.5) {
        await new Promise((resolve) => setTimeout(resolve, 2_000))
      }
      await route.continue()
    })
    await page.getByRole('button', { name: '添加拍品' }).click()
    const lotDrawer = page.getByRole('dialog')
    await lotDrawer.locator('input[type=file]').setInputFiles([
      { name: 'front.jpg', mimeType: 'image/jpeg', buffer: front },
      { name: 'back.jpg', mimeType: 'image/jpeg', buffer: back },
    ])
    // 背面 is in while 正面 still uploads: 正面's card keeps the first place.
    await lotDrawer.locator('.ant-upload-list-item-done').first().waitFor()
    const cards = lotDrawer.locator('.ant-upload-list-item')
    expect(await cards.nth(0).getAttribute('class')).toContain('ant-upload-list-item-uploading')
    expect(await cards.nth(1).getAttribute('class')).toContain('ant-upload-list-item-done')
    await screenshot(page, 'console-catalogue-photo-order')
    await expect.poll(() => lotDrawer.locator('.ant-upload-list-item-done').count()).toBe(2)
    await page.unroute('**/svc/main/admin/photos')
    const lotTitle = `E2E 目录 ${tag} 光绪元宝 广东省造 七钱二分`
    await lotDrawer.getByLabel('标题', { exact: true }).fill(lotTitle)
    await lotDrawer.getByLabel('起拍价（元）').fill('625')
    await lotDrawer.getByLabel('保留价（元）').click()
    await expect
      .poll(() => lotDrawer.locator('.ant-form-item-explain-error').first().innerText())
      .toContain('可改为 620.00 或 630.00 元')
    await lotDrawer.getByLabel('起拍价（元）').fill('620')
    await lotDrawer.getByLabel('保留价（元）').fill('1000')
    await lotDrawer.getByLabel('评级公司').click()
    await clickSteady(
      page.locator(
        '.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option',
        { hasText: 'PCGS' },
      ),
    )
    await lotDrawer.getByLabel('证书号').fill('45123789')
    await lotDrawer.getByLabel('禁止出境').click()
    await lotDrawer.locator('.ant-drawer-body').evaluate((body) => body.scrollTo(0, 0))
    await settle(page)
    await screenshot(page, 'console-catalogue-lot-form')
    await submitDrawer(page)
    const lotRow = page.locator('tr', { hasText: lotTitle })
    await expect.poll(() => lotRow.innerText()).toContain('¥620.00')
    await expect
      .poll(() => lotRow.locator('img').getAttribute('src'))
      .toMatch(/^\/svc\/media\/photos\/[a-f0-9]{32}\/thumb\.jpg$/)

    // 批量导入: a file with a mistake is refused line by line, then the fixed one imports.
    await page.getByRole('button', { name: '批量导入' }).click()
    await page.waitForURL(/\/admin\/catalogue\/import\?special=\d+$/)
    const header = 'title,startPrice,reservePrice,gradingService,certNo,exportBanned'
    const good = [
      `E2E 目录 ${tag} 袁世凯像 民国三年 壹圆,300,,,,`,
      `E2E 目录 ${tag} 孙中山像 船洋 壹圆,1200,1500,NGC,6021534-004,是`,
    ]
    const csvBox = page.getByTestId('lot-import-csv')
    await csvBox.fill(
      [header, good[0], `E2E 目录 ${tag} 孙中山像 船洋 壹圆,1210,1000,XYZ,,`].join('\n'),
    )
    await page.getByRole('button', { name: '校验' }).click()
    const errors = page.locator('.ant-table-wrapper', { hasText: '错误代码' })
    await expect.poll(() => errors.innerText()).toContain('BID_OFF_GRID')
    expect(await errors.locator('tbody tr.ant-table-row').count()).toBe(2)
    expect(await page.getByRole('button', { name: '导入' }).isDisabled()).toBe(true)
    await screenshot(page, 'console-catalogue-import-errors')

    await csvBox.fill([header, ...good].join('\n'))
    await page.getByRole('button', { name: '校验' }).click()
    await expect
      .poll(() => page.locator('.ant-alert-success').innerText())
      .toContain('共 2 行，全部通过校验')
    await screenshot(page, 'console-catalogue-import-checked')
    await page.getByRole('button', { name: '导入' }).click()
    await expect
      .poll(() => page.locator('.ant-result-title').innerText())
      .toContain('已导入 2 件拍品')
    await screenshot(page, 'console-catalogue-import-done')

    const detail = await asAdmin<StaffSpecialDetail>(`/specials/${specialId}`)
    expect(detail.lots.map((l) => [l.lotNo, l.startPrice])).toEqual([
      [1, 62_000],
      [2, 30_000],
      [3, 120_000],
    ])
    expect(detail.lots[0]).toMatchObject({
      gradingService: 'PCGS',
      certNo: '45123789',
      exportBanned: true,
      reservePrice: 100_000,
    })
    expect(detail.lots[2]).toMatchObject({ gradingService: 'NGC', exportBanned: true })
    // The saved lot's photos are in the order chosen: the landscape 正面 first, then 背面.
    const shapes = await Promise.all(
      detail.lots[0]!.images.map(async (url) => {
        const res = await fetch(`${baseUrl()}${url}`)
        const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata()
        return meta.width > meta.height ? 'landscape' : 'square'
      }),
    )
    expect(shapes).toEqual(['landscape', 'square'])
    expect(Date.parse(detail.lots[2]!.endsAt) - Date.parse(detail.lots[0]!.endsAt)).toBe(120_000)

    // The special's page lists all three.
    await page.getByRole('button', { name: '查看专场' }).click()
    await expect.poll(() => page.locator('.ant-table-tbody tr.ant-table-row').count()).toBe(3)
    await screenshot(page, 'console-catalogue-special')

    // The list, and the special's edit drawer.
    await page.goto('/admin/catalogue/specials')
    const listRow = page.locator('tr', { hasText: title })
    await expect.poll(() => listRow.innerText()).toContain('预展中')
    await screenshot(page, 'console-catalogue-specials')
    await listRow.getByText('编辑', { exact: true }).click()
    await expect
      .poll(() => page.getByRole('dialog').getByLabel('标题', { exact: true }).inputValue())
      .toBe(title)
    await settle(page)
    await screenshot(page, 'console-catalogue-edit-special')
    await context.close()

    // The shop's special page shows the lots.
    const phone = await phoneContext(browser)
    const shop = await phone.newPage()
    await shop.goto(`/specialDetail?id=${specialId}`)
    await expect.poll(() => shop.locator('body').innerText()).toContain(`${tag} 孙中山像 船洋 壹圆`)
    await expect.poll(() => shop.locator('body').innerText()).toContain(`${tag} 光绪元宝`)
    await screenshot(shop, 'console-catalogue-shop-special')
    await phone.close()
  })

  it('offers no adding or importing on a special that has ended, and the import page refuses it', async () => {
    const staff = await staffSession()
    const { specialId } = await createSpecialWithLots(
      staff,
      buildSpecial({ endsInMs: 6_000, staggerSeconds: 1, softCloseWindowSeconds: 0 }),
      [{}],
    )
    await expect
      .poll(async () => (await asAdmin<StaffSpecialDetail>(`/specials/${specialId}`)).status)
      .toBe('ended')
    const { context, page } = await consoleContext(browser, ['cataloguer'])

    await page.goto(`/admin/catalogue/specials/${specialId}`)
    const add = page.getByRole('button', { name: '添加拍品' })
    const importLots = page.getByRole('button', { name: '批量导入' })
    await expect.poll(() => add.isDisabled()).toBe(true)
    expect(await importLots.isDisabled()).toBe(true)
    await add.hover({ force: true })
    await expect
      .poll(() => page.locator('.ant-tooltip:not(.ant-tooltip-hidden)').innerText())
      .toBe('专场已结束，不能再添加或导入拍品')
    await settle(page)
    await screenshot(page, 'console-catalogue-special-ended')

    // Reached by its address, the import page names the reason and offers neither check nor import.
    await page.goto(`/admin/catalogue/import?special=${specialId}`)
    await expect
      .poll(() => page.locator('.ant-alert-error').innerText())
      .toContain('所选专场已结束，不能再导入拍品')
    await page.getByTestId('lot-import-csv').fill('title,startPrice\n袁世凯像 壹圆,300')
    expect(await page.getByRole('button', { name: '校验' }).isDisabled()).toBe(true)
    expect(await page.getByRole('button', { name: '导入' }).isDisabled()).toBe(true)
    await screenshot(page, 'console-catalogue-import-ended')
    await context.close()
  })
})
