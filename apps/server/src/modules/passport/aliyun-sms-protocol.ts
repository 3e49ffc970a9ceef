import { createHmac } from 'node:crypto'

/**
 * The SMS provider's RPC protocol (Alibaba Cloud `SendSms`, API version 2017-05-25), shared by our
 * sender and the sandbox that stands in for the provider (modules/sandbox/sms-sandbox.ts).
 *
 * Signature (SignatureMethod HMAC-SHA1, SignatureVersion 1.0): sort every parameter but
 * `Signature` by name, percent-encode names and values (RFC 3986: only A–Z a–z 0–9 - _ . ~ stay,
 * a space is %20), join as `k=v&…`; the string to sign is `METHOD&%2F&` + that string encoded
 * once more; the signature is Base64(HMAC-SHA1(AccessKeySecret + "&", string to sign)).
 */
export const SMS_API_VERSION = '2017-05-25'
export const SMS_DEFAULT_ENDPOINT = 'https://dysmsapi.aliyuncs.com'
/** How far a request's Timestamp may be from the provider's clock. */
export const SMS_TIMESTAMP_SKEW_MS = 15 * 60 * 1000

/** RFC 3986 encoding as the provider computes it (encodeURIComponent leaves !'()* alone). */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  )
}

export function canonicalQuery(params: Record<string, string>): string {
  return Object.keys(params)
    .filter((name) => name !== 'Signature')
    .sort()
    .map((name) => `${percentEncode(name)}=${percentEncode(params[name]!)}`)
    .join('&')
}

export function stringToSign(method: 'GET' | 'POST', params: Record<string, string>): string {
  return `${method}&${percentEncode('/')}&${percentEncode(canonicalQuery(params))}`
}

export function rpcSignature(
  method: 'GET' | 'POST',
  params: Record<string, string>,
  accessKeySecret: string,
): string {
  return createHmac('sha1', `${accessKeySecret}&`)
    .update(stringToSign(method, params), 'utf8')
    .digest('base64')
}

/** `2026-11-26T12:00:00Z`: ISO 8601 in UTC, whole seconds, as the provider wants it. */
export function rpcTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
}

/** The provider's answer to `SendSms` (JSON): `Code` "OK" when the text is accepted. */
export interface SendSmsAnswer {
  RequestId: string
  Code: string
  Message: string
  BizId?: string
}
