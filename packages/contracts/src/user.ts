import { z } from 'zod'

/**
 * `GET /user/@statistics`: the signed-in user's basic data. Money (`balance`, `quota`) and the
 * counters arrive with the ledger and order modules; until a module exists its field is absent,
 * never a made-up zero, so the user centre shows a dash rather than a wrong number.
 */
export const UserCountsSchema = z.object({
  bidding: z.number().int().optional(),
  watching: z.number().int().optional(),
  entrusted: z.number().int().optional(),
  pendingPayment: z.number().int().optional(),
  toShip: z.number().int().optional(),
  toReceive: z.number().int().optional(),
  coupons: z.number().int().optional(),
})

export const UserStatisticsSchema = z.object({
  userId: z.string(),
  display: z.string(),
  mobile: z.string(),
  avatar: z.string().nullable(),
  createdAt: z.string(),
  balance: z.number().int().optional(),
  quota: z.number().int().optional(),
  counts: UserCountsSchema,
})
export type UserStatistics = z.infer<typeof UserStatisticsSchema>
export const UserStatisticsResponseSchema = z.object({ data: UserStatisticsSchema })
