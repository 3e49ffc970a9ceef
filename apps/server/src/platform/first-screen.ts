import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { PriceStepSchema } from '@numisma/contracts/bidding'
import {
  BannerSchema,
  CategorySchema,
  LotDetailSchema,
  MallItemDetailSchema,
  SpecialDetailSchema,
  SpecialSummarySchema,
} from '@numisma/contracts/catalog'
import {
  type ClientConfig,
  FIRST_SCREEN_GLOBAL,
  FIRST_SCREEN_REUSE_MS,
  FIRST_SCREEN_SCRIPTS,
} from '@numisma/contracts/client-config'
import { COOKIE } from '@numisma/contracts/cookies'
import { osInfoHeader, randomUuid, signedHeaders } from '@numisma/contracts/signing'
import { MallCouponSchema } from '@numisma/contracts/mall'
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'

/**
 * Issue 13: a landing page's first screen used to wait for HTML → JS → its API calls → pictures.
 * For the four landing URLs the server answers those GET calls itself, inlined before </head>
 * (the web client's api-client takes them instead of the network), preloads the main picture and
 * the route's chunks. Only for visitors without a session: a signed-in visitor's answers differ.
 */

/**
 * A JSON data block: read by the web client (lib/inlined-data.ts), never run, so the CSP needs no
 * 'unsafe-inline' nor a hash for it (ADR 027). `<` is escaped so the JSON cannot close the element.
 */
export function dataBlock(id: string, value: unknown): string {
  const json = JSON.stringify(value).replace(/</g, '\\u003c')
  return `<script type="application/json" id="${id}">${json}</script>`
}

type Service = 'main' | 'search'

interface Call {
  service: Service
  /** The path after the service base, as the web client builds it. */
  path: string
  /**
   * The schema of the answer's `data`: the one the web app checks this call's answer with, which
   * is the route's response schema. The app takes an inlined answer unchecked (its check's code,
   * zod, loads after the first render) and the catalogue's public reads are sent pre-serialised,
   * past the route's response schema (ADR 033): the answer is checked here, and inlined as parsed.
   */
  data: z.ZodType
  /** Asked for on every page: answers that move by the second are never reused. */
  live?: boolean
}

interface Plan {
  /** The route module in the web manifest whose static imports the page needs. */
  route: string
  /** The page's URL with only what the page reads of it: what its first screen is rendered for. */
  page: string
  calls: Call[]
  /** The later calls are only made once the first one's answer is on screen. */
  afterFirst?: boolean
  /** The main picture, from the inlined bodies (keyed by the call's path). */
  picture(body: (path: string) => unknown): string | undefined
}

const HOME = 'src/features/home/pages/home-page.tsx'
const SPECIAL = 'src/features/auction/pages/special-detail-page.tsx'
const PRODUCT = 'src/app/product-detail-route.tsx'

/** Same rule as the web app's positiveId (lib/query-param.ts). */
function positiveId(value: string | null): number | undefined {
  if (!value || !/^\d{1,15}$/.test(value)) return undefined
  const n = Number(value)
  return Number.isSafeInteger(n) && n > 0 ? n : undefined
}

function first(list: unknown, field: string): string | undefined {
  const item: unknown = Array.isArray(list) ? list[0] : undefined
  const value = isRecord(item) ? item[field] : undefined
  return typeof value === 'string' && value !== '' ? value : undefined
}

function firstString(list: unknown): string | undefined {
  const value: unknown = Array.isArray(list) ? list[0] : undefined
  return typeof value === 'string' && value !== '' ? value : undefined
}

function field(record: unknown, name: string): unknown {
  return isRecord(record) ? record[name] : undefined
}

const PRODUCT_NO = /^[A-Za-z0-9_-]{1,32}$/

/**
 * What each landing call's answer holds (the web app's schema for it, apps/web/src). None may
 * transform or coerce: parsing what they parsed must give it back unchanged, as the app would have
 * (first-screen.test.ts checks).
 */
export const FIRST_SCREEN_DATA = {
  banners: z.array(BannerSchema),
  categories: z.array(CategorySchema),
  specials: z.array(SpecialSummarySchema),
  special: SpecialDetailSchema,
  lot: LotDetailSchema,
  priceSteps: z.array(PriceStepSchema),
  mallItem: MallItemDetailSchema,
  mallCoupons: z.array(MallCouponSchema),
}

