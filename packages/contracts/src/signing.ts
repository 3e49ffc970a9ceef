import { hmac } from '@noble/hashes/hmac.js'
import { sha1 } from '@noble/hashes/legacy.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { HEADER, randomUuid } from './signing-headers'

export { APP_VERSION, HEADER, osInfoHeader, randomUuid } from './signing-headers'

/**
 * Request signing of spec §7 and DESIGN §3. Pure and synchronous so the browser can sign on any
 * origin: WebCrypto is missing on plain-http LAN hosts, where phones often open the shop. The web
 * app loads this module when it signs its first call; what it needs before (header names, nonces)
 * is in signing-headers.ts, re-exported here.
 */

export const SIGNING_SCHEME = 'ZHAO'
export const TIMESTAMP_TOLERANCE_MS = 300_000
/**
 * How long the server keeps a nonce: longer than any one timestamp stays acceptable (a request
 * stamped T passes from T − 300 s to T + 300 s inclusive, so first use and replay can be exactly
 * 600 s apart), plus a minute for clock skew between instances and the nonce store (Redis expires
 * by its own clock). ADR 029.
 */
export const NONCE_TTL_MS = 2 * TIMESTAMP_TOLERANCE_MS + 60_000

/** The string the HMAC covers: uppercase method, two newlines, the path, a newline, the device id. */
export function canonicalString(method: string, path: string, deviceId: string): string {
  return `${method.toUpperCase()}\n\n${path}\n${deviceId}`
}

export function hmacSignature(key: string, method: string, path: string, deviceId: string): string {
  const mac = hmac(sha1, utf8ToBytes(key), utf8ToBytes(canonicalString(method, path, deviceId)))
  return bytesToBase64(mac)
}

export function authorizationHeader(
  appId: string,
  key: string,
  method: string,
  path: string,
  deviceId: string,
): string {
  return `${SIGNING_SCHEME} ${appId}:${hmacSignature(key, method, path, deviceId)}`
}

export interface ParsedAuthorization {
  appId: string
  signature: string
}

export function parseAuthorization(value: string | undefined): ParsedAuthorization | null {
  if (!value) return null
  const match = /^ZHAO ([A-Za-z0-9_-]{1,64}):([A-Za-z0-9+/]{27}=)$/.exec(value.trim())
  if (!match) return null
  return { appId: match[1]!, signature: match[2]! }
}

/** X-Sign: hex SHA-256 over nonce + timestamp + the shared secret. */
export function xSign(nonce: string, timestamp: string, secret: string): string {
  return bytesToHex(sha256(utf8ToBytes(`${nonce}${timestamp}${secret}`)))
}

/** The signed path: the spec §7 path after the service base, without query string or hash. */
export function signedPath(pathAfterBase: string): string {
  const cut = pathAfterBase.search(/[?#]/)
  const path = cut === -1 ? pathAfterBase : pathAfterBase.slice(0, cut)
  return path.startsWith('/') ? path : `/${path}`
}

export interface SignInput {
  method: string
  /** Path after the service base URL; a query string is ignored. */
  path: string
  appId: string
  key: string
  deviceId: string
  signSecret: string
  osInfo: string
  userId?: string | undefined
  now?: number
  nonce?: string
}

export function signedHeaders(input: SignInput): Record<string, string> {
  const timestamp = String(input.now ?? Date.now())
  const nonce = input.nonce ?? randomUuid()
  const headers: Record<string, string> = {
    [HEADER.appId]: input.appId,
    [HEADER.deviceId]: input.deviceId,
    [HEADER.osInfo]: input.osInfo,
    [HEADER.authorization]: authorizationHeader(
      input.appId,
      input.key,
      input.method,
      signedPath(input.path),
      input.deviceId,
    ),
    [HEADER.nonce]: nonce,
    [HEADER.timestamp]: timestamp,
    [HEADER.sign]: xSign(nonce, timestamp, input.signSecret),
  }
  if (input.userId) headers[HEADER.userId] = input.userId
  return headers
}

export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return diff === 0
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

function bytesToBase64(bytes: Uint8Array): string {
  let out = ''
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0)
    out += B64[(n >> 18) & 63]! + B64[(n >> 12) & 63]!
    out += i + 1 < bytes.length ? B64[(n >> 6) & 63]! : '='
    out += i + 2 < bytes.length ? B64[n & 63]! : '='
  }
  return out
}
