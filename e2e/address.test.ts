import type { Address } from '@numisma/contracts/address'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  dataOf,
  launchBrowser,
  mainCall,
  recordToasts,
  screenshot,
  signedInContext,
  type TestUser,
  baseUrl,
} from './fixtures'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser.close())

const addressesOf = (user: TestUser) => dataOf<Address[]>(mainCall('/user/address', { as: user }))

/**
 * Taps an entry of an open picker's column (wheel items off screen take a dispatched click) until
 * the wheel settles on it: a column the picker rebuilt meanwhile (a province's cities arriving)
 * may have reset it.
 */
async function pick(page: Page, picker: string, column: number, label: string): Promise<void> {
  const wheel = page.getByTestId(picker).locator('.adm-picker-view-column').nth(column)
  const item = wheel
    .locator('.adm-picker-view-column-item')
    .filter({ has: page.getByText(label, { exact: true }) })
  const active = wheel.locator('.adm-picker-view-column-item-active', { hasText: label })
  for (let attempt = 0; attempt < 5; attempt++) {
    await item.waitFor({ state: 'attached' })
    await item.dispatchEvent('click')
    await page.waitForTimeout(400)
    if ((await active.count()) === 1) return
  }
  throw new Error(`the picker did not settle on ${label}`)
}

async function fillAddress(
  page: Page,
  fields: { name: string; mobile: string; province: string; city: string; detail: string },
  shot?: string,
): Promise<void> {
  await page.locator('[data-testid=address-name] input').fill(fields.name)
  await page.locator('[data-testid=address-mobile] input').fill(fields.mobile)
  await page.locator('[data-testid=address-detail] textarea:not([readonly])').fill(fields.detail)
  await page.locator('[data-testid=address-region]').click()
  await page.getByTestId('address-region-picker').waitFor()
  await pick(page, 'address-region-picker', 0, fields.province)
  await pick(page, 'address-region-picker', 1, fields.city)
  if (shot) await screenshot(page, shot)
  await page
    .getByTestId('address-region-picker')
    .locator('.adm-picker-header-button', { hasText: '确定' })
    .click()
  await page
    .locator('[data-testid=address-region]', { hasText: `${fields.province} ${fields.city}` })
    .waitFor()
}

