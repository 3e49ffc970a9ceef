import { ApiError } from '../../../lib/api-client'

export const QUOTA_RECHARGE_PATH = '/account/quotaRecharge'

/** The recharge page with the way back to `back` (the lot's URL), which it offers as 返回. */
export function rechargeHref(path: string, back: string): string {
  return `${path}?redirect=${encodeURIComponent(back)}`
}

/** What the bid bar does with a refused bid or cancel. */
export type BidErrorAction =
  /** QUOTA_EXCEEDED: the server's message in a dialog with a way to recharge (spec §8). */
  | { kind: 'recharge'; message: string; path: string; limit?: number; exposure?: number }
  /** The session is gone: say so and offer sign-in. */
  | { kind: 'sign-in'; message: string }
  /** The lot moved on (outbid meanwhile, closed, …): say why and reload the lot. */
  | { kind: 'refresh'; message: string }
  | { kind: 'toast'; message: string }
  /** Already told (offline alert) or nothing to tell (aborted). */
  | { kind: 'none' }

const STALE_LOT = new Set([
  'BID_TOO_LOW',
  'BID_OFF_GRID',
  'LOT_NOT_OPEN',
  'LOT_CLOSED',
  'ALREADY_LEADING',
  'PROXY_NOT_FOUND',
])

/** Maps a failed bid call to the UI; `fallback` is the catalogue text (BID_FAILED, …). */
export function bidErrorAction(error: unknown, fallback: string): BidErrorAction {
  if (!(error instanceof ApiError)) return { kind: 'toast', message: fallback }
  const message = error.message || fallback
  if (error.code === 'OFFLINE' || error.code === 'ABORTED') return { kind: 'none' }
  if (error.code === 'QUOTA_EXCEEDED') {
    const recharge = error.details?.recharge
    // Only a path inside this app: the server's hint is never used as an arbitrary URL.
    const path =
      typeof recharge === 'string' && /^\/[\w/-]*$/.test(recharge) ? recharge : QUOTA_RECHARGE_PATH
    const fen = (value: unknown) =>
      typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined
    const limit = fen(error.details?.limit)
    const exposure = fen(error.details?.exposure)
    return {
      kind: 'recharge',
      message,
      path,
      ...(limit === undefined ? {} : { limit }),
      ...(exposure === undefined ? {} : { exposure }),
    }
  }
  if (error.status === 401 || error.code === 'UNAUTHENTICATED') return { kind: 'sign-in', message }
  if (STALE_LOT.has(error.code)) return { kind: 'refresh', message }
  return { kind: 'toast', message }
}
