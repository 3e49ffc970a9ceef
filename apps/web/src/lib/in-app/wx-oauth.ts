import { WX_CALLBACK_PATH, WX_OAUTH_SCOPE } from '@numisma/contracts/in-app'
import { getClientConfig } from '../config'
import { safeRedirect } from '../redirect'

/**
 * The messaging platform's OAuth round trip as the page sees it (spec §2, DESIGN §7): the guard, the
 * callback page's retry and the binding screen's restart all leave for the authorize page the same
 * way, with a random `state` kept in this tab's sessionStorage that the callback checks (a code
 * arriving with another state was not asked for by this tab: a forged or replayed link).
 */

/** sessionStorage key of the pending round trip's `state`. */
export const WX_STATE_KEY = 'numisma.wx.state'

export interface WxOAuthSettings {
  appId: string
  /** The platform's authorize page (the sandbox's outside production). */
  authorizeUrl: string
}

/** Where the platform sends the user back: our callback, carrying the wanted same-origin path. */
export function wxCallbackUrl(origin: string, wanted: string): string {
  return `${origin}${WX_CALLBACK_PATH}?redirect=${encodeURIComponent(safeRedirect(wanted))}`
}

/** The authorize page's URL; `redirect_uri` is encoded once, the fragment is the platform's. */
export function wxAuthorizeUrl(
  settings: WxOAuthSettings,
  redirectUri: string,
  state: string,
): string {
  const params = new URLSearchParams({
    appid: settings.appId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: WX_OAUTH_SCOPE,
    state,
  })
  return `${settings.authorizeUrl}?${params.toString()}#wechat_redirect`
}

/** A fresh `state`: 32 hex characters from the browser's random source. */
export function newWxState(random: (bytes: Uint8Array<ArrayBuffer>) => Uint8Array): string {
  return Array.from(random(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('')
}

/**
 * The authorize URL for `wanted`, with a new state stored for the callback to check. Undefined
 * when the platform is not set up (client configuration `wechat: null`).
 */
export function beginWxOAuth(
  settings: WxOAuthSettings | null,
  wanted: string,
  origin: string,
  storage: Pick<Storage, 'setItem'>,
  random: (bytes: Uint8Array<ArrayBuffer>) => Uint8Array,
): string | undefined {
  if (!settings) return undefined
  const state = newWxState(random)
  storage.setItem(WX_STATE_KEY, state)
  return wxAuthorizeUrl(settings, wxCallbackUrl(origin, wanted), state)
}

/**
 * Whether the state the platform handed back is the one this tab stored. It is not used up here:
 * the code is what works once (the server refuses a second exchange with WX_CODE_INVALID), and a
 * reload of the callback should say so rather than blame the state.
 */
export function wxStateMatches(
  storage: Pick<Storage, 'getItem'>,
  returned: string | null,
): boolean {
  const expected = storage.getItem(WX_STATE_KEY)
  return expected !== null && returned !== null && expected === returned
}

/**
 * Leaves for the authorize page to sign in and come back to `wanted`; false (and nothing happens)
 * when the platform is not set up.
 */
export function startWxOAuth(wanted: string): boolean {
  const url = beginWxOAuth(
    getClientConfig().wechat,
    wanted,
    window.location.origin,
    window.sessionStorage,
    (bytes) => crypto.getRandomValues(bytes),
  )
  if (url === undefined) return false
  window.location.assign(url)
  return true
}
