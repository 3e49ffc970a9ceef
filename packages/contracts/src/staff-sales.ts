import { z } from 'zod'
import { IdSchema } from './api'
import { LotStatusSchema } from './catalog'
import { formatFen } from './money'
import { OrderStatusSchema } from './orders'

/**
 * The console's sales area (issue 12, under `/svc/main/admin/sales`): a running special watched
 * live, its closing results, relisting what did not sell, and overdue winners. Amounts in fen,
 * times ISO.
 */
const Fen = z.number().int().positive().max(100_000_000_000)

/** Where a special stands by the clock: before its start, taking bids, or past its last lot. */
export const SaleStateSchema = z.enum(['upcoming', 'running', 'closed'])
export type SaleState = z.infer<typeof SaleStateSchema>

export const SalesSpecialSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  startsAt: z.string(),
  /** The special's nominal end; its lots close one stagger apart after it, soft close aside. */
  endsAt: z.string(),
  /** When its last lot ends (soft-close extensions included). */
  lastLotEndsAt: z.string().nullable(),
  state: SaleStateSchema,
  lotCount: z.number().int(),
})
export type SalesSpecial = z.infer<typeof SalesSpecialSchema>

/** A collector as staff see them: the id and a masked mobile (138****8000), never the full one. */
export const SalesBuyerSchema = z.object({
  userId: z.number().int(),
  mobile: z.string(),
  display: z.string(),
})
export type SalesBuyer = z.infer<typeof SalesBuyerSchema>

export const LiveLotSchema = z.object({
  id: z.number().int(),
  lotNo: z.number().int(),
  title: z.string(),
  image: z.string().nullable(),
  startPrice: z.number().int(),
  reservePrice: z.number().int().nullable(),
  price: z.number().int().nullable(),
  bidCount: z.number().int(),
  /** Collectors watching (关注) the lot. */
  watchers: z.number().int(),
  leader: SalesBuyerSchema.nullable(),
  reserveMet: z.boolean(),
  /** Soft-close extensions included. */
  endsAt: z.string(),
  status: LotStatusSchema,
})
export type LiveLot = z.infer<typeof LiveLotSchema>

/** What a sale has taken so far (packages/domain sales-totals, the same on both sides). */
export const SaleTotalsSchema = z.object({
  lots: z.number().int(),
  /** Lots sold (closed as sold, or past their end with a leader at the reserve). */
  sold: z.number().int(),
  unsold: z.number().int(),
  /** Hammer prices of the lots sold. */
  hammer: z.number().int(),
  bids: z.number().int(),
  watchers: z.number().int(),
  /** Sold over closed lots, in per cent with one decimal (0 while none has closed). */
  sellThrough: z.number(),
})
export type SaleTotals = z.infer<typeof SaleTotalsSchema>

export const LiveViewSchema = z.object({
  special: SalesSpecialSchema,
  /** By lot number. */
  lots: z.array(LiveLotSchema),
  totals: SaleTotalsSchema,
  /** The server's clock when read, for the countdowns. */
  serverTime: z.string(),
})
export type LiveView = z.infer<typeof LiveViewSchema>

/** A relisted lot's successor. */
export const RelistedAsSchema = z.object({ lotId: z.number().int(), specialId: z.number().int() })

/** Bids stopped below the reserve, or nobody bid. */
export const UnsoldReasonSchema = z.enum(['reserve_not_met', 'no_bids'])
export type UnsoldReason = z.infer<typeof UnsoldReasonSchema>

