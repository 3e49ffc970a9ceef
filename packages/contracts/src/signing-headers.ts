/**
 * What of request signing (spec §7, signing.ts) needs no hashing: the header names, the OS info
 * header and nonces. The web app imports these from here, and signing.ts with its hashing only
 * when its first call is signed, so the first load carries no hash code (issue 13). signing.ts
 * re-exports them: the server and tests import everything from there.
 */

export const APP_VERSION = '2.0.0'

export const HEADER = {
  appId: 'x-app-id',
  deviceId: 'x-device-id',
  osInfo: 'x-os-info',
  authorization: 'authorization',
  userId: 'x-user-id',
  nonce: 'x-nonce',
  timestamp: 'x-timestamp',
  sign: 'x-sign',
  locale: 'accept-language',
  idempotencyKey: 'idempotency-key',
} as const

/** OS info header value: `os=h5;version=2.0.0;…` */
export function osInfoHeader(extra: Record<string, string> = {}): string {
  return Object.entries({ os: 'h5', version: APP_VERSION, ...extra })
    .map(([k, v]) => `${k}=${v.replace(/[;=\r\n]/g, ' ')}`)
    .join(';')
}

/** UUID v4 from getRandomValues, which (unlike randomUUID) exists on insecure origins too. */
export function randomUuid(): string {
  const bytes = new Uint8Array(16)
  globalThis.crypto.getRandomValues(bytes)
  bytes[6] = (bytes[6]! & 0x0f) | 0x40
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
