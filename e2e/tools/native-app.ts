import { NATIVE_BRIDGE_GLOBAL, NATIVE_RECEIVER_GLOBAL } from '@numisma/contracts/in-app'
import { COOKIE } from '@numisma/contracts/cookies'
import {
  NativeCallSchema,
  NativeUserDataSchema,
  type NativeCall,
  type NativeMessage,
  type NativeUserData,
} from '@numisma/contracts/native-bridge'
import type { ShareInfo } from '@numisma/contracts/share'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { baseUrl, PHONE, waitsForTheApp, type TestUser } from '../fixtures'

/**
 * Our native app, simulated for the journeys (DESIGN §7; the contract is docs/native-bridge.md).
 * The app's state lives here, outside the page, as a real app's does — it survives the reloads the
 * page makes on a login-status event. The page sees what a real web view gives it: the
 * `NumismaApp/<version>` user agent, `window.NumismaBridge.postMessage(json)`, and replies through
 * `window.__numismaBridgeReceive(json)`. The test plays the app's user: `nativeLogin` is someone
 * finishing the app's login screen, `nativeLogout` signing out in the app's settings.
 */
export const NATIVE_APP_VERSION = '2.0.0'
export const NATIVE_USER_AGENT =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) ' +
  `Mobile/15E148 NumismaApp/${NATIVE_APP_VERSION}`

/** The page-side global through which the simulated bridge reaches this file. */
const BINDING = '__numismaNativeApp'

export interface NativeAppState {
  /** The app's login, or null when signed out; what `getUserData` answers. */
  userData: NativeUserData | null
  /** Every call any page of the context posted, in order. */
  readonly calls: NativeCall[]
  /** The `redirect` of each `login` call: the native login screen was asked for. */
  readonly loginRequests: string[]
  /** The ids of `login` calls whose screen is still open: answered by nativeLogin or nativeCancelLogin. */
  readonly openLogins: string[]
  /** The share info of each `share` call (for the sharing journeys). */
  readonly shared: ShareInfo[]
  /** What the share sheet answers: shared, cancelled, or failed. */
  shareOutcome: 'shared' | 'cancelled' | 'failed'
  /** False: calls are recorded but never answered (an old or hung app; the page's timeout). */
  answers: boolean
}

export interface NativeAppOptions {
  /** Already signed in to the app when the web view opens: its sid is in the cookie store. */
  user?: TestUser
  /** See NativeAppState.answers; true unless given. */
  answers?: boolean
}

const apps = new WeakMap<BrowserContext, NativeAppState>()

/** A phone context that is our native app's web view, with the simulated bridge. */
export async function nativeAppContext(
  browser: Browser,
  options: NativeAppOptions = {},
): Promise<{ context: BrowserContext; app: NativeAppState }> {
  const context = await browser.newContext({
    viewport: PHONE,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'zh-CN',
    timezoneId: 'America/New_York',
    baseURL: baseUrl(),
    userAgent: NATIVE_USER_AGENT,
  })
  context.on('page', waitsForTheApp)
  const app: NativeAppState = {
    userData: null,
    calls: [],
    loginRequests: [],
    openLogins: [],
    shared: [],
    shareOutcome: 'shared',
    answers: options.answers ?? true,
  }
  apps.set(context, app)
  if (options.user) await signInApp(context, app, options.user)

  await context.exposeBinding(BINDING, (_source, json: unknown) => answer(app, json))
  await context.addInitScript(
    ({ bridge, receiver, binding }) => {
      const page = globalThis as unknown as Record<string, unknown>
      const state = { calls: [] as unknown[], shared: [] as unknown[] }
      page.__nativeApp = state
      const toApp = page[binding] as (json: string) => Promise<string | null>
      page[bridge] = {
        postMessage(json: unknown) {
          // Android's @JavascriptInterface takes a string only; an object would not get through.
          if (typeof json !== 'string')
            throw new TypeError('NumismaBridge.postMessage takes a string')
          const call = JSON.parse(json) as { method?: string; info?: unknown }
          state.calls.push(call)
          if (call.method === 'share') state.shared.push(call.info)
          // Answered later, never inside postMessage, as the real app's main thread does.
          toApp(json)
            .then((reply) => {
              const receive = page[receiver]
              if (reply !== null && typeof receive === 'function') receive(reply)
            })
            // A call the app cannot read gets no reply, as from a real app: the page's timeout shows it.
            .catch((error: unknown) => {
              console.error('simulated native app:', error)
            })
        },
      }
    },
    { bridge: NATIVE_BRIDGE_GLOBAL, receiver: NATIVE_RECEIVER_GLOBAL, binding: BINDING },
  )
  return { context, app }
}

