import Cookies from 'js-cookie'
import { COOKIE, COOKIE_MAX_AGE_DAYS, LOGIN_COOKIES } from '@numisma/contracts/cookies'

/** The cookie store seen by the app; the browser one in production, a map in tests. */
export interface CookieJar {
  get(name: string): string | undefined
  set(name: string, value: string, days?: number): void
  remove(name: string): void
  names(): string[]
}

export const browserCookies: CookieJar = {
  // js-cookie decodes percent-encoding on read, so `display` arrives as plain text.
  get: (name) => Cookies.get(name),
  set: (name, value, days = COOKIE_MAX_AGE_DAYS) => {
    Cookies.set(name, value, { expires: days, path: '/', sameSite: 'Lax' })
  },
  remove: (name) => {
    Cookies.remove(name, { path: '/' })
  },
  names: () => Object.keys(Cookies.get()),
}

/** An in-memory jar for tests and for code that must not touch the document. */
export function memoryCookies(initial: Record<string, string> = {}): CookieJar {
  const store = new Map(Object.entries(initial))
  return {
    get: (name) => store.get(name),
    set: (name, value) => {
      store.set(name, value)
    },
    remove: (name) => {
      store.delete(name)
    },
    names: () => [...store.keys()],
  }
}

/** The signed-in user's credentials: only when userId, id and key are all present (spec §7). */
export interface Session {
  userId: string
  id: string
  key: string
  display: string
  mobile: string
}

export function readSession(jar: CookieJar = browserCookies): Session | null {
  const userId = jar.get(COOKIE.userId)
  const id = jar.get(COOKIE.id)
  const key = jar.get(COOKIE.key)
  if (!userId || !id || !key) return null
  return {
    userId,
    id,
    key,
    display: jar.get(COOKIE.display) ?? '',
    mobile: jar.get(COOKIE.mobile) ?? '',
  }
}

/** Spec §8: a 401/403 or a logout forgets the login. */
export function clearLoginCookies(jar: CookieJar = browserCookies): void {
  for (const name of LOGIN_COOKIES) jar.remove(name)
}

/** The debug logout (spec §2) clears every readable cookie; the HttpOnly sid goes via the server. */
export function clearAllCookies(jar: CookieJar = browserCookies): void {
  for (const name of jar.names()) jar.remove(name)
}

/** Spec §3: a device id is a timestamp plus a random suffix. */
export function createDeviceId(
  now: number = Date.now(),
  random: () => number = Math.random,
): string {
  const suffix = Array.from({ length: 8 }, () => Math.floor(random() * 36).toString(36)).join('')
  return `${now}${suffix}`
}

export function ensureDeviceId(jar: CookieJar = browserCookies, now: number = Date.now()): string {
  const existing = jar.get(COOKIE.deviceId)
  if (existing) return existing
  const deviceId = createDeviceId(now)
  jar.set(COOKIE.deviceId, deviceId, COOKIE_MAX_AGE_DAYS)
  return deviceId
}
