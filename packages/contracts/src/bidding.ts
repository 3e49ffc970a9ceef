import { z } from 'zod'
import { IdSchema } from './api'
import { LotCardSchema } from './catalog'
import { BID_AMOUNT_MAX } from './limits'

/**
 * Bidding and watch calls of DESIGN §9 (amounts in fen): request, response and query shapes that
 * the server's routes and the web app's API files both import.
 */
const Fen = z.number().int()

export const BidRequestSchema = z.object({
  lotId: IdSchema,
  amount: z.number().int().positive().max(BID_AMOUNT_MAX),
  proxy: z.boolean().default(false),
})
export type BidRequest = z.infer<typeof BidRequestSchema>

/**
 * Why an accepted bid does not lead (DESIGN §4): another bidder's proxy maximum is higher than the
 * bid (`proxy_higher`), or equal to it and earlier (`tie_earlier`). `minimum` is the least amount
 * that can be bid next.
 */
export const NOT_LEADING_RULES = ['proxy_higher', 'tie_earlier'] as const
export const NotLeadingSchema = z.object({
  rule: z.enum(NOT_LEADING_RULES),
  minimum: Fen,
})
export type NotLeading = z.infer<typeof NotLeadingSchema>

export const BidResultSchema = z.object({
  lotId: z.number().int(),
  price: Fen.nullable(),
  bidCount: z.number().int(),
  endsAt: z.string(),
  leading: z.boolean(),
  /** The caller's active proxy maximum on this lot. */
  myMax: Fen.nullable(),
  /** Set when the bid was accepted but another bidder keeps the lead. */
  notLeading: NotLeadingSchema.nullable().optional(),
})
export type BidResult = z.infer<typeof BidResultSchema>

export const CancelProxyRequestSchema = z.object({ lotId: IdSchema })
export type CancelProxyRequest = z.infer<typeof CancelProxyRequestSchema>
export const CancelProxyResultSchema = z.object({
  lotId: z.number().int(),
  cancelled: z.literal(true),
})
export type CancelProxyResult = z.infer<typeof CancelProxyResultSchema>

/** A row of bid history, newest first; `bidder` is masked for everyone but the bidder. */
export const BidRecordSchema = z.object({
  bidder: z.string(),
  amount: Fen,
  auto: z.boolean(),
  at: z.string(),
  mine: z.boolean(),
})
export type BidRecord = z.infer<typeof BidRecordSchema>

export const BID_HISTORY_PAGE_SIZE_MAX = 100
/** `GET /bidding/{id}?page=&pageSize=` (page from 1), answered as a paged list. */
export const BidHistoryQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(BID_HISTORY_PAGE_SIZE_MAX).default(50),
})
export type BidHistoryQuery = z.infer<typeof BidHistoryQuerySchema>

/** A row of the increment table (DESIGN §4): from this price on, bids go up by `step`. */
export const PriceStepSchema = z.object({ from: Fen, step: Fen })
export type PriceStepRow = z.infer<typeof PriceStepSchema>

/** States of a proxy bid in "my proxy bids" (spec §7 @entrust). */
export const ENTRUST_STATES = ['active', 'outbid', 'won', 'lost', 'cancelled'] as const
export const EntrustStateSchema = z.enum(ENTRUST_STATES)
export type EntrustState = z.infer<typeof EntrustStateSchema>

/** States of a lot in "my bids" (spec §7 @trade). */
export const TRADE_STATES = ['leading', 'outbid', 'won', 'lost'] as const
export const TradeStateSchema = z.enum(TRADE_STATES)
export type TradeState = z.infer<typeof TradeStateSchema>

/** One of my proxy bids (委托): the lot, my proxy maximum and where it stands. */
export const EntrustSchema = LotCardSchema.extend({
  maxAmount: Fen,
  state: EntrustStateSchema,
  updatedAt: z.string(),
})
export type Entrust = z.infer<typeof EntrustSchema>
export const EntrustQuerySchema = z.object({ state: EntrustStateSchema.optional() })
export const EntrustCountsSchema = z.record(EntrustStateSchema, z.number().int())
export type EntrustCounts = z.infer<typeof EntrustCountsSchema>

/** A lot I have bid on, with my highest bid there. */
export const TradeSchema = LotCardSchema.extend({ state: TradeStateSchema, myHighest: Fen })
export type Trade = z.infer<typeof TradeSchema>
export const TradeQuerySchema = z.object({ state: TradeStateSchema.optional() })

/** Watch on/off and watch state of lots (spec §7 `@attention`). */
export const WatchStateSchema = z.object({ lotId: z.number().int(), watching: z.boolean() })
export type WatchState = z.infer<typeof WatchStateSchema>
