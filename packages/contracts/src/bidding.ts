import { z } from 'zod'

/** Bidding calls of DESIGN §9 (amounts in fen). */
export const BidRequestSchema = z.object({
  lotId: z.number().int().positive(),
  amount: z.number().int().positive().max(100_000_000_000),
  proxy: z.boolean().default(false),
})
export type BidRequest = z.infer<typeof BidRequestSchema>

export const BidResultSchema = z.object({
  lotId: z.number().int(),
  price: z.number().int().nullable(),
  bidCount: z.number().int(),
  endsAt: z.string(),
  leading: z.boolean(),
  myMax: z.number().int().nullable(),
})
export type BidResult = z.infer<typeof BidResultSchema>

export const CancelProxyRequestSchema = z.object({ lotId: z.number().int().positive() })

export const BidRecordSchema = z.object({
  bidder: z.string(),
  amount: z.number().int(),
  auto: z.boolean(),
  at: z.string(),
  mine: z.boolean(),
})
export type BidRecord = z.infer<typeof BidRecordSchema>

/** States of a proxy bid in "my proxy bids" (spec §7 @entrust). */
export const ENTRUST_STATES = ['active', 'outbid', 'won', 'lost', 'cancelled'] as const
export const EntrustStateSchema = z.enum(ENTRUST_STATES)

/** States of a lot in "my bids" (spec §7 @trade). */
export const TRADE_STATES = ['leading', 'outbid', 'won', 'lost'] as const
export const TradeStateSchema = z.enum(TRADE_STATES)

/** Push messages on /svc/push/ws. */
export const PushSubscribeSchema = z.object({
  type: z.literal('subscribe'),
  lotIds: z.array(z.number().int().positive()).max(200),
})
