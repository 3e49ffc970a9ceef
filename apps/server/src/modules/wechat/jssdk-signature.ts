import { createHash } from 'node:crypto'

/**
 * The JS-SDK's `wx.config` signature, as the platform publishes it (JS-SDK 说明文档, 附录1
 * "JS-SDK使用权限签名算法"): the fields `jsapi_ticket`, `noncestr`, `timestamp` and `url` sorted by
 * name, joined as `key=value` with `&` (values raw, not URL-encoded), and the SHA-1 of that in
 * lower-case hex. `url` is the page's full URL without its `#` part. Our signing endpoint and the
 * platform sandbox's check both use this one function.
 */
export interface JssdkSignInput {
  ticket: string
  nonceStr: string
  /** Seconds since the epoch. */
  timestamp: number
  url: string
}

export function jssdkSignature(input: JssdkSignInput): string {
  const fields: Record<string, string> = {
    jsapi_ticket: input.ticket,
    noncestr: input.nonceStr,
    timestamp: String(input.timestamp),
    url: withoutHash(input.url),
  }
  const plain = Object.keys(fields)
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('&')
  return createHash('sha1').update(plain, 'utf8').digest('hex')
}

/** The platform signs the URL without its fragment; a page may pass `location.href` as it is. */
export function withoutHash(url: string): string {
  const hash = url.indexOf('#')
  return hash === -1 ? url : url.slice(0, hash)
}