/** Which calls the page at this URL makes on its first render (apps/web/src), if it is a landing page. */
export function planFor(url: string): Plan | undefined {
  const parsed = new URL(url, 'http://x')
  const params = parsed.searchParams
  switch (parsed.pathname) {
    case '/':
      return {
        route: HOME,
        page: '/',
        calls: [
          { service: 'main', path: '/mall/advertis/0', data: FIRST_SCREEN_DATA.banners },
          { service: 'main', path: '/meta/@category', data: FIRST_SCREEN_DATA.categories },
          { service: 'main', path: '/special/V1', data: FIRST_SCREEN_DATA.specials },
        ],
        picture: (body) => first(body('/mall/advertis/0'), 'image'),
      }
    case '/specialDetail': {
      const id = positiveId(params.get('id'))
      if (id === undefined) return { route: SPECIAL, page: '', calls: [], picture: () => undefined }
      const p = `/special/${id}`
      return {
        route: SPECIAL,
        page: `/specialDetail?id=${id}`,
        afterFirst: true,
        calls: [{ service: 'main', path: p, data: FIRST_SCREEN_DATA.special }],
        picture: (body) => {
          const cover = field(body(p), 'cover')
          return typeof cover === 'string' && cover !== '' ? cover : undefined
        },
      }
    }
    case '/productDetail': {
      // product-detail-route.tsx: a productNo makes it a mall item, else ?id= is a lot.
      const productNo = params.get('productNo')?.trim()
      // A mall item number as the catalogue issues them; anything else gets the plain page, so
      // random numbers cannot make the server call its routes (or churn the cache) per request.
      if (productNo && !PRODUCT_NO.test(productNo)) return undefined
      if (productNo) {
        const no = encodeURIComponent(productNo)
        const item = `/mallproduct/getMallByProductNo/${no}`
        return {
          route: PRODUCT,
          page: `/productDetail?productNo=${no}`,
          calls: [
            { service: 'main', path: item, data: FIRST_SCREEN_DATA.mallItem },
            {
              service: 'main',
              path: `/mallproduct/getMallCoupons/${no}`,
              data: FIRST_SCREEN_DATA.mallCoupons,
            },
          ],
          picture: (body) => firstString(field(body(item), 'images')),
        }
      }
      const id = positiveId(params.get('id'))
      if (id === undefined) return { route: PRODUCT, page: '', calls: [], picture: () => undefined }
      const lot = `/auction/${id}`
      return {
        route: PRODUCT,
        page: `/productDetail?id=${id}`,
        // The price steps are asked for as soon as the lot is on screen. The server time never
        // comes inlined: its offset is measured over the request's own round trip, and a time
        // stamped when the HTML was made would run every countdown slow by the page's load time.
        afterFirst: true,
        calls: [
          // Never from the cache: a lot's price moves by the second near its close.
          { service: 'main', path: lot, live: true, data: FIRST_SCREEN_DATA.lot },
          { service: 'main', path: '/bidding/price-step', data: FIRST_SCREEN_DATA.priceSteps },
        ],
        picture: (body) => firstString(field(body(lot), 'images')),
      }
    }
    default:
      return undefined
  }
}

interface ManifestChunk {
  file: string
  imports?: string[]
  dynamicImports?: string[]
  css?: string[]
}

/** The chunks a module needs, as `<link>` tags: scripts to preload and stylesheets. */
export interface ChunkLinks {
  scripts: string
  styles: string
  /** The scripts' addresses, for a page that lists them as data (ADR 026 §9). */
  scriptFiles: string[]
}

/** The app the entry loads (apps/web/src/main.tsx): start-up, the shell and the framework. */
export const APP = 'src/app/start-shop.tsx'

/**
 * The modulepreload and stylesheet links of the app and of each landing route, less what
 * index.html already names. The app's are in every page (web-app.ts); a route's in its pages.
 */
