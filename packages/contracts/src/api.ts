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

export const IdParamsSchema = z.object({ id: z.coerce.number().int().positive() })
