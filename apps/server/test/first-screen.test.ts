import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  FIRST_SCREEN_GLOBAL,
  FIRST_SCREEN_SCRIPTS,
  PAGE_CLOCK_TIMING,
} from '@numisma/contracts/client-config'
import { COOKIE } from '@numisma/contracts/cookies'
import { CatalogRepository } from '../src/modules/catalog/repository'
import { FIRST_SCREEN_CACHE_MS } from '../src/platform/first-screen'
import { seedCatalogue } from '../src/seed/catalogue'
import { createTestApp, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'

const databases = await testDatabases()

/** A built dist the way Vite leaves it, with a manifest of the three landing routes (issue 13). */
function builtDist(renderer?: string): string {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'numisma-first-'))
  if (renderer !== undefined) {
    fs.mkdirSync(path.join(dist, '.ssr'))
    fs.writeFileSync(path.join(dist, '.ssr', 'first-screen.js'), renderer)
  }
  fs.mkdirSync(path.join(dist, 'assets'))
  fs.mkdirSync(path.join(dist, '.vite'))
  const page = `<!doctype html><html><head><!--numisma-config-->
<script type="module" crossorigin src="/assets/index-1.js"></script>
<link rel="modulepreload" crossorigin href="/assets/framework-1.js">
<link rel="stylesheet" crossorigin href="/assets/framework-1.css">
</head><body><div id="root"><p>brand</p><!--/root--></div>${'<p>shop</p>'.repeat(150)}</body></html>`
  for (const name of ['index.html', 'passport.html', 'admin.html']) {
    fs.writeFileSync(path.join(dist, name), page)
  }
  const manifest = {
    'index.html': {
      file: 'assets/index-1.js',
      isEntry: true,
      imports: ['_framework-1.js'],
      dynamicImports: ['src/app/start-shop.tsx'],
    },
    'src/app/start-shop.tsx': {
      file: 'assets/start-shop-1.js',
      isDynamicEntry: true,
      imports: ['_shell-1.js', '_framework-1.js'],
    },
    '_shell-1.js': {
      file: 'assets/shell-1.js',
      imports: ['_framework-1.js'],
      css: ['assets/shell-1.css'],
    },
    '_framework-1.js': { file: 'assets/framework-1.js', css: ['assets/framework-1.css'] },
    '_landing-1.js': {
      file: 'assets/landing-1.js',
      imports: ['_framework-1.js'],
      css: ['assets/landing-1.css'],
    },
    '_item-1.js': { file: 'assets/item-1.js', imports: ['_landing-1.js'] },
    'src/features/home/pages/home-page.tsx': {
      file: 'assets/home-page-1.js',
      isDynamicEntry: true,
      imports: ['_framework-1.js', '_shell-1.js', '_landing-1.js'],
      dynamicImports: ['src/features/home/components/home-feed.tsx'],
    },
    'src/features/home/components/home-feed.tsx': {
      file: 'assets/home-feed-1.js',
      isDynamicEntry: true,
    },
    'src/features/auction/pages/special-detail-page.tsx': {
      file: 'assets/special-detail-page-1.js',
      isDynamicEntry: true,
      imports: ['_item-1.js'],
    },
    'src/app/product-detail-route.tsx': {
      file: 'assets/product-detail-route-1.js',
      isDynamicEntry: true,
      imports: ['_item-1.js'],
      css: ['assets/product-detail-route-1.css'],
    },
  }
  fs.writeFileSync(path.join(dist, '.vite', 'manifest.json'), JSON.stringify(manifest))
  return dist
}

/**
 * A test app serving a built dist (with this renderer, if any) over the seeded catalogue, made
 * before the describe's tests and closed after them.
 */
function servedShop(kind: (typeof databases)[number], renderer?: string) {
  let app: TestApp | undefined
  let dist = ''
  beforeAll(async () => {
    dist = builtDist(renderer)
    app = await createTestApp(kind, { webDist: dist })
    await seedCatalogue(new CatalogRepository(app.database.db), app.clock.now())
  })
  afterAll(async () => {
    await app?.close()
    fs.rmSync(dist, { recursive: true, force: true })
  })
  const shop = {
    get t(): TestApp {
      if (!app) throw new Error('the shop is made in beforeAll')
      return app
    },
    page: (url: string, headers: Record<string, string> = {}) =>
      shop.t.inject({ method: 'GET', url, headers }),
  }
  return shop
}

function inlined(html: string): Record<string, { data: unknown }> | undefined {
  const match = new RegExp(
    `<script type="application/json" id="${FIRST_SCREEN_GLOBAL}">(.*?)</script>`,
  ).exec(html)
  return match ? (JSON.parse(match[1]!) as Record<string, { data: unknown }>) : undefined
}

