import { ClientConfigSchema, type ClientConfig } from '@numisma/contracts/client-config'
import { COOKIE } from '@numisma/contracts/cookies'
import { HEADER, osInfoHeader, randomUuid, signedHeaders } from '@numisma/contracts/signing'
import fs from 'node:fs'
import path from 'node:path'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { z } from 'zod'
import { inject } from 'vitest'
import { E2E_ADMIN_PASSWORD, staffLogin } from './global-setup'

/** Journeys run in Debian's Chromium at a phone's size (375×812), as a collector would. */
export const PHONE = { width: 375, height: 812 }

export const baseUrl = (): string => inject('baseUrl')

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-quic',
      '--no-first-run',
      '--disable-sync',
    ],
  })
}

export async function phoneContext(
  browser: Browser,
  {
    waitForTheApp = true,
    ...options
  }: {
    javaScriptEnabled?: boolean
    /** See {@link waitsForTheApp}. */ waitForTheApp?: boolean
  } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    ...options,
    viewport: PHONE,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'zh-CN',
    timezoneId: 'America/New_York', // China time must not depend on the phone's zone
    baseURL: baseUrl(),
  })
  if (waitForTheApp && options.javaScriptEnabled !== false) context.on('page', waitsForTheApp)
  return context
}

/**
 * A landing page comes with the server's rendering of its first screen, in front of the app's own
 * until the app's page is on screen (ADR 026 §9): for that moment every element is there twice,
 * and only the app's copy answers a tap. Loading a page here returns once the app has taken over,
 * as a collector's taps wait for it. (e2e/first-screen.test.ts watches the first screen itself.)
 */
export function waitsForTheApp(page: Page): void {
  const untilTheApp = async <T>(loaded: Promise<T>): Promise<T> => {
    const response = await loaded
    // Well inside the app's own 15 s fallback (app/mount.tsx): a page that never takes over fails.
    await page.waitForFunction(() => !document.getElementById('first-screen'), undefined, {
      timeout: 10_000,
    })
    return response
  }
  const goto = page.goto.bind(page)
  const reload = page.reload.bind(page)
  page.goto = (url, options) => untilTheApp(goto(url, options))
  page.reload = (options) => untilTheApp(reload(options))
}

let mobileSeq = 0
export const freshMobile = (): string =>
  `137${String(process.pid % 10_000).padStart(4, '0')}${String(mobileSeq++).padStart(4, '0')}`

/**
 * Fills the real passport page, reading the sandbox SMS code it shows. Only the journeys that test
 * the sign-in screen use this; the others sign in with `signedInContext`.
 */
export async function fillSignIn(page: Page, mobile: string): Promise<void> {
  await page.locator('[data-testid=passport] input[type=tel]').fill(mobile)
  await page.locator('[data-testid=passport-send]').click()
  const hint = page.locator('[data-testid=passport-dev-code]')
  await hint.waitFor()
  const code = /(\d{6})/.exec((await hint.textContent()) ?? '')?.[1]
  if (!code) throw new Error('no sandbox code shown')
  await page.locator('[data-testid=passport] input[autocomplete=one-time-code]').fill(code)
  await page.locator('[data-testid=passport-agreement] .adm-checkbox').click()
  await page.locator('[data-testid=passport] button[type=submit]').click()
}

/* ----------------------------------------------------------------------------------------------
 * Sign-in and data over the API (STYLE.md: journeys sign in through a fixture, data from builders)
 * -------------------------------------------------------------------------------------------- */

let configPromise: Promise<ClientConfig> | undefined

/** GET /svc/client-config: the public app pair and sign secret every signed call needs. */
export function clientConfig(): Promise<ClientConfig> {
  configPromise ??= fetch(`${baseUrl()}/svc/client-config`)
    .then((res) => res.json())
    .then((body) => z.object({ data: ClientConfigSchema }).parse(body).data)
  return configPromise
}

/** A collector with a live session: the cookies the login response set. */
export interface TestUser {
  userId: number
  mobile: string
  deviceId: string
  cookies: Record<string, string>
  httpOnly: ReadonlySet<string>
}

interface CallOptions {
  method?: 'GET' | 'POST'
  body?: unknown
  /** Sign as this user (their session pair and `sid`); anonymous otherwise. */
  as?: TestUser
  deviceId?: string
  headers?: Record<string, string>
}

