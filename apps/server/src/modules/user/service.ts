import type { UserCounts, UserStatistics } from '@numisma/contracts/user'
import { ORDER_GROUP_STATUSES } from '@numisma/domain/order-status'
import { AppError } from '../../platform/errors'
import type { UserRepository } from './repository'

/** What the user centre needs from the ledger (LedgerService satisfies it). */
export interface UserBalances {
  balances(userId: number): Promise<{ balance: number }>
}

/**
 * What it needs from bidding: the deposit, quota and exposure by the same rules the bid check
 * uses, and the bidding counters. app.ts adapts the bidding module's service to this.
 */
export interface UserBiddingFigures {
  quotaOf(
    userId: number,
  ): Promise<{ deposit: number; quota: number; exposure: number; freeDeposit: number }>
  counts(userId: number): Promise<UserCounts>
}

/** What it needs from coupons: the counter of usable coupons (CouponService satisfies it). */
export interface UserCouponFigures {
  usableCount(userId: number): Promise<number>
}

/** What it needs from the mall: how many mall items the user watches (MallService satisfies it). */
export interface UserMallFigures {
  watchCount(userId: number): Promise<number>
}

/** What it needs from notices: how many the user has not read (NoticesService satisfies it). */
export interface UserNoticeFigures {
  unreadCount(userId: number): Promise<number>
}

/** What it needs from the chat: the agent's messages the user has not read (ChatService). */
export interface UserChatFigures {
  unreadCount(userId: number): Promise<number>
}

/**
 * Whether the user has set a payment password (the account module, which owns payment passwords,
 * satisfies it through app.ts).
 */
export interface UserPayPasswords {
  isSet(userId: number): Promise<boolean>
}

/** Order groups of spec §4 the user centre counts, by the order statuses in each. */
const ORDER_GROUPS = ORDER_GROUP_STATUSES

export interface UserDeps {
  users: Pick<UserRepository, keyof UserRepository>
  ledger: UserBalances
  bidding: UserBiddingFigures
  coupons: UserCouponFigures
  mall: UserMallFigures
  notices: UserNoticeFigures
  chat: UserChatFigures
  payPasswords: UserPayPasswords
}

/** The user centre's use cases. */
export class UserService {
  constructor(private readonly deps: UserDeps) {}

  async exists(userId: number): Promise<boolean> {
    return (await this.deps.users.findProfile(userId)) !== undefined
  }

  async statistics(userId: number): Promise<UserStatistics> {
    const user = await this.deps.users.findProfile(userId)
    // A session outliving its user (deleted account) is as good as no session.
    if (!user) throw new AppError('SESSION_INVALID')
    const [
      { balance },
      { deposit, quota, exposure, freeDeposit },
      counts,
      coupons,
      mallWatches,
      payPasswordSet,
      orders,
      unreadNotices,
      unreadChat,
    ] = await Promise.all([
      this.deps.ledger.balances(userId),
      this.deps.bidding.quotaOf(userId),
      this.deps.bidding.counts(userId),
      this.deps.coupons.usableCount(userId),
      this.deps.mall.watchCount(userId),
      this.deps.payPasswords.isSet(userId),
      this.deps.users.orderCountsByStatus(userId, [
        ...ORDER_GROUPS.waitingToShip,
        ...ORDER_GROUPS.waitingToReceive,
      ]),
      this.deps.notices.unreadCount(userId),
      this.deps.chat.unreadCount(userId),
    ])
    const inGroup = (statuses: readonly string[]) =>
      statuses.reduce((sum, status) => sum + (orders[status] ?? 0), 0)
    return {
      userId: String(user.id),
      display: user.display,
      mobile: user.mobile,
      avatar: user.avatar,
      createdAt: new Date(user.created_at).toISOString(),
      balance,
      deposit,
      quota,
      exposure,
      freeDeposit,
      payPasswordSet,
      counts: {
        ...counts,
        // /myLike, where the counter leads, lists watched lots and mall items.
        watching: (counts.watching ?? 0) + mallWatches,
        coupons,
        waitingToShip: inGroup(ORDER_GROUPS.waitingToShip),
        waitingToReceive: inGroup(ORDER_GROUPS.waitingToReceive),
        unreadNotices,
        unreadChat,
      },
    }
  }
}
