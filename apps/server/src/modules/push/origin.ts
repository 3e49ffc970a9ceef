import { PRE_RELEASE_HOST, PRODUCTION_HOST, TEST_HOST } from '@numisma/contracts/environments'

/**
 * The shop's hosted pages (spec §9). Their push socket goes to another host (`push.<domain>`,
 * see environments.ts), so "same host as the request" alone would refuse the shop itself.
 */
export const SHOP_WEB_ORIGINS: readonly string[] = [
  PRODUCTION_HOST,
  PRE_RELEASE_HOST,
  TEST_HOST,
].map((host) => `https://${host}`)

/** Host names of this machine, as a developer's browser names them (`URL.hostname`). */
const LOOPBACK_HOSTNAMES: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]'])

export interface OriginRules {
  /** Origins besides the request's own host whose pages may open a socket (normalised). */
  allowed: ReadonlySet<string>
  /**
   * Development only: a page served from this machine (localhost, 127.0.0.1, [::1], any port) may
   * open a socket whatever the Host header says. A dev server's proxy (Vite with `changeOrigin`)
   * or a local reverse proxy rewrites Host to the target and leaves Origin alone; production stays
   * strict, since a loopback origin there would be another program on the visitor's machine.
   */
  loopback: boolean
}

/**
 * Whether a WebSocket upgrade may proceed. Browsers send `Origin` on every upgrade and a page
 * cannot forge it, and the socket carries the user's cookies: without this check any site could
 * open a socket as the visitor and read their outbid notices and reminders (cross-site WebSocket
 * hijacking). A native client sends no `Origin` and is let through; cookies identify it as usual.
 */
export function originAllowed(
  origin: string | undefined,
  requestHost: string,
  rules: OriginRules,
): boolean {
  if (origin === undefined) return true
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    // `null` (a sandboxed frame, a file) or junk.
    return false
  }
  if (rules.allowed.has(url.origin)) return true
  if (
    rules.loopback &&
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    LOOPBACK_HOSTNAMES.has(url.hostname)
  ) {
    return true
  }
  return requestHost !== '' && url.host.toLowerCase() === requestHost.toLowerCase()
}

/** Configured origins, normalised (`https://a.example:443` → `https://a.example`); a typo throws at start-up. */
export function parseOrigins(list: readonly string[]): Set<string> {
  return new Set(
    list.map((entry) => {
      const url = new URL(entry.trim())
      return url.origin
    }),
  )
}
