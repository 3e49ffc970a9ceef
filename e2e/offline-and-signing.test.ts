import type { Browser, Request } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  baseUrl,
  buildSpecial,
  createSpecialWithLots,
  creditDeposit,
  launchBrowser,
  signedInContext,
  staffSession,
} from './fixtures'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser.close())

describe('offline (spec §5)', () => {
  it('shows the alert and makes no request', async () => {
    const { context, page } = await signedInContext(browser)
    // The user centre's chunk arrives with the prefetch that follows the reader's first input;
    // offline, the tab must then answer with the alert, not with a page that failed to load.
    const prefetched = page.waitForResponse((r) =>
      /\/assets\/ucenter-page-[^/]*\.js$/.test(r.url()),
    )
    await page.goto('/')
    await page.locator('[data-testid=special-list]').waitFor()
    await page.mouse.wheel(0, 1)
    await prefetched
    await page.waitForLoadState('networkidle')

    const alerts: string[] = []
    page.on('dialog', (dialog) => {
      alerts.push(dialog.message())
      // The page may close with the dialog open; that is no failure of this test.
      dialog.accept().catch((error: unknown) => console.warn('dialog.accept failed', error))
    })

    await context.setOffline(true)
    // Counted from the moment the page is offline: the home page is live (pushes, countdowns)
    // and may ask for a list the instant before; spec §5 forbids calls made while offline.
    const apiCalls: string[] = []
    page.on('request', (r) => {
      if (r.url().includes('/svc/')) apiCalls.push(r.url())
    })
    await page.getByText('我的', { exact: true }).last().click() // tab bar → user centre
    await expect.poll(() => alerts.length).toBeGreaterThan(0)
    expect(alerts[0]).toBe('网络连接似乎已断开')
    expect(apiCalls).toEqual([])
    await context.close()
  })

  it('answers a bid tapped offline with one alert and keeps the lot on screen', async () => {
    const staff = await staffSession()
    const { lots } = await createSpecialWithLots(staff, buildSpecial(), [{ startPrice: 62_000 }])
    const lotId = lots[0]!.id
    const { context, page, user } = await signedInContext(browser)
    await creditDeposit(staff, user, 100_000)
    await page.goto(`/productDetail?id=${lotId}`)
    await page.locator(`[data-testid=item-detail][data-lot-id="${lotId}"]`).waitFor()
    await page.locator('[data-testid=bid-submit]:not([disabled])').waitFor()
    await page.waitForLoadState('networkidle')

    const alerts: string[] = []
    page.on('dialog', (dialog) => {
      alerts.push(dialog.message())
      dialog.accept().catch((error: unknown) => console.warn('dialog.accept failed', error))
    })
    await context.setOffline(true)
    await page.locator('[data-testid=bid-submit]').click()
    await page.locator('.adm-dialog-body').getByRole('button', { name: '确定' }).click()
    await expect.poll(() => alerts).toEqual(['网络连接似乎已断开'])
    // Nothing else may follow: no refetch alert, no "加载失败" in place of the lot.
    await page.waitForTimeout(1500)
    expect(alerts).toHaveLength(1)
    await page
      .locator(`[data-testid=item-detail][data-lot-id="${lotId}"] [data-testid=item-title]`)
      .waitFor()
    expect(await page.getByText('加载失败').count()).toBe(0)
    expect(await page.locator('[data-testid=bid-bar]').count()).toBe(1)
    await context.close()
  })
})

describe('signed requests from the web client', () => {
  it('are accepted once, and refused when replayed or tampered with', async () => {
    const { context, page } = await signedInContext(browser)
    await page.goto('/')
    const seen = page.waitForRequest((r) => r.url().includes('/svc/main/user/@statistics'))
    await page.goto('/ucenter')
    const request: Request = await seen
    const response = await request.response()
    expect(response?.status()).toBe(200)

    const headers = await request.allHeaders()
    const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ')
    const send = (url: string, extra: Record<string, string> = {}) =>
      fetch(url, { headers: { ...pick(headers), cookie, ...extra } })

    const replay = await send(request.url())
    expect(replay.status).toBe(401)
    expect(await replay.json()).toMatchObject({ code: 'NONCE_REPLAYED' })

    const tamperedPath = await send(`${baseUrl()}/svc/main/user/@accountSeting`)
    expect(tamperedPath.status).toBe(401)
    expect(await tamperedPath.json()).toMatchObject({ code: 'SIGNATURE_INVALID' })

    const tamperedUser = await send(request.url(), { 'x-user-id': '1' })
    expect(tamperedUser.status).toBe(401)
    expect(await tamperedUser.json()).toMatchObject({ code: 'SESSION_INVALID' })
    await context.close()
  })
})

/** The signing headers a browser sent, without the ones fetch sets itself. */
function pick(headers: Record<string, string>): Record<string, string> {
  const keep = [
    'authorization',
    'x-app-id',
    'x-device-id',
    'x-os-info',
    'x-user-id',
    'x-nonce',
    'x-timestamp',
    'x-sign',
    'accept-language',
  ]
  return Object.fromEntries(Object.entries(headers).filter(([k]) => keep.includes(k)))
}
