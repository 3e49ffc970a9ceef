import { createHash, createHmac, randomBytes, randomInt } from 'node:crypto'
import { canonicalString } from '@numisma/contracts/signing'

export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url')

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex')

/**
 * The checks of a signed call (packages/contracts/signing.ts) with Node's native hashing: the
 * contracts' pure-JS versions, which the web app needs, cost about five times as much, and every
 * read verifies both (a fifth of the server's CPU on the read path, ADR 033). signing.test.ts
 * holds them equal to the contracts' own.
 */
export const xSignNative = (nonce: string, timestamp: string, secret: string): string =>
  sha256Hex(`${nonce}${timestamp}${secret}`)

export const hmacSignatureNative = (
  key: string,
  method: string,
  path: string,
  deviceId: string,
): string =>
  createHmac('sha1', key)
    .update(canonicalString(method, path, deviceId))
    .digest('base64')

/** A numeric code with uniform digits (SMS codes). */
export function randomDigits(length: number): string {
  let out = ''
  for (let i = 0; i < length; i++) out += String(randomInt(10))
  return out
}
