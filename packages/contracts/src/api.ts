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