/** A signed call on the main service, exactly as the web client signs it. */
export async function mainCall(path: string, options: CallOptions = {}): Promise<Response> {
  const config = await clientConfig()
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST')
  const user = options.as
  const sessionId = decoded(user?.cookies[COOKIE.id])
  const sessionKey = decoded(user?.cookies[COOKIE.key])
  const app =
    sessionId !== undefined && sessionKey !== undefined
      ? { id: sessionId, key: sessionKey }
      : config.apps.h5
  const headers: Record<string, string> = {
    ...signedHeaders({
      method,
      path,
      appId: app.id,
      key: app.key,
      deviceId: user?.deviceId ?? options.deviceId ?? 'e2e-fixture',
      signSecret: config.signSecret,
      osInfo: osInfoHeader(),
      userId: user ? String(user.userId) : undefined,
    }),
    accept: 'application/json',
    ...options.headers,
  }
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  if (user) {
    headers.cookie = Object.entries(user.cookies)
      .map(([name, value]) => `${name}=${value}`)
      .join('; ')
  }
  return fetch(`${baseUrl()}/svc/main${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  })
}

/** `data` of a successful call; anything else fails the journey with the server's answer. */
export async function dataOf<T>(res: Response | Promise<Response>): Promise<T> {
  const r = await res
  const body = (await r.json()) as { data?: T }
  if (!r.ok || body.data === undefined) {
    throw new Error(`${r.url} → ${r.status} ${JSON.stringify(body)}`)
  }
  return body.data
}

/** Creates a collector (a new mobile number makes an account) and its session over the API. */
export async function createUser(mobile = freshMobile()): Promise<TestUser> {
  const deviceId = `e2e-${mobile}`
  const sms = await dataOf<{ devCode?: string }>(
    mainCall('/passport/sms', { body: { mobile }, deviceId }),
  )
  if (!sms.devCode) throw new Error('the server gave no sandbox code (production mode?)')
  const res = await mainCall('/passport/login', {
    body: { mobile, code: sms.devCode, agreement: true },
    deviceId,
  })
  const login = await dataOf<{ userId: string }>(res)
  const cookies: Record<string, string> = { [COOKIE.deviceId]: deviceId }
  const httpOnly = new Set<string>()
  for (const line of res.headers.getSetCookie()) {
    const [pair = '', ...attributes] = line.split(';')
    const at = pair.indexOf('=')
    const name = pair.slice(0, at).trim()
    // As sent: values stay URL-encoded, as the cookie header and the browser expect them.
    cookies[name] = pair.slice(at + 1).trim()
    if (attributes.some((a) => a.trim().toLowerCase() === 'httponly')) httpOnly.add(name)
  }
  return { userId: Number(login.userId), mobile, deviceId, cookies, httpOnly }
}

/** Puts a user's session into a browser context, as if they had signed in there. */
export async function signInAs(context: BrowserContext, user: TestUser): Promise<void> {
  await context.addCookies(
    Object.entries(user.cookies).map(([name, value]) => ({
      name,
      value,
      url: baseUrl(),
      httpOnly: user.httpOnly.has(name),
      sameSite: 'Lax' as const,
    })),
  )
}

/** A phone context already signed in as a new (or the given) collector. */
export async function signedInContext(
  browser: Browser,
  user?: TestUser,
): Promise<{ context: BrowserContext; page: Page; user: TestUser }> {
  const who = user ?? (await createUser())
  const context = await phoneContext(browser)
  await signInAs(context, who)
  return { context, page: await context.newPage(), user: who }
}

/** POST /bidding/bid as a user, straight to the API (another bidder in a journey). */
export function bidAs(
  user: TestUser,
  bid: { lotId: number; amount: number; proxy?: boolean },
): Promise<{ price: number | null; leading: boolean }> {
  return dataOf(
    mainCall('/bidding/bid', {
      as: user,
      body: { proxy: false, ...bid },
      headers: { [HEADER.idempotencyKey]: randomUuid() },
    }),
  )
}

/* Staff (DESIGN §9): a staff session cookie, not HMAC-signed. */

export { E2E_ADMIN_PASSWORD }

export interface Staff {
  post<T>(path: string, body: unknown): Promise<T>
}

/**
 * Acts as staff: with the run's one staff session (global-setup signs in once, as staff logins
 * are rate-limited), or a session of its own for another password.
 */
export async function staffSession(password = E2E_ADMIN_PASSWORD): Promise<Staff> {
  const cookie =
    password === E2E_ADMIN_PASSWORD ? inject('staffCookie') : await staffLogin(baseUrl(), password)
  return {
    post: <T>(path: string, body: unknown) =>
      dataOf<T>(
        fetch(`${baseUrl()}/svc/main/admin${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie },
          body: JSON.stringify(body),
        }),
      ),
  }
}

export interface SpecialInput {
  title: string
  startsAt: string
  endsAt: string
  staggerSeconds?: number
  softCloseWindowSeconds?: number
  softCloseExtendSeconds?: number
}

export interface LotInput {
  specialId: number
  title: string
  startPrice: number
  reservePrice?: number
  images?: string[]
}

const MINUTE = 60_000
let builtSeq = 0

/** A live special ending `endsInMs` from now; lots close one `staggerSeconds` apart after it. */
export function buildSpecial(
  overrides: Partial<SpecialInput> & { endsInMs?: number } = {},
): SpecialInput {
  const { endsInMs = 60 * MINUTE, ...rest } = overrides
  return {
    title: `E2E 专场 ${process.pid}-${++builtSeq}`,
    startsAt: new Date(Date.now() - MINUTE).toISOString(),
    endsAt: new Date(Date.now() + endsInMs).toISOString(),
    staggerSeconds: 1,
    ...rest,
  }
}

