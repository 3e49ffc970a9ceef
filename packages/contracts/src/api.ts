import { z } from 'zod'

/** Success envelope of DESIGN §2: `{ data: … }`. */
export function dataSchema<T extends z.ZodType>(data: T) {
  return z.object({ data })
}

/** Paged list envelope: `{ data: [...], page, pageSize, total }`. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    page: z.number().int(),
    pageSize: z.number().int(),
    total: z.number().int(),
  })
}

/**
 * A row id: positive and within a 32-bit integer, the type of the id and reference columns on
 * PostgreSQL — a larger number must be a 400, not a database error.
 */
export const ID_MAX = 2 ** 31 - 1
export const IdSchema = z.number().int().positive().max(ID_MAX)
/**
 * An id from a path or query string, spelled one way only: decimal digits without sign, leading
 * zero, space, dot or exponent. `Number()` would take `1.`, `+1`, `01`, ` 1`, `1e0` and `0x1` as 1
 * too, so one row would answer to many URLs (a cache, an audit or a rate limit keyed by the path
 * would count them apart).
 */
export const ID_PARAM_PATTERN = /^[1-9][0-9]{0,9}$/
export const IdParamSchema = z
  .string()
  .regex(ID_PARAM_PATTERN, 'a positive decimal integer')
  .transform(Number)
  .pipe(IdSchema)
/** Comma-separated ids in a query string (`orderIds=1,2,3`), each spelled as IdParamSchema. */
export function idListPattern(max: number): RegExp {
  return new RegExp(`^[1-9][0-9]{0,9}(,[1-9][0-9]{0,9}){0,${max - 1}}$`)
}
/** Up to `max` comma-separated ids from a query string, as numbers within ID_MAX. */
export function idListSchema(max: number, message = 'comma-separated ids') {
  return z
    .string()
    .regex(idListPattern(max), message)
    .transform((ids) => ids.split(',').map(Number))
    .pipe(z.array(IdSchema))
}
export const IdParamsSchema = z.object({ id: IdParamSchema })

/** `Idempotency-Key` of money- and bid-changing calls (DESIGN §2). */
export const IdempotencyKeySchema = z
  .string()
  .min(8)
  .max(128)
  .regex(/^[\w-]+$/)

/**
 * Text a person types: a name, a bank, a title, a note. Trimmed, `min`–`max` characters, and
 * without control characters — PostgreSQL refuses NUL in text (a 500, not a 400), and the others
 * have no place in a name. `multiline` lets a description keep its line breaks and tabs.
 */
export function plainText(min: number, max: number, options: { multiline?: boolean } = {}) {
  const allowed = options.multiline
    ? // eslint-disable-next-line no-control-regex
      /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/
    : // eslint-disable-next-line no-control-regex
      /^[^\u0000-\u001f\u007f]*$/
  return z
    .string()
    .trim()
    .min(min)
    .max(max)
    .regex(allowed, { message: 'must not contain control characters' })
}

/**
 * Whether a link or picture staff enter is ours or https: a path of the shop (`/mall/M100001`,
 * `/svc/media/photos/…`) or an https address. Not `//…` nor anything with a backslash, which a
 * browser reads as another host (`/\evil.example`), and never `javascript:`, `data:` or http.
 */
export function isShopLink(value: string): boolean {
  if (value.includes('\\')) return false
  if (value.startsWith('/')) return !value.startsWith('//')
  try {
    return new URL(value).protocol === 'https:'
  } catch {
    return false
  }
}

export const ShopLinkSchema = plainText(1, 2048).refine(isShopLink, {
  message: 'a path of the shop (starting with /) or an https address',
})

/** Where our own uploaded and generated pictures are served (apps/server modules/media). */
export const MEDIA_PATH_PREFIX = '/svc/media/'
const OWN_MEDIA = /^\/svc\/media(\/[\w.~-]+)+$/

/** One of our own media files: a plain path under the media prefix, no `.`/`..` segment. */
export function isOwnMediaUrl(value: string): boolean {
  return OWN_MEDIA.test(value) && !value.split('/').some((part) => part === '.' || part === '..')
}

/**
 * Whether a picture staff set (lot and item images, special covers, banners) may be shown:
 * our own media, or https on one of `hosts` (IMAGE_URL_HOSTS). Anything else — `javascript:`,
 * `data:`, plain http, an outside tracker — would run or report from every shopper's page.
 */
export function isImageUrl(value: string, hosts: readonly string[]): boolean {
  if (isOwnMediaUrl(value)) return true
  const host = httpsHost(value)
  return host !== undefined && hosts.some((allowed) => allowed.toLowerCase() === host)
}

function httpsHost(value: string): string | undefined {
  if (value.includes('\\')) return undefined
  try {
    const url = new URL(value)
    if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return undefined
    return url.hostname
  } catch {
    return undefined
  }
}

/**
 * A picture's shape: our own media or an https address. The host list is the server's
 * configuration, so the server checks the host (platform/image-hosts.ts); this already refuses
 * what no host list can make good.
 */
export const ImageUrlSchema = plainText(1, 2048).refine(
  (value) => isOwnMediaUrl(value) || httpsHost(value) !== undefined,
  { message: 'our own media (/svc/media/…) or an https address on an allowed host' },
)
