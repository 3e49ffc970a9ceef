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

export async function dispatchSignIn(wanted: string, deps: SignInDeps): Promise<void> {
  if (deps.environment === 'native') {
    try {
      const bridge = await deps.bridge()
      if (!bridge) throw new Error('no bridge')
      await bridge.login(wanted)
      return
    } catch {
      // An app that refuses or does not answer: the passport page still signs the web view in.
    }
  }
  if (deps.environment === 'messaging') {
    const url = deps.wxAuthorizeUrl(wanted)
    if (url !== undefined) {
      deps.navigate(url)
      return
    }
  }
  deps.navigate(signInUrl(wanted))
}

/** Signs in where the page runs, coming back to `wanted` (pathname + search + hash). */
export function startSignIn(wanted: string, leave: 'assign' | 'replace' = 'assign'): void {
  const navigate = (url: string) => {
    if (leave === 'replace') window.location.replace(url)
    else window.location.assign(url)
  }
  dispatchSignIn(wanted, {
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
  })
}
