import { z } from 'zod'

const Fen = z.number().int()

/**
 * `GET /user/@statistics`: the signed-in user's basic data (DESIGN §9). Counters arrive with the
 * modules that own them (orders, mall); until a module exists its counter is absent, never a
 * made-up zero, so the user centre shows a dash rather than a wrong number.
 */
export const UserCountsSchema = z.object({
  bidding: z.number().int().optional(),
  watching: z.number().int().optional(),
  entrusted: z.number().int().optional(),
  pendingPayment: z.number().int().optional(),
  /** Orders paid or with delivery applied: waiting to ship, in storage (spec §4). */
  waitingToShip: z.number().int().optional(),
  /** Orders shipped, waiting to receive. */
  waitingToReceive: z.number().int().optional(),
  coupons: z.number().int().optional(),
  /** Notices not yet read (`GET /user/notices`). */
  unreadNotices: z.number().int().optional(),
  /** The agent's chat messages not yet read (contracts/chat). */
  unreadChat: z.number().int().optional(),
})

/**
 * Money in fen, with DESIGN §4's two names for two things: `deposit` (保证金) is money the user
 * has placed with us; `quota` (竞买额度) is the bidding limit derived from it (deposit × the
 * configured multiplier); `exposure` is how much of the quota open lots and unpaid orders hold.
 */
export const UserStatisticsSchema = z.object({
  userId: z.string(),
  display: z.string(),
  mobile: z.string(),
  avatar: z.string().nullable(),
  createdAt: z.string(),
  balance: Fen,
  deposit: Fen,
  quota: Fen,
  exposure: Fen,
  /**
   * The deposit that may leave now (back to the balance, or withdrawn): what exposure and any
   * overdue lot's claim leave free (DESIGN §4). The server judges it again when asked.
   */
  freeDeposit: Fen,
  /** Whether the user has set a payment password (paying from the balance needs one). */
  payPasswordSet: z.boolean(),
  counts: UserCountsSchema,
})
export type UserStatistics = z.infer<typeof UserStatisticsSchema>
export type UserCounts = z.infer<typeof UserCountsSchema>
export const UserStatisticsResponseSchema = z.object({ data: UserStatisticsSchema })
