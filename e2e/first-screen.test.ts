import fs from 'node:fs'
import path from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { FIRST_SCREEN_REUSE_MS } from '@numisma/contracts/client-config'
import {
  buildSpecial,
  createMallItem,
  createSpecialWithLots,
  launchBrowser,
  phoneContext,
  staffSession,
} from './fixtures'

/**
 * Issue 13: a landing page's first answers come inlined in its HTML (server platform/first-screen.ts)
 * and seed the query cache before the first render (the queries' `initialData`), so the page's
 * first render already shows them. Were they only answered by the query functions, the first
 * render would show skeletons and a second, blocking render the data — on a slow phone the longest
 * task of the load, and a later largest paint.
 */

/** The lot query's stale time (apps/web/src/features/auction/api/get-lot.ts). */
const LOT_STALE_MS = 5_000

let browser: Browser
/** Closed after each test, passed or failed. */
const opened: BrowserContext[] = []

beforeAll(async () => {
  browser = await launchBrowser()
})
afterEach(async () => {
  await Promise.all(opened.splice(0).map((context) => context.close()))
})
afterAll(() => browser.close())

/**
 * Watches the page from its first byte: whether the app put a skeleton on screen before `marker`
 * (the page's data) appeared in the app's own #root — the server's first screen in front of it
 * (ADR 026 §9) is not the app's render — and which API calls the page made.
 */
async function openWatched(
  url: string,
  marker: string,
): Promise<{
  page: Page
  skeletonsBefore: () => Promise<number>
  /** When the app's render showed `marker`, in ms since navigation started. */
  shownAt: () => Promise<number>
  calls: string[]
}> {
  const context = await phoneContext(browser)
  const page = await context.newPage()
  const calls: string[] = []
  page.on('request', (request) => {
    const { pathname } = new URL(request.url())
    if (pathname.startsWith('/svc/main/')) calls.push(pathname.replace('/svc/main', ''))
  })
  opened.push(context)
  await page.addInitScript(`(() => {
    window.__skeletonsBefore = 0
    const observer = new MutationObserver(() => {
      if (document.querySelector(${JSON.stringify(`#root ${marker}`)})) {
        window.__shownAt = performance.now()
        return observer.disconnect()
      }
      window.__skeletonsBefore += document.querySelectorAll('#root .adm-skeleton').length
    })
    observer.observe(document, { childList: true, subtree: true })
  })()`)
  await page.goto(url)
  await page.locator(`#root ${marker}`).first().waitFor()
  return {
    page,
    calls,
    skeletonsBefore: () => page.evaluate<number>('window.__skeletonsBefore'),
    shownAt: () => page.evaluate<number>('window.__shownAt'),
  }
}

describe('first screen', () => {
  it('the home page shows its banners and specials in its first render, with no call for them', async () => {
    const { page, calls, skeletonsBefore } = await openWatched(
      '/',
      '[data-testid=special-list] [data-special-id]',
    )
    expect(await skeletonsBefore()).toBe(0)
    await expect(page.locator('.home-banners img').count()).resolves.toBeGreaterThan(0)
    expect(calls).not.toContain('/mall/advertis/0')
    expect(calls).not.toContain('/meta/@category')
    expect(calls).not.toContain('/special/V1')
  })

  it('a special, a lot and a mall item show their data in their first render', async () => {
    const staff = await staffSession()
    const { specialId, lots } = await createSpecialWithLots(staff, buildSpecial(), [{}, {}])
    const { productNo } = await createMallItem(staff)

    const special = await openWatched(
      `/specialDetail?id=${specialId}`,
      '[data-testid=special-lots] [data-testid=lot-card]',
    )
    expect(await special.skeletonsBefore()).toBe(0)
    expect(special.calls).not.toContain(`/special/${specialId}`)

    const lot = await openWatched(`/productDetail?id=${lots[0]!.id}`, '[data-testid=price-band]')
    expect(await lot.skeletonsBefore()).toBe(0)
    // A lot's price counts as fresh for 5 s from when the server may have made its answer, the
    // reuse window before the page's request (FIRST_SCREEN_REUSE_MS): an app that took over later
    // than that asks again, as it should. On a loaded machine it may take over later.
    if ((await lot.shownAt()) < LOT_STALE_MS - FIRST_SCREEN_REUSE_MS) {
      expect(lot.calls).not.toContain(`/auction/${lots[0]!.id}`)
    }

    const item = await openWatched(`/productDetail?productNo=${productNo}`, '[data-testid=buy-bar]')
    expect(await item.skeletonsBefore()).toBe(0)
    expect(item.calls).not.toContain(`/mallproduct/getMallByProductNo/${productNo}`)
  })
})