export function routeLinks(distDir: string, indexHtml: string): Map<string, ChunkLinks> {
  const links = new Map<string, ChunkLinks>()
  const file = path.join(distDir, '.vite', 'manifest.json')
  if (!fs.existsSync(file)) return links
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, ManifestChunk>
  const inIndex = (asset: string) => indexHtml.includes(`/${asset}"`)
  const ofApp = new Set<string>()
  for (const route of [APP, HOME, SPECIAL, PRODUCT]) {
    if (!manifest[route]) continue
    const scripts: string[] = []
    const styles: string[] = []
    const seen = new Set<string>()
    const visit = (key: string) => {
      const chunk = manifest[key]
      if (!chunk || seen.has(key)) return
      seen.add(key)
      for (const dep of chunk.imports ?? []) visit(dep)
      if (!inIndex(chunk.file) && !ofApp.has(chunk.file)) scripts.push(chunk.file)
      for (const css of chunk.css ?? [])
        if (!inIndex(css) && !ofApp.has(css) && !styles.includes(css)) styles.push(css)
    }
    visit(route)
    if (route === APP) for (const f of [...scripts, ...styles]) ofApp.add(f)
    links.set(route, {
      scriptFiles: scripts.map((f) => `/${f}`),
      scripts: scripts
        .map((f) => `<link rel="modulepreload" crossorigin href="/${attr(f)}">`)
        .join(''),
      styles: styles.map((f) => `<link rel="stylesheet" crossorigin href="/${attr(f)}">`).join(''),
    })
  }
  return links
}

/** How long an answer is reused for the same URL: a burst of visitors costs one set of calls. */
export const FIRST_SCREEN_CACHE_MS = FIRST_SCREEN_REUSE_MS
const CACHE_LIMIT = 500

/** True when the visitor's cookies carry a session (the HttpOnly sid or the spec §3 login). */
export function hasSession(request: FastifyRequest): boolean {
  const login: string[] = [COOKIE.sid, COOKIE.id, COOKIE.key, COOKIE.userId]
  return cookieNames(request).some(([name]) => login.includes(name))
}

/** True when the visitor chose English (the web app's `lang` cookie): the server renders Chinese. */
export function choseEnglish(request: FastifyRequest): boolean {
  return cookieNames(request).some(
    ([name, value]) => name === COOKIE.locale && value.toLowerCase().startsWith('en'),
  )
}

function cookieNames(request: FastifyRequest): [string, string][] {
  const header = request.headers.cookie
  if (!header) return []
  return header.split(';').map((part) => {
    const at = part.indexOf('=')
    return at === -1 ? [part.trim(), ''] : [part.slice(0, at).trim(), part.slice(at + 1).trim()]
  })
}

/** The web app's server renderer (apps/web/src/app/first-screen-server.tsx, built into dist/.ssr). */
export interface Renderer {
  renderFirstScreen(input: {
    url: string
    config: ClientConfig
    bodies: Record<string, unknown>
    now: number
  }): string | undefined
}

/** Loads the built renderer; undefined when the web app was built without it. */
export async function loadRenderer(
  distDir: string,
  log: FastifyBaseLogger,
): Promise<Renderer | undefined> {
  const file = path.join(distDir, '.ssr', 'first-screen.js')
  if (!fs.existsSync(file)) return undefined
  try {
    const loaded = (await import(pathToFileURL(file).href)) as Partial<Renderer>
    return typeof loaded.renderFirstScreen === 'function' ? (loaded as Renderer) : undefined
  } catch (error) {
    // The pages are served without first screens, as by a build without the renderer.
    log.error({ err: error, file }, 'first-screen renderer failed to load')
    return undefined
  }
}

/**
 * React puts a preload of every eager picture ahead of the markup it renders to a string; the
 * page already preloads its main picture with a high priority, and the rest are the browser's to
 * order.
 */
const HOISTED_PRELOADS = /^(?:<link rel="preload" as="image"[^>]*>)+/

export interface FirstScreenPage {
  /** What goes before </head>. */
  head: string
  /** The server-rendered first screen for #root, when there is one. */
  root?: string
}

export interface FirstScreen {
  /** This URL's additions to index.html, or undefined when it is no landing page. */
  page(request: FastifyRequest): Promise<FirstScreenPage | undefined>
}

