import { COOKIE } from '@numisma/contracts/cookies'
import type { NativeUserData } from '@numisma/contracts/native-bridge'
import { browserCookies, clearLoginCookies, type CookieJar } from '../cookies'
import type { NativeBridgeClient } from './native-bridge'

/**
 * Spec §2 inside the native app: the app owns the login, so before the first render the page
 * takes the user data from the bridge into the spec §3 cookies (the HttpOnly `sid` is already in
 * the web view's cookie store, put there by the app), and reloads whenever the app says its login
 * changed. An app that fails or does not answer within the bridge's timeout leaves the page
 * signed out rather than blank: stale cookies would sign calls the app no longer backs.
 */
export async function syncNativeSession(
  bridge: NativeBridgeClient,
  jar: CookieJar = browserCookies,
): Promise<void> {
  const data = await bridge.getUserData().catch(() => null)
  if (data) writeLoginCookies(jar, data)
  else clearLoginCookies(jar)
}

export function writeLoginCookies(jar: CookieJar, data: NativeUserData): void {
  jar.set(COOKIE.id, data.id)
  jar.set(COOKIE.key, data.key)
  jar.set(COOKIE.userId, data.userId)
  jar.set(COOKIE.display, data.display)
  jar.set(COOKIE.mobile, data.mobile)
  jar.set(COOKIE.agreement, data.agreement)
  jar.set(COOKIE.loginTime, data.loginTime)
}

/** Signed in or out natively: a reload starts the page over from the app's new user data. */
export function reloadOnLoginStatus(
  bridge: NativeBridgeClient,
  reload: () => void = () => window.location.reload(),
): () => void {
  return bridge.onLoginStatus(() => reload())
}
