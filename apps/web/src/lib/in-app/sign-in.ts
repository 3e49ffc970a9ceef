import { inBackground } from '../background'
import { getClientConfig } from '../config'
import { signInUrl } from '../guard'
import { currentInAppEnvironment, type InAppEnvironment } from './environment'
import type { NativeBridgeClient } from './native-bridge'
import { beginWxOAuth } from './wx-oauth'

/**
 * Where a sign-in goes, by environment (spec §2): the passport page in a browser and the microblog
 * app; the app's own login screen in the native app (it reloads the page through a `loginStatus`
 * event once signed in, lib/in-app/native-session); the messaging platform's OAuth in its browser.
 * Every "sign in first" of the shop — the guard and the buttons that need a user — goes through
 * here, so no caller knows about environments.
 */
export interface SignInDeps {
  environment: InAppEnvironment
  /** The app's bridge, loaded when asked (only the native app asks): it keeps zod out of the first load. */
  bridge: () => Promise<NativeBridgeClient | undefined>
  /** The authorize URL for `wanted` (its state stored), or undefined when the platform is not set up. */
  wxAuthorizeUrl: (wanted: string) => string | undefined
  /** Leaves the page: `location.replace` for the guard, `assign` for a button. */
  navigate: (url: string) => void
}

/**
 * How a sign-in ended for the page: it left for a sign-in page (`left`); the app signed in and its
 * `loginStatus` reload is coming (`signed-in`); the user closed the app's login screen
 * (`cancelled`) or the app refused or never answered (`failed`) — the page stays, signed out.
 */
export type SignInOutcome = 'left' | 'signed-in' | 'cancelled' | 'failed'

export async function dispatchSignIn(wanted: string, deps: SignInDeps): Promise<SignInOutcome> {
  if (deps.environment === 'native') {
    const bridge = await deps.bridge().catch(() => undefined)
    // Without a bridge (an app build that injects none) the passport page signs the web view in.
    if (bridge) {
      try {
        const { loggedIn } = await bridge.login(wanted)
        return loggedIn ? 'signed-in' : 'cancelled'
      } catch {
        // Not the passport page: the user asked for the app's own login, and may ask again.
        return 'failed'
      }
    }
  }
  if (deps.environment === 'messaging') {
    const url = deps.wxAuthorizeUrl(wanted)
    if (url !== undefined) {
      deps.navigate(url)
      return 'left'
    }
  }
  deps.navigate(signInUrl(wanted))
  return 'left'
}

/**
 * Signs in where the page runs, coming back to `wanted` (pathname + search + hash). For the buttons
 * that need a user: in the native app a cancelled login leaves their page as it was.
 */
export function startSignIn(wanted: string, leave: 'assign' | 'replace' = 'assign'): void {
  inBackground(requestSignIn(wanted, leave))
}

/**
 * {@link startSignIn} with its outcome, which matters only in the native app, where the page stays:
 * the guard shows its signed-out state on `cancelled` or `failed`.
 */
export function requestSignIn(wanted: string, leave: 'assign' | 'replace'): Promise<SignInOutcome> {
  const navigate = (url: string) => {
    if (leave === 'replace') window.location.replace(url)
    else window.location.assign(url)
  }
  return dispatchSignIn(wanted, {
    environment: currentInAppEnvironment(),
    bridge: () => import('./native-bridge').then((bridge) => bridge.nativeBridge()),
    wxAuthorizeUrl: (to) =>
      beginWxOAuth(
        getClientConfig().wechat,
        to,
        window.location.origin,
        window.sessionStorage,
        (bytes) => crypto.getRandomValues(bytes),
      ),
    navigate,
  }).catch(() => {
    // Storage or configuration out of reach (a locked-down web view): the passport page works anywhere.
    navigate(signInUrl(wanted))
    return 'left' as const
  })
}
