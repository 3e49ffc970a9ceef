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
/** An id from a path or query string. */
export const IdParamSchema = z.coerce.number().int().positive().max(ID_MAX)
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