/** The built entry's own files (index.html's script and its static imports), from Vite's manifest. */
function entryFiles(): Set<string> {
  const manifest = JSON.parse(
    fs.readFileSync(path.join(import.meta.dirname, '../apps/web/dist/.vite/manifest.json'), 'utf8'),
  ) as Record<string, { file: string; imports?: string[] }>
  const files = new Set<string>()
  const visit = (key: string) => {
    const chunk = manifest[key]
    if (!chunk || files.has(chunk.file)) return
    files.add(chunk.file)
    for (const next of chunk.imports ?? []) visit(next)
  }
  visit('index.html')
  return files
}

/**
 * Opens `url` with the app's scripts held back until `release()`, as on a slow link: the reader
 * has the server's first screen alone meanwhile.
 */
async function openWithTheAppHeld(url: string): Promise<{ page: Page; release: () => void }> {
  const context = await phoneContext(browser, { waitForTheApp: false })
  opened.push(context)
  const page = await context.newPage()
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route(/\/assets\/start-shop-[^/]*\.js$/, async (route) => {
    await held
    await route.continue()
  })
  await page.goto(url)
  return { page, release }
}

describe('first screen rendered by the server (ADR 026 §9)', () => {
  it('paints before any script of the app is fetched, and the app takes over in place, never blank', async () => {
    const context = await phoneContext(browser)
    opened.push(context)
    const page = await context.newPage()
    // Every frame from the first: which element holds the page, and how much text it shows.
    await page.addInitScript(`(() => {
      window.__loadingSeen = false
      const watch = new MutationObserver(() => {
        if (document.querySelector('#root .adm-dot-loading')) window.__loadingSeen = true
      })
      watch.observe(document, { childList: true, subtree: true })
      window.__frames = []
      const sample = () => {
        const first = document.getElementById('first-screen')
        const root = document.getElementById('root')
        const shown = first ?? root
        if (shown) {
          window.__frames.push({
            holder: shown.id,
            text: shown.innerText.trim().length,
            specials: shown.querySelectorAll('[data-special-id]').length,
          })
        }
        if (window.__frames.length < 600) requestAnimationFrame(sample)
      }
      requestAnimationFrame(sample)
    })()`)
    await page.goto('/')
    await page.locator('#root [data-testid=special-list] [data-special-id]').first().waitFor()
    await expect(page.locator('#first-screen').count()).resolves.toBe(0)

    const frames =
      await page.evaluate<{ holder: string; text: number; specials: number }[]>('window.__frames')
    const painted = frames.filter((f) => f.text > 0)
    expect(painted[0]?.holder).toBe('first-screen')
    expect(painted[0]?.specials).toBeGreaterThan(0)
    // From the first painted frame on, the specials never leave the screen: the app's page
    // replaces the server's in one frame, never blank nor skeletons in between.
    const after = frames.slice(frames.indexOf(painted[0]!))
    expect(after.filter((f) => f.specials === 0)).toEqual([])
    expect(frames.at(-1)?.holder).toBe('root')
    // The app's page was ready at its first render: no loading indicator went in behind.
    expect(await page.evaluate('window.__loadingSeen')).toBe(false)

    // The app's scripts are asked for only once the first screen has painted; the entry is not.
    const timing = await page.evaluate(() => ({
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Infinity,
      scripts: performance
        .getEntriesByType('resource')
        .filter((e) => /\/assets\/.*\.js$/.test(e.name))
        .map((e) => ({ name: e.name, start: e.startTime })),
    }))
    const entry = entryFiles()
    const early = timing.scripts
      .filter((s) => s.start < timing.fcp)
      .map((s) => new URL(s.name).pathname.slice(1))
    expect(early.filter((file) => !entry.has(file))).toEqual([])
    expect(timing.scripts.length).toBeGreaterThan(entry.size + 2)

    // The app works: a tap on a special opens it inside the app.
    await page.locator('#root [data-special-id]').first().click()
    await page.waitForURL(/\/specialDetail\?id=\d+/)
    await page.locator('#root [data-testid=special-lots]').waitFor()
  })

  it('where the reader scrolled the first screen to, the page of the app stays', async () => {
    // The app waits until the first screen has been scrolled, as on a slow link.
    const { page, release } = await openWithTheAppHeld('/')
    const first = '#first-screen [data-testid=page-body]'
    await page.locator(first).waitFor()
    await page.evaluate((selector) => {
      document.querySelector(selector)!.scrollTop = 300
    }, first)
    release()
    await page.locator('#root [data-testid=special-list]').waitFor()
    await expect(page.locator('#first-screen').count()).resolves.toBe(0)
    await expect
      .poll(() =>
        page.evaluate(() => document.querySelector('#root [data-testid=page-body]')!.scrollTop),
      )
      .toBe(300)
  })

  it("a special's long list goes in as its first cards, the rest as the reader nears its end; a scrolled one at once", async () => {
    const staff = await staffSession()
    const { specialId } = await createSpecialWithLots(
      staff,
      buildSpecial(),
      Array.from({ length: 20 }, () => ({})),
    )
    const url = `/specialDetail?id=${specialId}`
    const cards = '#root [data-testid=special-lots] [data-testid=lot-card]'

    // Unscrolled: the app's first commit has the first 8 cards (FIRST_STEP); the next ones come
    // as the list's end nears the screen, not while the page loads.
    const context = await phoneContext(browser)
    opened.push(context)
    const page = await context.newPage()
    await page.addInitScript(`(() => {
      window.__counts = []
      new MutationObserver(() => {
        const n = document.querySelectorAll(${JSON.stringify(cards)}).length
        if (n > 0 && n !== window.__counts.at(-1)) window.__counts.push(n)
      }).observe(document, { childList: true, subtree: true })
    })()`)
    await page.goto(url)
    await page.locator(cards).first().waitFor()
    await page.waitForLoadState('networkidle')
    await page.waitForTimeout(500)
    expect(await page.evaluate<number[]>('window.__counts')).toEqual([8])
    const body = '#root [data-testid=page-body]'
    await expect
      .poll(async () => {
        await page.evaluate((selector) => {
          const el = document.querySelector(selector)!
          el.scrollTop = el.scrollHeight
        }, body)
        return page.locator(cards).count()
      })
      .toBe(20)
    const counts = await page.evaluate<number[]>('window.__counts')
    expect(counts[0]).toBe(8)
    expect(counts.at(-1)).toBe(20)

    // Scrolled before the app took over: every card in the first commit, under the same offset.
    const held = await openWithTheAppHeld(url)
    const first = '#first-screen [data-testid=page-body]'
    await held.page.locator(first).waitFor()
    // The server's first screen is the first screen: the first 8 cards (FIRST_STEP).
    await expect(
      held.page.locator('#first-screen [data-testid=special-lots] [data-testid=lot-card]').count(),
    ).resolves.toBe(8)
    await held.page.evaluate((selector) => {
      document.querySelector(selector)!.scrollTop = 600
    }, first)
    await held.page.evaluate((selector) => {
      const counts: number[] = []
      Object.assign(window, { __counts: counts })
      new MutationObserver(() => {
        const n = document.querySelectorAll(selector).length
        if (n > 0 && n !== counts.at(-1)) counts.push(n)
      }).observe(document, { childList: true, subtree: true })
    }, cards)
    held.release()
    await held.page.locator(cards).first().waitFor()
    await expect
      .poll(() =>
        held.page.evaluate(
          () => document.querySelector('#root [data-testid=page-body]')!.scrollTop,
        ),
      )
      .toBe(600)
    expect(await held.page.evaluate<number[]>('window.__counts')).toEqual([20])
  })

  it('what the reader typed into the search before the app took over stays, and its focus', async () => {
    const { page, release } = await openWithTheAppHeld('/')
    await page.locator('#first-screen [data-testid=home-search] input').fill('袁大头')
    release()
    await page.locator('#root [data-testid=special-list]').waitFor()
    const search = page.locator('#root [data-testid=home-search] input')
    await expect.poll(() => search.inputValue()).toBe('袁大头')
    await expect(search.evaluate((input) => input === document.activeElement)).resolves.toBe(true)
    // The app has the text, not only its field: searching with it finds the dollar.
    await search.press('Enter')
    await page.waitForURL((url) => url.searchParams.get('keyword') === '袁大头')
  })

  it('without scripts, a landing page still shows its data', async () => {
    const staff = await staffSession()
    const { specialId, lots } = await createSpecialWithLots(staff, buildSpecial(), [{}])
    const context = await phoneContext(browser, { javaScriptEnabled: false })
    opened.push(context)
    const page = await context.newPage()
    await page.goto(`/specialDetail?id=${specialId}`)
    await expect(
      page.locator('#first-screen [data-testid=special-lots] [data-testid=lot-card]').count(),
    ).resolves.toBe(1)
    await page.goto(`/productDetail?id=${lots[0]!.id}`)
    await expect(page.locator('#first-screen [data-testid=price-band]').count()).resolves.toBe(1)
    await page.goto('/')
    await expect(page.locator('#first-screen [data-special-id]').count()).resolves.toBeGreaterThan(
      0,
    )
  })
})
