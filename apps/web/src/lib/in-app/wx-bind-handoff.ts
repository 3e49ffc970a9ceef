/**
 * What the callback page hands the sign-in app when the platform's user has no account linked yet
 * (`linked: false`): the bind token and the nickname and avatar to greet them with. It travels in
 * this tab's sessionStorage, not in the `/passport` URL: the token is a short-lived credential for
 * `POST /passport/wx-bind`, and a URL ends up in the history, in Referer headers and in access logs.
 * Both apps are on one origin, so the storage is shared; `?bind=1` only says which mode to open in.
 */
export const WX_BIND_KEY = 'numisma.wx.bind'

/** The `/passport` query parameter that opens the binding screen. */
export const WX_BIND_PARAM = 'bind'

export interface WxBindHandoff {
  bindToken: string
  nickname: string
  avatar: string
}

export function storeWxBind(storage: Pick<Storage, 'setItem'>, handoff: WxBindHandoff): void {
  storage.setItem(WX_BIND_KEY, JSON.stringify(handoff))
}

/** The stored handoff, or undefined when there is none (another tab, or already used). */
export function readWxBind(storage: Pick<Storage, 'getItem'>): WxBindHandoff | undefined {
  const raw = storage.getItem(WX_BIND_KEY)
  if (raw === null) return undefined
  try {
    const value: unknown = JSON.parse(raw)
    return isHandoff(value) ? value : undefined
  } catch {
    return undefined
  }
}

export function clearWxBind(storage: Pick<Storage, 'removeItem'>): void {
  storage.removeItem(WX_BIND_KEY)
}

function isHandoff(value: unknown): value is WxBindHandoff {
  if (typeof value !== 'object' || value === null) return false
  const v = value as Record<string, unknown>
  return (
    typeof v.bindToken === 'string' &&
    v.bindToken.length > 0 &&
    typeof v.nickname === 'string' &&
    typeof v.avatar === 'string'
  )
}

/** The binding screen of the sign-in app, coming back to `wanted` afterwards. */
export function wxBindUrl(wanted: string): string {
  return `/passport?redirect=${encodeURIComponent(wanted)}&${WX_BIND_PARAM}=1`
}