describe('shipping addresses', () => {
  it('adds two addresses with the cascade picker, moves the default, deletes one and picks one', async () => {
    const { page, user } = await signedInContext(browser)
    const toasts = await recordToasts(page)

    // From the user centre's entry; nothing yet: an honest empty state and the add button.
    await page.goto('/ucenter')
    await page.locator('[data-testid=menu-address]').click()
    await page.waitForURL('**/address/list')
    await page.getByText('还没有收货地址').waitFor()
    await screenshot(page, 'address-empty')

    // The first address: 广东省 → 深圳市, with China chosen already.
    await page.locator('[data-testid=address-add]').click()
    await page.waitForURL('**/address/edit')
    await page.locator('[data-testid=address-country]', { hasText: '中国' }).waitFor()
    await fillAddress(
      page,
      {
        name: '张三',
        mobile: '13800138000',
        province: '广东省',
        city: '深圳市',
        detail: '南山区科技园科苑路15号',
      },
      'address-picker',
    )
    await screenshot(page, 'address-edit')
    await page.locator('[data-testid=address-save]').click()
    await page.waitForURL('**/address/list')
    await page.locator('[data-testid=address-card]').first().waitFor()
    expect(await page.locator('[data-testid=address-default]').count()).toBe(1)

    // The second: a municipality, whose city level is its districts; a bad mobile is explained.
    await page.locator('[data-testid=address-add]').click()
    await page.waitForURL('**/address/edit')
    await fillAddress(page, {
      name: '李四',
      mobile: '12345678901',
      province: '北京市',
      city: '朝阳区',
      detail: '建国路88号SOHO现代城',
    })
    await page.locator('[data-testid=address-save]').click()
    await page.getByText('请输入正确的 11 位手机号').waitFor()
    await page.locator('.adm-toast-main').waitFor({ state: 'detached' })
    await screenshot(page, 'address-edit-invalid')
    await page.locator('[data-testid=address-mobile] input').fill('13900139000')
    await page.locator('[data-testid=address-save]').click()
    await page.waitForURL('**/address/list')
    await expect.poll(() => page.locator('[data-testid=address-card]').count()).toBe(2)

    let saved = await addressesOf(user)
    const zhang = saved.find((a) => a.name === '张三')
    const li = saved.find((a) => a.name === '李四')
    expect(zhang).toMatchObject({ provinceName: '广东省', cityName: '深圳市', isDefault: true })
    expect(li).toMatchObject({ provinceName: '北京市', cityName: '朝阳区', isDefault: false })
    if (!zhang || !li) throw new Error('addresses missing')
    await screenshot(page, 'address-list')

    // 李四 becomes the default: its card moves first with the tag.
    const liCard = page.locator(`[data-testid=address-card][data-address-id="${li.id}"]`)
    await liCard.locator('[data-testid=address-set-default]').click()
    await liCard.locator('[data-testid=address-default]').waitFor()
    await expect.poll(toasts).toContain('已设为默认地址')
    saved = await addressesOf(user)
    expect(saved.map((a) => [a.id, a.isDefault])).toEqual([
      [li.id, true],
      [zhang.id, false],
    ])

    // Deleting the default asks first, then 张三 is the default again.
    await page.locator('.adm-toast-main').waitFor({ state: 'detached' })
    await liCard.locator('[data-testid=address-delete]').click()
    await page.getByText('确定删除这个收货地址吗？').waitFor()
    await screenshot(page, 'address-delete-confirm')
    await page.locator('.adm-dialog-button', { hasText: '删除' }).click()
    await expect.poll(() => page.locator('[data-testid=address-card]').count()).toBe(1)
    await page
      .locator(
        `[data-testid=address-card][data-address-id="${zhang.id}"] [data-testid=address-default]`,
      )
      .waitFor()
    expect((await addressesOf(user)).map((a) => [a.id, a.isDefault])).toEqual([[zhang.id, true]])

    // Editing: the form opens with the saved region, and a change is saved in place.
    await page.locator('.adm-toast-main').waitFor({ state: 'detached' })
    await page
      .locator(
        `[data-testid=address-card][data-address-id="${zhang.id}"] [data-testid=address-edit]`,
      )
      .click()
    await page.waitForURL(`**/address/edit?id=${zhang.id}`)
    await page.locator('[data-testid=address-region]', { hasText: '广东省 深圳市' }).waitFor()
    await page.locator('[data-testid=address-default-switch].adm-switch-disabled').waitFor()
    await page
      .locator('[data-testid=address-detail] textarea:not([readonly])')
      .fill('南山区科技园科苑路16号')
    await page.locator('[data-testid=address-save]').click()
    await page.waitForURL('**/address/list')
    await page
      .locator('[data-testid=address-card]', { hasText: '南山区科技园科苑路16号' })
      .waitFor()
    expect(await addressesOf(user)).toMatchObject([
      { id: zhang.id, detail: '南山区科技园科苑路16号', isDefault: true },
    ])

    // Select mode: tapping the address returns to the caller with its id.
    await page.goto(
      `/address/list?select=1&from=${encodeURIComponent('/order/applySend?from=test')}`,
    )
    await page.getByText('点击地址即可选用').waitFor()
    await page.locator('[data-testid=address-pick]').first().click()
    await page.waitForURL(`**/order/applySend?from=test&addressId=${zhang.id}`)
  })

  it('takes an overseas address: another country hides the province and city and any phone works', async () => {
    const { page, user } = await signedInContext(browser)
    await page.goto('/address/edit')
    // The first address is the default whatever the switch says, so the switch shows it.
    await page.locator('[data-testid=address-default-switch].adm-switch-checked').waitFor()
    // Confirming the region picker untouched takes the first province and its first city.
    await page.locator('[data-testid=address-region]').click()
    const regionPicker = page.getByTestId('address-region-picker')
    await regionPicker.locator('.adm-picker-view-column').nth(1).waitFor()
    await regionPicker.locator('.adm-picker-header-button', { hasText: '确定' }).click()
    await page.locator('[data-testid=address-region]', { hasText: '北京市 东城区' }).waitFor()
    await page.locator('[data-testid=address-country]', { hasText: '中国' }).click()
    await page.getByTestId('address-country-picker').waitFor()
    await pick(page, 'address-country-picker', 0, '日本')
    await screenshot(page, 'address-country-picker')
    await page
      .getByTestId('address-country-picker')
      .locator('.adm-picker-header-button', { hasText: '确定' })
      .click()
    await page.locator('[data-testid=address-country]', { hasText: '日本' }).waitFor()
    await page.locator('[data-testid=address-region]').waitFor({ state: 'hidden' })
    await page.locator('[data-testid=address-name] input').fill('Yamada Taro')
    await page.locator('[data-testid=address-mobile] input').fill('+81312345678')
    await page
      .locator('[data-testid=address-detail] textarea:not([readonly])')
      .fill('1-1 Chiyoda, Chiyoda-ku, Tokyo')
    await screenshot(page, 'address-edit-overseas')
    await page.locator('[data-testid=address-save]').click()
    await page.waitForURL('**/address/list')
    await page.locator('[data-testid=address-card]', { hasText: '日本' }).waitFor()
    expect(await addressesOf(user)).toMatchObject([
      { countryId: 'JP', countryName: '日本', provinceId: null, cityId: null, isDefault: true },
    ])
  })

  it('speaks English: labels, country names and the empty state', async () => {
    const { context, page } = await signedInContext(browser)
    await context.addCookies([{ name: 'lang', value: 'en', url: baseUrl() }])
    await page.goto('/address/list')
    await page.getByText('No shipping address yet').waitFor()
    await page.locator('[data-testid=address-add]').click()
    await page
      .locator('[data-testid=address-country]', { hasText: "People's Republic of China" })
      .waitFor()
    await page.locator('.adm-form-item-label', { hasText: 'Region' }).waitFor()
    await screenshot(page, 'address-edit-en')
  })
})