describe.each(databases)('first screen without an API round trip (issue 13) on $name', (kind) => {
  const shop = servedShop(kind)
  const page = shop.page
  const api = async (apiPath: string) =>
    (await shop.t.call({ method: 'GET', path: apiPath })).json()

  it('home: banners, categories and specials, the first banner preloaded', async () => {
    const res = await page('/')
    expect(res.statusCode).toBe(200)
    const first = inlined(res.body)!
    expect(Object.keys(first).sort()).toEqual(
      ['/svc/main/mall/advertis/0', '/svc/main/meta/@category', '/svc/main/special/V1'].sort(),
    )
    for (const p of ['/mall/advertis/0', '/meta/@category', '/special/V1']) {
      expect(first[`/svc/main${p}`], p).toEqual(await api(p))
    }
    // Never the server time in the body: countdowns measure its offset over a round trip, the
    // page's own (its Server-Timing, ADR 026 §14) or a call's.
    expect(res.body).not.toContain('/pub/@time')
    const banners = first['/svc/main/mall/advertis/0']!.data as { image: string }[]
    expect(banners.length).toBeGreaterThan(0)
    expect(res.body).toContain(
      `<link rel="preload" as="image" fetchpriority="high" href="${banners[0]!.image.replace(/&/g, '&amp;')}">`,
    )
    // The route's chunks not already in index.html, with their CSS; not the lazy feed.
    expect(res.body).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/home-page-1.js">',
    )
    expect(res.body).toContain('<link rel="modulepreload" crossorigin href="/assets/landing-1.js">')
    expect(res.body).toContain('<link rel="stylesheet" crossorigin href="/assets/landing-1.css">')
    expect(res.body).not.toContain('home-feed-1.js')
    expect(res.body.match(/framework-1\.js/g)).toHaveLength(1)
    // Everything sits in the head, the config still first.
    const head = res.body.slice(0, res.body.indexOf('</head>'))
    expect(head).toContain(FIRST_SCREEN_GLOBAL)
    expect(head).toContain('__NUMISMA_CONFIG__')
    expect(res.headers['cache-control']).toBe('no-cache')
  })

  it('a special: its detail and its cover', async () => {
    const res = await page('/specialDetail?id=1')
    const first = inlined(res.body)!
    expect(Object.keys(first)).toEqual(['/svc/main/special/1'])
    const special = await api('/special/1')
    expect(first['/svc/main/special/1']).toEqual(special)
    expect(res.body).toContain(`fetchpriority="high" href="${special.data.cover}"`)
    expect(res.body).toContain('href="/assets/special-detail-page-1.js"')
    expect(res.body).toContain('href="/assets/item-1.js"')
  })

  it('a lot: its detail and the price steps, its first photo', async () => {
    const res = await page('/productDetail?id=2')
    const first = inlined(res.body)!
    expect(Object.keys(first).sort()).toEqual(
      ['/svc/main/auction/2', '/svc/main/bidding/price-step'].sort(),
    )
    const lot = await api('/auction/2')
    expect(first['/svc/main/auction/2']).toEqual(lot)
    expect(first['/svc/main/bidding/price-step']).toEqual(await api('/bidding/price-step'))
    expect(res.body).toContain(`fetchpriority="high" href="${lot.data.images[0]}"`)
    expect(res.body).toContain('href="/assets/product-detail-route-1.js"')
    expect(res.body).toContain(
      '<link rel="stylesheet" crossorigin href="/assets/product-detail-route-1.css">',
    )
  })

  it('a mall item: its detail and coupons, its first photo', async () => {
    const productNo = (
      await shop.t.database.db
        .selectFrom('mall_items')
        .select('product_no')
        .orderBy('id')
        .executeTakeFirstOrThrow()
    ).product_no
    const res = await page(`/productDetail?productNo=${encodeURIComponent(productNo)}`)
    const first = inlined(res.body)!
    const no = encodeURIComponent(productNo)
    const item = await api(`/mallproduct/getMallByProductNo/${no}`)
    expect(first[`/svc/main/mallproduct/getMallByProductNo/${no}`]).toEqual(item)
    expect(first[`/svc/main/mallproduct/getMallCoupons/${no}`]).toEqual(
      await api(`/mallproduct/getMallCoupons/${no}`),
    )
    expect(res.body).toContain(`fetchpriority="high" href="${item.data.images[0]}"`)
  })

  it('a signed-in visitor gets the plain page: their answers may differ', async () => {
    for (const cookie of [`${COOKIE.sid}=abc`, `${COOKIE.userId}=42; ${COOKIE.id}=x`]) {
      const res = await page('/productDetail?id=2', { cookie })
      expect(res.statusCode).toBe(200)
      expect(inlined(res.body)).toBeUndefined()
      expect(res.body).not.toContain('fetchpriority')
    }
  })

  it('a missing or malformed lot: the page, no data, no picture', async () => {
    for (const url of [
      '/productDetail?id=999999',
      '/productDetail?id=abc',
      '/specialDetail',
      '/specialDetail?id=999999',
      // Not a mall item number: the plain page, no calls made.
      '/productDetail?productNo=%3Cscript%3E',
      `/productDetail?productNo=M${'1'.repeat(40)}`,
    ]) {
      const res = await page(url)
      expect(res.statusCode, url).toBe(200)
      expect(res.body, url).toContain('<div id="root">')
      expect(inlined(res.body) ?? {}, url).toEqual({})
      expect(res.body, url).not.toContain('fetchpriority')
    }
  })

  it('other pages are unchanged, and the landing pages compressed per request', async () => {
    const plain = await page('/ucenter', { 'accept-encoding': 'br' })
    const body = zlib.brotliDecompressSync(plain.rawPayload).toString()
    expect(body).not.toContain(FIRST_SCREEN_GLOBAL)
    expect(body).not.toContain('modulepreload" crossorigin href="/assets/home-page-1.js')
    for (const encoding of ['br', 'gzip'] as const) {
      const res = await page('/', { 'accept-encoding': encoding })
      expect(res.headers['content-encoding']).toBe(encoding)
      expect(res.headers.vary).toMatch(/accept-encoding/i)
      const html = (encoding === 'br' ? zlib.brotliDecompressSync : zlib.gunzipSync)(
        res.rawPayload,
      ).toString()
      expect(inlined(html)).toBeDefined()
    }
  })

  it("every shop page names the server's clock as it leaves, the clock /pub/@time reads (ADR 026 §14)", async () => {
    const { data } = (await api('/pub/@time')) as { data: { timestamp: number } }
    const { timestamp } = data
    expect(timestamp).toBe(shop.t.clock.now())
    shop.t.clock.advance(1_234)
    for (const url of ['/', '/specialDetail?id=1', '/ucenter']) {
      const timing = String((await page(url)).headers['server-timing'])
      expect(timing.split(/,\s*/)).toContain(`${PAGE_CLOCK_TIMING};desc=${timestamp + 1_234}`)
    }
    // The sign-in app and the console have no countdowns.
    expect((await page('/passport')).headers['server-timing']).toBeUndefined()
  })

  it('escapes < in the inlined bodies', async () => {
    const res = await page('/')
    const script = /<script type="application\/json" id="__NUMISMA_FIRST__">(.*?)<\/script>/.exec(
      res.body,
    )![1]!
    expect(script).not.toContain('<')
  })
})

