import { createHash, randomBytes, randomInt } from 'node:crypto'

export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url')

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex')

/** A numeric code with uniform digits (SMS codes). */
export function randomDigits(length: number): string {
  let out = ''
  for (let i = 0; i < length; i++) out += String(randomInt(10))
  return out
}
