import type { ClientConfig } from '@numisma/contracts/client-config'
import { formatFen } from '@numisma/contracts/money'
import { osInfoHeader, signedHeaders } from '@numisma/contracts/signing'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { baseUrl, launchBrowser, phoneContext, signIn } from './fixtures'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser.close())

interface LotSummary {
  id: number
  title: string
  startPrice: number
  price: number | null
  endsAt: string
  status: string
}

/** An anonymous signed GET on the main service, as the web app makes it. */
async function anonymousGet<T>(path: string): Promise<T> {
  const res0 = await fetch(`${baseUrl()}/svc/client-config`)
  const config = ((await res0.json()) as { data: ClientConfig }).data
  const headers = signedHeaders({
    method: 'GET',
    path,
    appId: config.apps.h5.id,
    key: config.apps.h5.key,
    deviceId: `e2e-bidding-${Date.now()}`,
    signSecret: config.signSecret,
    osInfo: osInfoHeader(),
  })
  const res = await fetch(`${baseUrl()}/svc/main${path}`, { headers })
  expect(res.status).toBe(200)
  return ((await res.json()) as { data: T }).data
}

/** A live lot nobody has bid on, under 5,000 yuan, with time to spare before it closes. */
async function pickLiveLot(): Promise<LotSummary> {
  const specials = await anonymousGet<{ id: number; status: string }[]>('/special/V1')
  for (const special of specials.filter((s) => s.status === 'live')) {
    const detail = await anonymousGet<{ lots: LotSummary[] }>(`/special/${special.id}`)
    const lot = detail.lots.find(
      (l) =>
        l.status === 'live' &&
        l.price === null &&
        l.startPrice < 500_000 &&
        Date.parse(l.endsAt) - Date.now() > 15 * 60_000,
    )
    if (lot) return lot
  }
  throw new Error('no live lot to bid on in the demo catalogue')
}

const yuan = (fen: number) => `¥${formatFen(fen)}`
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
  await dialog.getByRole('button', { name: '确定' }).click()
}

describe('bidding', () => {
  it('two collectors bid on one lot and see each other live, with outbid notice, proxy and lists', async () => {
    const lot = await pickLiveLot()
    const lotUrl = `/productDetail?id=${lot.id}`
    const contexts: BrowserContext[] = [await phoneContext(browser), await phoneContext(browser)]
    const [a, b] = await Promise.all(contexts.map((c) => c.newPage()))
    if (!a || !b) throw new Error('no pages')
    await signIn(a, lotUrl)
    await signIn(b, lotUrl)
    for (const page of [a, b]) {
      await bar(page).waitFor()
      await expect.poll(() => amountOf(page)).toBe(lot.startPrice)
      expect(await barText(page)).toContain(yuan(lot.startPrice))
    }

    // A bids the minimum: the start price.
    await bidAndConfirm(a, new RegExp(`确认出价 ${yuan(lot.startPrice).replace(/[.$]/g, '\\$&')}`))
    await expect.poll(() => a.locator('[data-testid=bid-standing]').innerText()).toContain('领先')
    // The direct button is closed to the leader.
    await expect.poll(() => a.locator('[data-testid=bid-submit]').innerText()).toContain('您已领先')

    // B sees A's bid arrive without a reload, and the stepper moves to the next valid amount.
    await expect.poll(() => b.locator('[data-testid=bid-count]').innerText()).toContain('出价 1 次')
    await expect.poll(() => amountOf(b), { timeout: 5000 }).toBeGreaterThan(lot.startPrice)
    const bAmount = await amountOf(b)
    expect(await barText(b)).toContain(yuan(lot.startPrice))

    // B bids higher; A sees it live and is told they were outbid.
    await bidAndConfirm(b, /确认出价/)
    await expect.poll(() => b.locator('[data-testid=bid-standing]').innerText()).toContain('领先')
    await expect.poll(() => a.locator('[data-testid=bid-count]').innerText()).toContain('出价 2 次')
    await expect.poll(() => barText(a)).toContain(yuan(bAmount))
    await a.locator('.adm-toast-main', { hasText: '您的出价已被超越' }).waitFor()
    await expect
      .poll(() => a.locator('[data-testid=bid-standing]').innerText())
      .toContain('已被超越')

    // A answers with a proxy bid two steps above the minimum, and leads again.
    await a.locator('[data-mode=proxy]').click()
    const proxyMin = await amountOf(a)
    await a.getByRole('button', { name: '增加一个加价幅度' }).click()
    await a.getByRole('button', { name: '增加一个加价幅度' }).click()
    const proxyMax = await amountOf(a)
    expect(proxyMax).toBeGreaterThan(proxyMin)
    await bidAndConfirm(a, /确认委托上限/)
    await expect
      .poll(() => a.locator('[data-testid=bid-standing]').innerText())
      .toMatch(new RegExp(`领先[\\s\\S]*委托上限 ${yuan(proxyMax).replace(/[.$]/g, '\\$&')}`))
    await b.locator('.adm-toast-main', { hasText: '您的出价已被超越' }).waitFor()

    // My bids: A leads, B is outbid.
    await a.goto('/myBuy')
    await a.locator(`[data-testid=my-bids] [data-lot-id="${lot.id}"]`).waitFor()
    await b.goto('/myBuy?tab=outbid')
    await b.locator(`[data-testid=my-bids] [data-lot-id="${lot.id}"]`).waitFor()
    expect(await b.locator('[data-testid=my-bids]').innerText()).toContain('出局')

    // My proxy bids: A's is active; cancelling it (after confirming) moves it to 已取消.
    await a.goto('/myEntrust')
    const item = a.locator(`[data-testid=my-proxy-bids] .my-item[data-lot-id="${lot.id}"]`)
    await item.waitFor()
    expect((await item.innerText()).replace(/\s+/g, '')).toContain(yuan(proxyMax))
    await item.locator('[data-testid=cancel-proxy]').click()
    const dialog = a.locator('.adm-dialog-body')
    await dialog.waitFor()
    await dialog.getByRole('button', { name: '取消委托' }).click()
    await item.waitFor({ state: 'detached' })
    await a.locator('.adm-tabs-tab', { hasText: '已取消' }).click()
    await a.locator(`[data-testid=my-proxy-bids] .my-item[data-lot-id="${lot.id}"]`).waitFor()

    await Promise.all(contexts.map((c) => c.close()))
  })
})
