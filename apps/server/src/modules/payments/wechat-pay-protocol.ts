import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/**
 * The messaging platform's pay protocol, version 2 (WeChat Pay's "V2" API, which the spec §3 pay
 * request follows): requests, replies and notices are flat `<xml>` documents, each signed with
 * the merchant key. Shared by our client (wechat-pay.ts) and the local sandbox that stands in
 * for the platform (modules/sandbox), so both speak exactly this; the sign is checked against
 * the platform's published example in wechat-pay-protocol.test.ts, so the two cannot agree on a
 * wrong one.
 */
export type WxFields = Record<string, string>

/** Everything the platform names in a document is a string on the wire; numbers are written out. */
export type WxInput = Readonly<Record<string, string | number | undefined>>

/**
 * The MD5 sign of the platform's "安全规范": every field with a non-empty value except `sign`,
 * sorted by name (ASCII), as `name=value` joined with `&`, then `&key=<merchant key>`; MD5, hex in
 * upper case.
 */
export function wxSign(fields: WxInput, key: string): string {
  const pairs = Object.entries(fields)
    .filter(([name, value]) => name !== 'sign' && value !== undefined && String(value) !== '')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${String(value)}`)
  return createHash('md5')
    .update(`${pairs.join('&')}&key=${key}`, 'utf8')
    .digest('hex')
    .toUpperCase()
}

/** Whether a received document carries the sign its fields and the merchant key give. */
export function wxVerify(fields: WxFields, key: string): boolean {
  const given = fields.sign
  if (given === undefined || !/^[0-9A-Fa-f]{32}$/.test(given)) return false
  const expected = Buffer.from(wxSign(fields, key), 'utf8')
  return timingSafeEqual(Buffer.from(given.toUpperCase(), 'utf8'), expected)
}

/** A signed copy of the fields (undefined values dropped). */
export function signed(fields: WxInput, key: string): WxFields {
  const out: WxFields = {}
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined) out[name] = String(value)
  }
  out.sign = wxSign(out, key)
  return out
}

/** A random `nonce_str`: 32 hexadecimal characters (the platform allows up to 32). */
export const wxNonce = (): string => randomBytes(16).toString('hex')

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/

/** `]]>` cannot sit inside one CDATA section: it is split across two. */
const cdata = (value: string): string => `<![CDATA[${value.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`

/** The flat `<xml>` document the platform exchanges; every value in CDATA. */
export function toXml(fields: WxInput): string {
  let body = ''
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue
    if (!NAME.test(name)) throw new Error(`not a field name: ${name}`)
    body += `<${name}>${cdata(String(value))}</${name}>`
  }
  return `<xml>${body}</xml>`
}

const ENTITIES: Record<string, string> = {
  '&lt;': '<',
  '&gt;': '>',
  '&amp;': '&',
  '&quot;': '"',
  '&apos;': "'",
}

/** At most this many fields in one document: the platform's longest (a notice) has about 20. */
const MAX_FIELDS = 64
const ELEMENT =
  /\s*<([A-Za-z_][A-Za-z0-9_]{0,63})>((?:<!\[CDATA\[[\s\S]*?\]\]>)+|[^<]*)<\/([A-Za-z_][A-Za-z0-9_]{0,63})>/y

/**
 * Reads a flat `<xml>` document: child elements holding text or CDATA, nothing nested, no
 * declarations (no DOCTYPE, so no entity can be defined or expanded). Anything else — a second
 * level, a repeated field, stray text — is not a platform document: null.
 */
export function parseXml(text: string): WxFields | null {
  const match = /^\s*(?:<\?xml[^?]*\?>\s*)?<xml>([\s\S]*)<\/xml>\s*$/.exec(text)
  if (!match) return null
  const inner = match[1]!
  const fields: WxFields = {}
  let count = 0
  ELEMENT.lastIndex = 0
  while (ELEMENT.lastIndex < inner.length) {
    if (/^\s*$/.test(inner.slice(ELEMENT.lastIndex))) break
    const element = ELEMENT.exec(inner)
    if (!element || element[1] !== element[3]) return null
    const [, name, raw] = element as unknown as [string, string, string]
    if (Object.hasOwn(fields, name) || ++count > MAX_FIELDS) return null
    fields[name] = raw.startsWith('<![CDATA[')
      ? [...raw.matchAll(/<!\[CDATA\[([\s\S]*?)\]\]>/g)].map((m) => m[1]).join('')
      : raw.replace(/&(lt|gt|amp|quot|apos);/g, (entity) => ENTITIES[entity]!).trim()
  }
  return fields
}

/** The merchant's acknowledgement of a notice (the platform retries until it reads SUCCESS). */
export const noticeReply = (ok: boolean, message: string): string =>
  toXml({ return_code: ok ? 'SUCCESS' : 'FAIL', return_msg: message })

/** `yyyyMMddHHmmss` in China time, as the platform writes `time_end`. */
export function chinaTime(ms: number): string {
  const d = new Date(ms + 8 * 60 * 60 * 1000)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`
}
