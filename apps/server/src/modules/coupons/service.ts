import {
  type CouponCreate,
  type CouponHistoryQuery,
  type MallCoupon,
  type ReceivedCoupon,
  USER_COUPON_STATUSES,
  type UsableCoupon,
  type UserCouponRecord,
  type UserCouponsQuery,
  type UserCouponStatus,
} from '@numisma/contracts/mall'
import { type CouponLine, inScope, rankCoupons } from '@numisma/domain/coupons'
import type { Clock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import type { Transact } from '../../platform/transactions'
import { ruleOf, termsOf } from './mappers'
import type { CouponItem, CouponRepository, UserCouponRow } from './repository'

export interface CouponDeps {
  transact: Transact
  clock: Clock
  /** The repository's public methods, so a spec can pass an in-memory fake. */
  coupons: Pick<CouponRepository, keyof CouponRepository>
  /** A mall category and every category above it, nearest first: the catalogue's (app.ts). */
  categoryChain: (categoryId: number | null) => Promise<number[]>
}

const iso = (ms: number): string => new Date(ms).toISOString()

/**
 * A received coupon's state as the user sees it: `locked` and `used` as stored; a usable one whose
 * window has ended is `expired` (expiry is read from the coupon, never written, so no job has to
 * run at the end of a window).
 */
export function statusOf(row: UserCouponRow, now: number): UserCouponStatus {
  const stored = USER_COUPON_STATUSES.find((s) => s === row.status)
  if (!stored || stored === 'expired')
    throw new Error(`user coupon has a bad status: ${row.status}`)
  return stored === 'usable' && now >= row.coupon.ends_at ? 'expired' : stored
}

const HISTORY_TABS: Record<NonNullable<CouponHistoryQuery['state']>, UserCouponStatus[]> = {
  usable: ['usable'],
  used: ['locked', 'used'],
  expired: ['expired'],
}

/** Mall coupons (DESIGN §5): issuing them, receiving them, and offering them for an order. */
export class CouponService {
  constructor(private readonly deps: CouponDeps) {}

  /** Staff: a new coupon. Every category and item it names must exist. */
  async create(input: CouponCreate): Promise<{ id: number }> {
    const { coupons, clock } = this.deps
    const categoryIds = [...new Set(input.categoryIds)]
    const productNos = [...new Set(input.productNos)]
    const [categories, products] = await Promise.all([
      coupons.existingCategoryIds(categoryIds),
      coupons.existingProductNos(productNos),
    ])
    const fields = [
      unknownField('body.categoryIds', categoryIds, categories),
      unknownField('body.productNos', productNos, products),
    ].filter((f) => f !== null)
    if (fields.length > 0) throw new AppError('VALIDATION_FAILED', { fields })

    const id = await this.deps.transact((tx) =>
      coupons.insertCoupon(tx, {
        title: input.title,
        kind: input.kind,
        threshold: input.threshold,
        // Only the terms of its kind are stored, so a coupon never carries a stray figure.
        amount: input.kind === 'amount' ? (input.amount ?? null) : null,
        percent: input.kind === 'percent' ? (input.percent ?? null) : null,
        cap: input.kind === 'percent' ? (input.cap ?? null) : null,
        total: input.total,
        per_user: input.perUser,
        starts_at: Date.parse(input.startsAt),
        ends_at: Date.parse(input.endsAt),
        product_nos: JSON.stringify(productNos),
        category_ids: JSON.stringify(categoryIds),
        created_at: clock.now(),
      }),
    )
    return { id }
  }

  /**
   * The coupons an item page offers: open now and covering the item (named, or in its category or
   * one above it), with what the caller may still do. A signed-out caller has received none and
   * may receive any that are left (signing in comes first).
   */
  async mallCoupons(productNo: string, userId: number | null): Promise<MallCoupon[]> {
    const { coupons, clock } = this.deps
    const item = await coupons.mallItem(productNo)
    if (!item) throw new AppError('NOT_FOUND', { productNo })
    const line = await this.lineOf(item, item.price)
    const open = (await coupons.couponsOpenAt(clock.now())).filter((row) =>
      inScope(ruleOf(row), line),
    )
    const received =
      userId === null
        ? new Map<number, number>()
        : await coupons.receivedCounts(
            userId,
            open.map((row) => row.id),
          )
    return open.map((row) => {
      const mine = received.get(row.id) ?? 0
      const left = Math.max(0, row.total - row.issued)
      return {
        id: row.id,
        ...termsOf(row),
        received: mine > 0,
        receivable: left > 0 && mine < row.per_user,
        left,
      }
    })
  }

  /**
   * Receives one of a coupon. The coupon row is locked first, so its receivers queue: each sees
   * the count and its own received number as the one before it left them, and the clock is read
   * after the lock (ADR 007), so a request that queued past the end of the window is refused.
   */
  async receive(userId: number, couponId: number): Promise<ReceivedCoupon> {
    const { coupons, clock } = this.deps
    const userCouponId = await this.deps.transact(async (tx) => {
      const coupon = await coupons.lockCoupon(tx, couponId)
      if (!coupon) throw new AppError('NOT_FOUND', { couponId })
      const now = clock.now()
      if (now < coupon.starts_at || now >= coupon.ends_at || coupon.issued >= coupon.total) {
        throw new AppError('COUPON_GONE', {
          couponId,
          left: Math.max(0, coupon.total - coupon.issued),
        })
      }
      if ((await coupons.receivedCount(tx, couponId, userId)) >= coupon.per_user) {
        throw new AppError('COUPON_LIMIT', { couponId, perUser: coupon.per_user })
      }
      return coupons.issue(tx, couponId, userId, now)
    })
    return { userCouponId }
  }

  /**
   * The caller's coupons usable for one line, with what each saves, best first: an item about to
   * be bought (`productNo`, `quantity`) or the caller's own unpaid mall order (`orderId`). An order
   * that cannot take a coupon (paid, cancelled, an auction order, one that has a coupon already)
   * is offered none.
   */
  async usableFor(userId: number, query: UserCouponsQuery): Promise<UsableCoupon[]> {
    const line = await this.requestedLine(userId, query)
    if (!line) return []
    const now = this.deps.clock.now()
    const held = await this.deps.coupons.userCouponsIn(userId, 'usable', now)
    const ranked = rankCoupons(
      held.map((row) => ({ id: row.id, rule: ruleOf(row.coupon), row })),
      line,
      now,
    )
    return ranked.map(({ coupon: { row }, saving }) => ({
      userCouponId: row.id,
      couponId: row.coupon.id,
      ...termsOf(row.coupon),
      saving,
    }))
  }

  /** /myCoupon: the caller's coupons on one tab (every coupon without one), newest first. */
  async history(userId: number, state: CouponHistoryQuery['state']): Promise<UserCouponRecord[]> {
    const now = this.deps.clock.now()
    const rows = await this.deps.coupons.userCoupons(userId)
    const wanted = state === undefined ? null : HISTORY_TABS[state]
    return rows
      .map((row) => ({ row, status: statusOf(row, now) }))
      .filter(({ status }) => wanted === null || wanted.includes(status))
      .map(({ row, status }) => ({
        userCouponId: row.id,
        couponId: row.coupon.id,
        ...termsOf(row.coupon),
        status,
        orderId: row.orderId,
        receivedAt: iso(row.receivedAt),
        usedAt: row.usedAt === null ? null : iso(row.usedAt),
      }))
  }

  /** The user centre's coupon counter: usable coupons whose window has not ended. */
  usableCount(userId: number): Promise<number> {
    return this.deps.coupons.usableCount(userId, this.deps.clock.now())
  }

  private async requestedLine(userId: number, query: UserCouponsQuery): Promise<CouponLine | null> {
    const { coupons } = this.deps
    if (query.orderId === undefined) {
      const productNo = query.productNo ?? ''
      const item = await coupons.mallItem(productNo)
      if (!item) throw new AppError('NOT_FOUND', { productNo })
      return this.lineOf(item, item.price * query.quantity)
    }
    const order = await coupons.order(query.orderId)
    // Another user's order is as unknown as one that does not exist (DESIGN §9).
    if (!order || order.userId !== userId)
      throw new AppError('NOT_FOUND', { orderId: query.orderId })
    if (
      order.kind !== 'mall' ||
      order.status !== 'pending_payment' ||
      order.userCouponId !== null ||
      order.mallItemId === null
    ) {
      return null
    }
    const item = await coupons.mallItemById(order.mallItemId)
    return item ? this.lineOf(item, order.amount) : null
  }

  private async lineOf(item: CouponItem, goods: number): Promise<CouponLine> {
    return {
      productNo: item.productNo,
      categoryIds: await this.deps.categoryChain(item.categoryId),
      goods,
    }
  }
}

/** A 400 field entry naming the values that do not exist, or null when all do. */
function unknownField<T>(
  field: string,
  asked: readonly T[],
  found: readonly T[],
): { field: string; message: string } | null {
  const missing = asked.filter((v) => !found.includes(v))
  return missing.length === 0 ? null : { field, message: `unknown: ${missing.join(', ')}` }
}