export const ResultLotSchema = z.object({
  id: z.number().int(),
  lotNo: z.number().int(),
  title: z.string(),
  /** `live`/`preview` while the lot has not closed yet. */
  status: LotStatusSchema,
  startPrice: z.number().int(),
  reservePrice: z.number().int().nullable(),
  /** The price it sold at (落槌价); null unless sold. */
  hammer: z.number().int().nullable(),
  /** The highest bid reached (最高出价), whatever the outcome; null without bids. */
  highestBid: z.number().int().nullable(),
  /** Who holds the highest bid: for a lot unsold below its reserve, whom the house may call. */
  highestBidder: SalesBuyerSchema.nullable(),
  /** Why an unsold lot did not sell; null for any other status. */
  unsoldReason: UnsoldReasonSchema.nullable(),
  bidCount: z.number().int(),
  buyer: SalesBuyerSchema.nullable(),
  order: z.object({ id: z.number().int(), status: OrderStatusSchema }).nullable(),
  relistedAs: RelistedAsSchema.nullable(),
  /** Unsold, or sold with its order forfeited (cancelled), and not relisted yet. */
  relistable: z.boolean(),
})
export type ResultLot = z.infer<typeof ResultLotSchema>

const OUTCOME_TEXT: Record<ResultLot['status'], string> = {
  sold: '成交',
  unsold: '流拍',
  live: '竞拍中',
  preview: '未开拍',
}

/**
 * A lot's outcome in the words the results page and its CSV both use: 成交, 流拍（未达保留价
 * ¥5,000.00）, 流拍（无人出价）, 竞拍中, 未开拍 — as the word and the reason in brackets (the page
 * sets the reason under the word), or as one text.
 */
export function resultOutcomeParts(
  lot: Pick<ResultLot, 'status' | 'unsoldReason' | 'reservePrice'>,
): { word: string; reason: string | null } {
  const word = OUTCOME_TEXT[lot.status]
  if (lot.status !== 'unsold') return { word, reason: null }
  if (lot.unsoldReason === 'reserve_not_met' && lot.reservePrice !== null)
    return { word, reason: `（未达保留价 ¥${formatFen(lot.reservePrice)}）` }
  if (lot.unsoldReason === 'no_bids') return { word, reason: '（无人出价）' }
  return { word, reason: null }
}

export function resultOutcomeText(
  lot: Pick<ResultLot, 'status' | 'unsoldReason' | 'reservePrice'>,
): string {
  const { word, reason } = resultOutcomeParts(lot)
  return `${word}${reason ?? ''}`
}

export const SaleResultsSchema = z.object({
  special: SalesSpecialSchema,
  lots: z.array(ResultLotSchema),
  totals: SaleTotalsSchema,
})
export type SaleResults = z.infer<typeof SaleResultsSchema>

/**
 * Relist an unsold (or forfeited) lot as a new lot in a special that has not closed. Without
 * `startPrice` the old start price is kept (moved down onto the grid if the grid changed);
 * `reservePrice` omitted keeps the old reserve, null drops it.
 */
export const RelistSchema = z.object({
  specialId: IdSchema,
  startPrice: Fen.optional(),
  reservePrice: Fen.nullable().optional(),
})
export type Relist = z.infer<typeof RelistSchema>

export const RelistedSchema = z.object({
  lotId: z.number().int(),
  newLotId: z.number().int(),
  specialId: z.number().int(),
  lotNo: z.number().int(),
  startPrice: z.number().int(),
  reservePrice: z.number().int().nullable(),
  endsAt: z.string(),
})
export type Relisted = z.infer<typeof RelistedSchema>

/** An overdue winner's order, or one forfeited whose lot still waits to be relisted. */
export const OverdueOrderSchema = z.object({
  orderId: z.number().int(),
  status: OrderStatusSchema,
  lotId: z.number().int(),
  lotNo: z.number().int(),
  title: z.string(),
  specialId: z.number().int(),
  specialTitle: z.string(),
  buyer: SalesBuyerSchema,
  hammer: z.number().int(),
  total: z.number().int(),
  /** The lot's own prices, which a relist starts from. */
  startPrice: z.number().int(),
  reservePrice: z.number().int().nullable(),
  dueAt: z.string().nullable(),
  /** The winner's deposit now: what a forfeit may take, up to the hammer. */
  deposit: z.number().int(),
  relistedAs: RelistedAsSchema.nullable(),
})
export type OverdueOrder = z.infer<typeof OverdueOrderSchema>