/** A generated coin picture served by the media module (DESIGN §8: pictures are never downloaded). */
export function coinPicture(seed: number, side: 'obverse' | 'reverse' = 'obverse'): string {
  const art = {
    kind: 'coin',
    seed,
    face: '壹圆',
    legend: '中华民国三年',
    metal: 'silver',
    holed: false,
    side,
  }
  return `/svc/media/art/${Buffer.from(JSON.stringify(art)).toString('base64url')}.svg`
}

export function buildLot(specialId: number, overrides: Partial<LotInput> = {}): LotInput {
  const seq = ++builtSeq
  return {
    specialId,
    title: `E2E 拍品 ${process.pid}-${seq} 光绪元宝 库平七钱二分`,
    startPrice: 62_000,
    images: [coinPicture(seq), coinPicture(seq, 'reverse')],
    ...overrides,
  }
}

/** A fresh special with `count` lots, created by staff; lots come back in lot order. */
export async function createSpecialWithLots(
  staff: Staff,
  special: SpecialInput,
  lots: Partial<LotInput>[],
): Promise<{ specialId: number; lots: { id: number; endsAt: string }[] }> {
  const { id: specialId } = await staff.post<{ id: number }>('/specials', special)
  const created: { id: number; endsAt: string }[] = []
  for (const lot of lots) {
    created.push(await staff.post('/lots', buildLot(specialId, lot)))
  }
  return { specialId, lots: created }
}

/** Credits a collector's deposit at the counter, so their quota covers the journey's bids. */
export function creditDeposit(staff: Staff, user: TestUser, amount: number): Promise<unknown> {
  return staff.post(`/users/${user.userId}/deposit`, { amount })
}

/** Credits a collector's balance with cash taken at the counter (staff, DESIGN §9 "Money"). */
export function creditBalance(
  staff: Staff,
  user: TestUser,
  amount: number,
): Promise<{ balance: number }> {
  return staff.post(`/users/${user.userId}/balance`, { amount })
}

export interface MallItemInput {
  title: string
  price: number
  stock: number
  categoryId?: number
  limitPerUser?: number
}

/** A mall item on sale (staff `POST /admin/mall-items`); its product number comes back. */
export function createMallItem(
  staff: Staff,
  overrides: Partial<MallItemInput> = {},
): Promise<{ id: number; productNo: string }> {
  return staff.post('/mall-items', {
    title: `E2E 商城 ${process.pid}-${++builtSeq} 1980年 长城币 壹圆`,
    price: 12_000,
    stock: 5,
    ...overrides,
  })
}

export interface CouponInput {
  title: string
  kind: 'amount' | 'percent'
  threshold: number
  amount?: number
  percent?: number
  cap?: number
  total: number
  perUser: number
  startsAt: string
  endsAt: string
  productNos?: string[]
  categoryIds?: number[]
}

/**
 * A coupon valid from a minute ago for a day (staff `POST /admin/coupons`), spend-X-save-Y by
 * default: 满100减10.
 */
export function createCoupon(
  staff: Staff,
  overrides: Partial<CouponInput> = {},
): Promise<{ id: number }> {
  return staff.post('/coupons', {
    title: `E2E 满减券 ${process.pid}-${++builtSeq}`,
    kind: 'amount',
    threshold: 10_000,
    amount: 1_000,
    total: 100,
    perUser: 1,
    startsAt: new Date(Date.now() - MINUTE).toISOString(),
    endsAt: new Date(Date.now() + 24 * 60 * MINUTE).toISOString(),
    ...overrides,
  })
}

/**
 * Every toast the page shows from now on (antd-mobile's toasts leave after 2.5 s, so a check made
 * later would miss one). Call before `goto`.
 */
export async function recordToasts(page: Page): Promise<() => Promise<string[]>> {
  // A string, not a function: this file is typed for Node, the script runs in the page.
  await page.addInitScript(`(() => {
    const seen = []
    window.__toasts = seen
    new MutationObserver(() => {
      for (const node of document.querySelectorAll('.adm-toast-main')) {
        if (node.hasAttribute('data-e2e-seen')) continue
        node.setAttribute('data-e2e-seen', '')
        seen.push(node.textContent ?? '')
      }
    }).observe(document, { childList: true, subtree: true })
  })()`)
  return () => page.evaluate<string[]>('window.__toasts')
}

const decoded = (value: string | undefined): string | undefined =>
  value === undefined ? undefined : decodeURIComponent(value)

/** With SCREENSHOT_DIR set, keeps a picture of the page (375×812) for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.SCREENSHOT_DIR
  if (!dir) return
  fs.mkdirSync(dir, { recursive: true })
  await page.screenshot({ path: path.join(dir, `${name}.png`) })
}