export function firstScreen(
  app: FastifyInstance,
  config: ClientConfig,
  links: Map<string, ChunkLinks>,
  now: () => number,
  renderer?: Renderer,
): FirstScreen {
  const cache = new Map<string, { at: number; body: Promise<unknown> }>()
  const rendered = new Map<string, { at: number; html: string | undefined }>()
  const osInfo = osInfoHeader()
  const log = app.log.child({ module: 'first-screen' })

  /**
   * The call signed exactly like an anonymous browser: the body of a 2xx whose `data` passes the
   * call's schema, with `data` as parsed; else undefined (the app then makes the call itself).
   */
  async function fetchBody(call: Call, deviceId: string): Promise<unknown> {
    const pair = config.apps[call.service === 'main' ? 'h5' : 'search']
    const res = await app.inject({
      method: 'GET',
      url: `${config.services[call.service]}${call.path}`,
      headers: {
        ...signedHeaders({
          method: 'GET',
          path: call.path,
          appId: pair.id,
          key: pair.key,
          deviceId,
          signSecret: config.signSecret,
          osInfo,
          now: now(),
          nonce: randomUuid(),
        }),
        'accept-language': 'zh-CN',
        accept: 'application/json',
      },
    })
    if (res.statusCode < 200 || res.statusCode >= 300) return undefined
    let body: unknown
    try {
      body = res.json()
    } catch {
      return undefined
    }
    if (!isRecord(body) || !('data' in body)) return undefined
    const data = call.data.safeParse(body.data)
    if (!data.success) {
      log.error({ path: call.path, issues: data.error.issues }, 'answer refused by its schema')
      return undefined
    }
    return { ...body, data: data.data }
  }

  /** A value made at most FIRST_SCREEN_CACHE_MS ago for the same key, else a new one. */
  function reused<T>(map: Map<string, { at: number } & T>, key: string, make: () => T): T {
    const at = now()
    const hit = map.get(key)
    if (hit && at - hit.at < FIRST_SCREEN_CACHE_MS && at >= hit.at) return hit
    if (map.size >= CACHE_LIMIT) {
      for (const [k, v] of map) if (at - v.at >= FIRST_SCREEN_CACHE_MS) map.delete(k)
      if (map.size >= CACHE_LIMIT) map.clear()
    }
    const made = { ...make(), at }
    map.set(key, made)
    return made
  }

  function body(call: Call, deviceId: string): Promise<unknown> {
    if (call.live) return fetchBody(call, deviceId).catch(() => undefined)
    return reused(cache, `${call.service}${call.path}`, () => ({
      body: fetchBody(call, deviceId).catch(() => undefined),
    })).body
  }

  /** The first screen from the inlined answers; undefined (the client renders it) on any failure. */
  function render(url: string, bodies: Record<string, unknown>): string | undefined {
    if (!renderer) return undefined
    try {
      return renderer
        .renderFirstScreen({ url, config, bodies, now: now() })
        ?.replace(HOISTED_PRELOADS, '')
    } catch (error) {
      log.warn({ err: error, url }, 'first screen not rendered')
      return undefined
    }
  }

  return {
    async page(request) {
      const plan = planFor(request.url)
      if (!plan) return undefined
      const chunks = links.get(plan.route) ?? { scripts: '', styles: '', scriptFiles: [] }
      if (hasSession(request)) return { head: chunks.scripts + chunks.styles }
      const deviceId = `first-screen-${randomUuid()}`
      const bodies = await Promise.all(plan.calls.map((call) => body(call, deviceId)))
      if (plan.afterFirst && bodies[0] === undefined) bodies.fill(undefined)
      const inlined: Record<string, unknown> = {}
      const byPath = new Map<string, unknown>()
      plan.calls.forEach((call, i) => {
        const value = bodies[i]
        if (value === undefined) return
        inlined[`${config.services[call.service]}${call.path}`] = value
        byPath.set(call.path, value)
      })
      // Rendered for the page's own URL (what else the query holds changes nothing on screen)
      // and reused while the answers are the same, so neither random query strings nor a crowd
      // on a lot costs a render per visitor.
      const root =
        choseEnglish(request) || Object.keys(inlined).length === 0
          ? undefined
          : reused(rendered, `${plan.page} ${digest(inlined)}`, () => ({
              html: render(plan.page, inlined),
            })).html
      const picture = plan.picture((p) => field(byPath.get(p), 'data'))
      return {
        head: [
          Object.keys(inlined).length > 0 ? dataBlock(FIRST_SCREEN_GLOBAL, inlined) : '',
          picture
            ? `<link rel="preload" as="image" fetchpriority="high" href="${attr(picture)}">`
            : '',
          // A rendered first screen paints before any script is fetched: the entry preloads the
          // app's and the route's scripts after it (apps/web/src/main.tsx).
          root === undefined
            ? chunks.scripts
            : dataBlock(FIRST_SCREEN_SCRIPTS, [
                ...(links.get(APP)?.scriptFiles ?? []),
                ...chunks.scriptFiles,
              ]),
          chunks.styles,
        ].join(''),
        root,
      }
    },
  }
}

function digest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('base64url')
}

function attr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
