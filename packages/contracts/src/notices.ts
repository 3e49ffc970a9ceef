import { z } from 'zod'
import { IdSchema, pageSchema } from './api'

/**
 * A user's notices (DESIGN §4: reminders "land in their notices"; issue 9: the user centre counts
 * the unread ones). The server stores what happened and its facts; the web app words it in the
 * reader's language, so a notice written in Chinese is not stuck in Chinese.
 */
export const NOTICE_KINDS = [
  /** Someone bid over you. params: lotId, title, price */
  'outbid',
  /** A watched lot ends soon. params: lotId, title, endsAt */
  'ending_soon',
  /** You won a lot; pay by the due time. params: lotId, title, price, orderId, dueAt */
  'lot_won',
  /** An auction order was not paid in time: bidding is stopped. params: orderId, title */
  'order_overdue',
  /** Staff took an overdue order's amount from the deposit. params: orderId, amount */
  'order_forfeited',
  /** A remittance notice was confirmed. params: remittanceId, amount */
  'remittance_confirmed',
  /** A remittance notice was rejected. params: remittanceId, note? */
  'remittance_rejected',
  /** A withdrawal was paid out. params: withdrawalId, amount */
  'withdrawal_paid',
  /** A withdrawal was refused and its money returned. params: withdrawalId, amount, note? */
  'withdrawal_refused',
] as const
export const NoticeKindSchema = z.enum(NOTICE_KINDS)
export type NoticeKind = z.infer<typeof NoticeKindSchema>

export const NoticeParamsSchema = z.record(z.string(), z.union([z.string(), z.number()]))
export type NoticeParams = z.infer<typeof NoticeParamsSchema>

const Id = z.number().int()
const Money = z.number().int()
/** An ISO 8601 instant. */
const Instant = z.string()

/**
 * What each kind carries: the writer is typed by these, so an event cannot be recorded without
 * the facts its wording needs, and the web app reads them with the same schemas.
 */
export const NOTICE_PARAMS = {
  outbid: z.object({ lotId: Id, title: z.string(), price: Money }),
  ending_soon: z.object({ lotId: Id, title: z.string(), endsAt: Instant }),
  lot_won: z.object({
    lotId: Id,
    title: z.string(),
    price: Money,
    orderId: Id,
    dueAt: Instant,
  }),
  order_overdue: z.object({ orderId: Id, title: z.string() }),
  order_forfeited: z.object({ orderId: Id, amount: Money }),
  remittance_confirmed: z.object({ remittanceId: Id, amount: Money }),
  remittance_rejected: z.object({ remittanceId: Id, note: z.string().optional() }),
  withdrawal_paid: z.object({ withdrawalId: Id, amount: Money }),
  withdrawal_refused: z.object({ withdrawalId: Id, amount: Money, note: z.string().optional() }),
} satisfies Record<NoticeKind, z.ZodType<NoticeParams>>
export type NoticeParamsOf<K extends NoticeKind> = z.infer<(typeof NOTICE_PARAMS)[K]>

export const NoticeSchema = z.object({
  id: z.number().int(),
  kind: NoticeKindSchema,
  params: NoticeParamsSchema,
  /** An in-app path the notice opens, e.g. `/productDetail?id=12`. */
  link: z.string().nullable(),
  createdAt: z.string(),
  read: z.boolean(),
})
export type Notice = z.infer<typeof NoticeSchema>

export const NOTICES_PAGE_SIZE_MAX = 50

/** `GET /user/notices?page=&pageSize=` → the paged envelope, newest first. */
export const NoticesQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(NOTICES_PAGE_SIZE_MAX).default(20),
})
export type NoticesQuery = z.infer<typeof NoticesQuerySchema>
export const NoticesPageSchema = pageSchema(NoticeSchema)
export type NoticesPage = z.infer<typeof NoticesPageSchema>

/** `POST /user/notices/read` `{ ids? }`: marks those (or, without ids, all) read → `{ data: { unread } }`. */
export const NoticesReadSchema = z
  .object({ ids: z.array(IdSchema).min(1).max(NOTICES_PAGE_SIZE_MAX).optional() })
  .nullish()
  .transform((body) => body ?? {})
export const NoticesUnreadSchema = z.object({ unread: z.number().int() })
export type NoticesUnread = z.infer<typeof NoticesUnreadSchema>