function answer(app: NativeAppState, json: unknown): string | null {
  const call = NativeCallSchema.parse(JSON.parse(String(json)))
  app.calls.push(call)
  if (!app.answers) return null
  const reply = (fields: Omit<Extract<NativeMessage, { type: 'reply' }>, 'type' | 'id'>) =>
    JSON.stringify({ type: 'reply', id: call.id, ...fields })
  switch (call.method) {
    case 'getUserData':
      return reply({ ok: true, result: app.userData })
    case 'login':
      // The login screen opens; its reply comes when it closes: the test's move (nativeLogin,
      // nativeCancelLogin, or nothing).
      app.loginRequests.push(call.redirect)
      app.openLogins.push(call.id)
      return null
    case 'share':
      app.shared.push(call.info)
      return app.shareOutcome === 'failed'
        ? reply({ ok: false, error: 'share sheet unavailable' })
        : reply({ ok: true, result: { shared: app.shareOutcome === 'shared' } })
  }
}

/** The spec §3 cookies of a login, as the app hands them over: plain text, not URL-encoded. */
export function nativeUserDataOf(user: TestUser): NativeUserData {
  const value = (name: string) => decodeURIComponent(user.cookies[name] ?? '')
  return NativeUserDataSchema.parse({
    id: value(COOKIE.id),
    key: value(COOKIE.key),
    userId: value(COOKIE.userId),
    display: value(COOKIE.display),
    mobile: value(COOKIE.mobile),
    loginTime: value(COOKIE.loginTime),
    agreement: value(COOKIE.agreement),
  })
}

/** After its own POST /passport/login the app puts the HttpOnly sid into the web view's store. */
async function signInApp(context: BrowserContext, app: NativeAppState, user: TestUser) {
  const sid = user.cookies[COOKIE.sid]
  if (!sid) throw new Error('the test user has no sid cookie')
  await context.addCookies([
    { name: COOKIE.sid, value: sid, url: baseUrl(), httpOnly: true, sameSite: 'Lax' },
  ])
  app.userData = nativeUserDataOf(user)
}

function appOf(page: Page): NativeAppState {
  const app = apps.get(page.context())
  if (!app) throw new Error('not a native app context (use nativeAppContext)')
  return app
}

async function sendLoginStatus(page: Page, loggedIn: boolean): Promise<void> {
  await send(page, { type: 'loginStatus', loggedIn })
}

async function send(page: Page, event: NativeMessage): Promise<void> {
  await page.evaluate(
    ({ receiver, json }) => {
      const receive = (globalThis as unknown as Record<string, unknown>)[receiver]
      if (typeof receive !== 'function') throw new Error('the page installed no bridge receiver')
      receive(json)
    },
    { receiver: NATIVE_RECEIVER_GLOBAL, json: JSON.stringify(event) },
  )
}

/** The login screens open on the page's behalf close: each `login` call gets its reply. */
async function closeLogins(page: Page, loggedIn: boolean): Promise<void> {
  const app = appOf(page)
  for (const id of app.openLogins.splice(0)) {
    await send(page, { type: 'reply', id, ok: true, result: { loggedIn } })
  }
}

/**
 * The app's user finishes the native login screen as `user`: sid stored, data held, the `login`
 * call answered, the event sent.
 */
export async function nativeLogin(page: Page, user: TestUser): Promise<void> {
  await signInApp(page.context(), appOf(page), user)
  await closeLogins(page, true)
  await sendLoginStatus(page, true)
}

/** The app's user closes the native login screen without signing in. */
export async function nativeCancelLogin(page: Page): Promise<void> {
  const app = appOf(page)
  if (app.openLogins.length === 0) throw new Error('no login screen is open')
  await closeLogins(page, false)
}

/** The app's user signs out in the app: sid gone, no user data, event sent. */
export async function nativeLogout(page: Page): Promise<void> {
  await page.context().clearCookies({ name: COOKIE.sid })
  appOf(page).userData = null
  await sendLoginStatus(page, false)
}

/** What the page asked the app's share sheet to share, across reloads, oldest first. */
export function nativeShares(page: Page): readonly ShareInfo[] {
  return appOf(page).shared
}

/** The app's state behind a page of a native app context. */
export function nativeAppOf(page: Page): NativeAppState {
  return appOf(page)
}
