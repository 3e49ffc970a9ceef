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

/**
 * Whether a WebSocket upgrade may proceed. Browsers send `Origin` on every upgrade and a page
 * cannot forge it, and the socket carries the user's cookies: without this check any site could
 * open a socket as the visitor and read their outbid notices and reminders (cross-site WebSocket
 * hijacking). A native client sends no `Origin` and is let through; cookies identify it as usual.
 */
export function originAllowed(
  origin: string | undefined,
  requestHost: string,
  allowed: ReadonlySet<string>,
): boolean {
  if (origin === undefined) return true
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    // `null` (a sandboxed frame, a file) or junk.
    return false
  }
  if (allowed.has(url.origin)) return true
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