/**
 * A stand-in for the web build's renderer (apps/web/src/app/first-screen-server.tsx, whose own
 * output e2e/first-screen.test.ts checks in a browser): it shows what it was given, counts its
 * renders, hoists a picture preload ahead of its markup as React does, and fails for lot 13.
 */
const RENDERER = `let renders = 0
export function renderFirstScreen({ url, bodies, config }) {
  if (url.includes('id=13')) throw new Error('render failed')
  renders += 1
  return '<link rel="preload" as="image" href="/hoisted.svg"><main data-renders="' + renders +
    '" data-url="' + url + '" data-env="' + config.env + '">' +
    Object.keys(bodies).sort().join(' ') + '</main>'
}
`

describe.each(databases)(
  'the first screen rendered by the server (ADR 026 §9) on $name',
  (kind) => {
    const shop = servedShop(kind, RENDERER)
    const page = shop.page
    const firstScreenOf = (html: string) =>
      /<div id="first-screen">(.*?)<\/div><div id="root"><!--\/root--><\/div>/.exec(html)?.[1]

    it('home: rendered from the answers inlined in the same page, in front of an empty #root', async () => {
      const res = await page('/')
      const rendered = firstScreenOf(res.body)
      expect(rendered).toContain(Object.keys(inlined(res.body)!).sort().join(' '))
      // The brand row index.html paints while the app loads is not needed under a first screen.
      expect(res.body).not.toContain('<p>brand</p>')
      // React's own preloads of the pictures are dropped: the page preloads its main one.
      expect(rendered).not.toContain('hoisted.svg')
      expect(res.body.match(/rel="preload" as="image"/g)).toHaveLength(1)
    })

    it('its stylesheets come with it, its scripts only after it has painted', async () => {
      const res = await page('/')
      const head = res.body.slice(0, res.body.indexOf('</head>'))
      for (const css of ['shell-1.css', 'landing-1.css', 'framework-1.css']) {
        expect(head).toContain(`<link rel="stylesheet" crossorigin href="/assets/${css}">`)
      }
      // The entry (index.html's own tags) stays; the app and the route are fetched by the entry.
      expect(head).toContain('src="/assets/index-1.js"')
      const links = head.match(/<link[^>]*>/g)!.join('')
      for (const js of ['start-shop-1.js', 'shell-1.js', 'home-page-1.js', 'landing-1.js']) {
        expect(links, js).not.toContain(js)
      }
      // They are listed as data, which the entry preloads after the first paint.
      const listed = new RegExp(
        `<script type="application/json" id="${FIRST_SCREEN_SCRIPTS}">(.*?)</script>`,
      ).exec(head)
      expect(JSON.parse(listed![1]!)).toEqual([
        '/assets/shell-1.js',
        '/assets/start-shop-1.js',
        '/assets/landing-1.js',
        '/assets/home-page-1.js',
      ])
    })

    it('a page without a first screen preloads the app, and its stylesheets', async () => {
      const res = await page('/ucenter')
      expect(firstScreenOf(res.body)).toBeUndefined()
      expect(res.body).toContain('<p>brand</p>')
      for (const js of ['start-shop-1.js', 'shell-1.js']) {
        expect(res.body).toContain(`<link rel="modulepreload" crossorigin href="/assets/${js}">`)
      }
      expect(res.body).toContain('<link rel="stylesheet" crossorigin href="/assets/shell-1.css">')
      // Each file named once: framework-1 is already index.html's.
      expect(res.body.match(/framework-1\.js/g)).toHaveLength(1)
    })

    it('none for a signed-in visitor or one who reads English: the app renders theirs', async () => {
      for (const cookie of [
        `${COOKIE.sid}=abc`,
        `${COOKIE.locale}=en`,
        `a=1; ${COOKIE.locale}=EN`,
      ]) {
        const res = await page('/', { cookie })
        expect(firstScreenOf(res.body), cookie).toBeUndefined()
        expect(res.body, cookie).toContain('href="/assets/home-page-1.js"')
      }
      const chinese = await page('/', { cookie: `${COOKIE.locale}=zh-CN` })
      expect(firstScreenOf(chinese.body)).toBeDefined()
    })

    it('a render that fails leaves the plain page with its scripts', async () => {
      const res = await page('/productDetail?id=13')
      expect(res.statusCode).toBe(200)
      expect(firstScreenOf(res.body)).toBeUndefined()
      expect(res.body).toContain('<p>brand</p>')
      expect(res.body).toContain('href="/assets/product-detail-route-1.js"')
    })

    it('one render serves every visitor while the answers are the same, whatever the query adds', async () => {
      const rendered = async (url: string) => {
        const main = firstScreenOf((await page(url)).body) ?? ''
        return {
          renders: Number(/data-renders="(\d+)"/.exec(main)?.[1]),
          url: /data-url="([^"]*)"/.exec(main)?.[1],
        }
      }
      const home = await rendered('/')
      expect(home.url).toBe('/')
      expect(await rendered('/?from=share&x=1')).toEqual(home)
      const lot = await rendered('/productDetail?id=2&from=share')
      expect(lot.url).toBe('/productDetail?id=2')
      // A lot's answer is asked for on every visit; unchanged, it is not rendered again.
      expect(await rendered('/productDetail?id=2')).toEqual(lot)
      shop.t.clock.advance(FIRST_SCREEN_CACHE_MS)
      expect((await rendered('/')).renders).toBeGreaterThan(lot.renders)
    })
  },
)

describe('a renderer that cannot be loaded (ADR 026 §9)', () => {
  it('leaves the plain pages, and the server starts', async () => {
    const dist = builtDist(`throw new Error('broken build')\n`)
    const t = await createTestApp(databases[0]!, { webDist: dist })
    try {
      const res = await t.inject({ method: 'GET', url: '/' })
      expect(res.statusCode).toBe(200)
      expect(res.body).not.toContain('id="first-screen"')
      expect(res.body).toContain('<p>brand</p>')
      expect(res.body).toContain('href="/assets/home-page-1.js"')
    } finally {
      await t.close()
      fs.rmSync(dist, { recursive: true, force: true })
    }
  })
})
