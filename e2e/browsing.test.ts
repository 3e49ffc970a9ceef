import { gradeName } from '@numisma/contracts/grades'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  buildSpecial,
  createSpecialWithLots,
  launchBrowser,
  phoneContext,
  recordToasts,
  staffSession,
} from './fixtures'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser.close())

/** The scrolling body of the page on screen (kept-alive pages away are detached). */
const bodyScrollTop = (page: Page): Promise<number> =>
  page.evaluate<number>(`document.querySelector('[data-testid=page-body]')?.scrollTop ?? -1`)

describe('browsing', () => {
  it('keeps the home page where it was after opening a special and a lot and coming back', async () => {
    const context = await phoneContext(browser)
    const page = await context.newPage()
    await page.goto('/')
    await page.locator('[data-testid=special-list] [data-special-id]').first().waitFor()
    // The lists below the fold mount as they are scrolled near.
    await page.evaluate(`(() => {
      const body = document.querySelector('[data-testid=page-body]')
      body.scrollTop = body.scrollHeight
    })()`)
    await page.locator('[data-testid=buying-list] [data-testid=lot-card]').first().waitFor()

    // Scroll until the last special is on screen, well below the top.
    // Other journeys add specials of one lot to the same server: take the last with a second lot.
    const withLots = await page.evaluate(`(() => {
      const body = document.querySelector('[data-testid=page-body]')
      const all = [...document.querySelectorAll('[data-special-id]')]
      const last = all.filter((s) => Number(s.getAttribute('data-lot-count')) >= 2).at(-1)
      body.scrollTop += last.getBoundingClientRect().top - 300
      return last.getAttribute('data-special-id')
    })()`)
    await page.waitForTimeout(300)
    const before = await bodyScrollTop(page)
    expect(before).toBeGreaterThan(400)

    const special = page.locator(`[data-special-id="${String(withLots)}"]`).first()
    const specialId = await special.getAttribute('data-special-id')
    const topOf = () => special.evaluate((el) => Math.round(el.getBoundingClientRect().top))
    const topBefore = await topOf()
    await special.click()
    await page.waitForURL((url) => url.pathname === '/specialDetail')
    expect(new URL(page.url()).searchParams.get('id')).toBe(specialId)

    const lot = page.locator('[data-testid=special-lots] [data-testid=lot-card]').nth(1)
    await lot.waitFor()
    const lotId = await lot.getAttribute('data-lot-id')
    await lot.click()
    await page.waitForURL((url) => url.pathname === '/productDetail')
    expect(new URL(page.url()).searchParams.get('id')).toBe(lotId)
    await page.locator(`[data-testid=item-detail][data-lot-id="${lotId}"]`).waitFor()

    await page.goBack()
    await page.waitForURL((url) => url.pathname === '/specialDetail')
    await page.locator('[data-testid=special-lots]').waitFor()
    await page.goBack()
    await page.waitForURL((url) => url.pathname === '/')
    await page.locator('[data-testid=special-list]').waitFor()
    await expect.poll(() => bodyScrollTop(page)).toBe(before)
    // Still the same page (kept alive), not a fresh load at the top.
    await page.waitForTimeout(500)
    expect(await bodyScrollTop(page)).toBe(before)
    // And the reader sees what they saw: the special they opened where it was on screen (an
    // offset restored by number lands elsewhere if anything above it changed height meanwhile).
    expect(await topOf()).toBe(topBefore)
    await context.close()
  })

  it('opens a lot from a kept-alive special without asking for a special of the lot id', async () => {
    const staff = await staffSession()
    const { specialId, lots } = await createSpecialWithLots(staff, buildSpecial(), [{}, {}])
    const lotId = lots[1]!.id
    const context = await phoneContext(browser)
    const page = await context.newPage()
    const toasts = await recordToasts(page)
    const specialCalls: string[] = []
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname
      if (path.startsWith('/svc/main/special/')) specialCalls.push(path)
    })
    await page.goto(`/specialDetail?id=${specialId}`)
    const card = page.locator(
      `[data-testid=special-lots] [data-testid=lot-card][data-lot-id="${lotId}"]`,
    )
    await card.click()
    await page.waitForURL((url) => url.pathname === '/productDetail')
    await page.locator(`[data-testid=item-detail][data-lot-id="${lotId}"]`).waitFor()
    await page.waitForLoadState('networkidle')
    // The special stays kept alive behind the lot: it asked for itself at most once (its first
    // answer may come inlined in the page), and for no other special.
    expect(specialCalls.every((path) => path === `/svc/main/special/${specialId}`)).toBe(true)
    expect(specialCalls.length).toBeLessThanOrEqual(1)
    expect(await toasts()).toEqual([])

    await page.goBack()
    await page
      .locator(`[data-testid=special-lots] [data-testid=lot-card][data-lot-id="${lotId}"]`)
      .waitFor()
    expect(specialCalls.every((path) => path === `/svc/main/special/${specialId}`)).toBe(true)
    await context.close()
  })

  it('refreshes the home page when pulled down, once the pull has arrived after the first render', async () => {
    const context = await phoneContext(browser)
    const page = await context.newPage()
    // The pull's chunk is held until the list from the app's first render has been marked.
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route(/\/assets\/gestures-[^/]*\.js$/, async (route) => {
      await held
      await route.continue()
    })
    await page.goto('/')
    await page.locator('#root [data-testid=special-list] [data-special-id]').first().waitFor()
    await page.evaluate(() => {
      document.querySelector('#root [data-testid=special-list]')!.setAttribute('data-marked', '')
    })
    release()
    // The pull comes with its own chunk, right after the first render (ADR 026 §11), and takes
    // the page's content in as it is: the same list, not one mounted afresh.
    await page
      .locator('#root .adm-pull-to-refresh [data-testid=special-list][data-marked]')
      .waitFor()
    const asked: string[] = []
    page.on('request', (r) => {
      const { pathname } = new URL(r.url())
      if (pathname.startsWith('/svc/main/')) asked.push(pathname.replace('/svc/main', ''))
    })

    // A finger dragged down from the top of the page body (the pull follows touch).
    const body = await page.locator('#root [data-testid=page-body]').boundingBox()
    if (!body) throw new Error('the page body is not on screen')
    const cdp = await context.newCDPSession(page)
    const x = body.x + body.width / 2
    const top = body.y + 20
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', y: number) =>
      cdp.send('Input.dispatchTouchEvent', {
        type,
        touchPoints: type === 'touchEnd' ? [] : [{ x, y }],
      })
    await touch('touchStart', top)
    for (let step = 1; step <= 12; step++) await touch('touchMove', top + step * 25)
    await touch('touchEnd', top + 300)
    await cdp.detach()

    await expect.poll(() => asked).toContain('/special/V1')
    await expect(page.locator('#root [data-testid=special-list]').count()).resolves.toBe(1)
    await context.close()
  })

  it('gets the pull and the swiper once their chunk can be had, without leaving the page', async () => {
    const context = await phoneContext(browser)
    const page = await context.newPage()
    let tries = 0
    await page.route(/\/assets\/gestures-[^/]*\.js$/, (route) =>
      ++tries === 1 ? route.abort() : route.continue(),
    )
    await page.goto('/')
    await page.locator('#root [data-testid=special-list] [data-special-id]').first().waitFor()
    // The first fetch failed; the page tries again by itself (RETRY_FIRST_MS) and takes it.
    await page.locator('#root .adm-pull-to-refresh [data-testid=special-list]').waitFor()
    await page.locator('#root .home-banners .adm-swiper').waitFor()
    expect(tries).toBe(2)
    await context.close()
  })

  it('finds a Yuan Shikai dollar by its nickname from the home search bar', async () => {
    const context = await phoneContext(browser)
    const page = await context.newPage()
    await page.goto('/')
    const search = page.locator('[data-testid=home-search] input')
    await search.fill('袁大头')
    await search.press('Enter')
    await page.waitForURL((url) => url.pathname === '/categoryDetail')
    expect(new URL(page.url()).searchParams.get('keyword')).toBe('袁大头')

    const hit = page
      .locator('[data-testid=results] [data-testid=lot-card]', { hasText: '袁世凯像' })
      .first()
    await hit.waitFor()
    const lotId = await hit.getAttribute('data-lot-id')

    // The item page shows the spec's grade name for the lot's code and a running countdown.
    const detail = page.waitForResponse((r) => r.url().includes(`/svc/main/auction/${lotId}`))
    await hit.click()
    await page.waitForURL((url) => url.pathname === '/productDetail')
    const lot = (await (await detail).json()).data
    expect(lot.title).toContain('袁世凯像')
    await page.locator('[data-testid=item-title]', { hasText: lot.title }).waitFor()
    const badge = page.locator('[data-testid=item-detail] [data-testid=grade-badge]').first()
    await expect.poll(() => badge.innerText()).toContain(gradeName(lot.gradeCode))
    const time = page.locator('[data-testid=price-band] [data-testid=countdown-time]')
    await expect.poll(() => time.innerText()).toMatch(/^(?:\d+天 )?\d{2}:\d{2}:\d{2}$/)
    const first = await time.innerText()
    await expect.poll(() => time.innerText(), { timeout: 3000 }).not.toBe(first)
    await context.close()
  })

  it('shows the increment table from the server on the bidding notice', async () => {
    const context = await phoneContext(browser)
    const page = await context.newPage()
    await page.goto('/rules')
    const rows = page.locator('[data-testid=price-steps] tbody tr')
    await rows.first().waitFor()
    expect(await rows.count()).toBeGreaterThan(5)
    expect(await rows.first().innerText()).toMatch(/100/)
    await context.close()
  })
})
