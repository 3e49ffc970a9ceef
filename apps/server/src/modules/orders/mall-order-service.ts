import { MIN_TOTAL } from '@numisma/domain/coupons'
import { MALL_PAYMENT_MINUTES } from '@numisma/domain/fees'
import type { Locale } from '@numisma/contracts/errors'
import {
  type CreateOrderRequest,
  type CreateOrderResult,
  PURCHASE_DETAILS,
  type PurchaseRecord,
  type PurchaseStatus,
} from '@numisma/contracts/mall'
import type { CancelOrderResult, Order } from '@numisma/contracts/orders'
import type { Clock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import { type IdempotencyStore, requestHash } from '../../platform/idempotency'
import type { Transact, Tx } from '../../platform/transactions'
import { maskBidder } from '@numisma/domain/mask'
import type { CouponHolds } from './coupon-holds'
import { toOrder } from './mappers'
import type { OrderReads } from './reads-repository'
import type { LockedMallItem, OrdersRepository } from './repository'
import { cancelRefusal, couponStep, stockStep, unwindMallOrder } from './steps'

const MINUTE = 60_000

/** The first two checks, which need nothing but the item: off sale, then not enough stock. */
function quickRefusal(
  item: Pick<LockedMallItem, 'onSale' | 'stock'>,
  quantity: number,
): PurchaseOutcome | null {
  if (!item.onSale) return { status: 'OFF_SALE' }
  if (item.stock < quantity) return { status: 'SOLD_OUT', left: item.stock }
  return null
}

export interface MallOrderDeps {
  transact: Transact
  clock: Clock
  orders: OrdersRepository
  reads: OrderReads
  /** The coupons module's holds (app.ts passes them in). */
  holds: CouponHolds
  idempotency: IdempotencyStore
  /**
   * A mall category and every category above it, nearest first: the catalogue's (app.ts passes
   * it in). It reads outside any transaction, so it is called before the purchase's.
   */
  categoryChain: (categoryId: number | null) => Promise<number[]>
  /**
   * Which of the orders an open counter cash booking holds (modules/bookings, through app.ts).
   * Such an order is not the buyer's to cancel: the booking holds a place at the counter for it,
   * and would go on holding it for an order that no longer exists (ADR 016). Called under the
   * order's row lock, which a booking also takes.
   */
  bookedAtCounter: (tx: Tx, orderIds: readonly number[]) => Promise<Set<number>>
}

/**
 * What a purchase came to, before its `detail` is put in the caller's words: this is what an
 * `Idempotency-Key` stores, so a retry in another language reads its own.
 */
export interface PurchaseOutcome {
  status: PurchaseStatus
  orderId?: number
  left?: number
}

/**
 * Buying from the mall, and the buyer's orders. A purchase runs in one write transaction that locks
 * the item, so buyers of one item apply one at a time and stock never oversells; the clock is read
 * after that lock. Every check comes before the first write: an outcome other than SUCCESS writes
 * nothing (but the idempotency result). An item off sale or sold out as last committed is refused
 * before the transaction, so buyers of a sold-out item never queue for its lock.
 */
export class MallOrderService {
  private readonly stock
  private readonly coupon

  constructor(private readonly deps: MallOrderDeps) {
    this.stock = stockStep(deps.orders)
    this.coupon = couponStep(deps.holds)
  }

  async createOrder(
    userId: number,
    request: CreateOrderRequest,
    options: { locale: Locale; idempotencyKey?: string | undefined },
  ): Promise<CreateOrderResult> {
    const { orders, reads, idempotency, clock } = this.deps
    const key = options.idempotencyKey
    const hash = requestHash(request)
    const say = (outcome: PurchaseOutcome): CreateOrderResult => ({
      ...outcome,
      detail: PURCHASE_DETAILS[outcome.status][options.locale],
    })
    // Read as last committed, without the lock: a flash sale's buyers would otherwise all queue on
    // the item's row lock, each holding a pool connection, and stall every other request.
    const seen = await reads.mallItem(request.productNo)
    if (!seen) throw new AppError('NOT_FOUND', { productNo: request.productNo })
    const refusal = quickRefusal(seen, request.quantity)
    // Answered at once and not kept under the key (like bidding's stale-bid refusal), unless the
    // key already has a committed first result: then the transaction replays it.
    if (refusal && !(key && (await idempotency.committed(userId, key)))) return say(refusal)
    // The coupon's scope is judged on the item's category as read here: an item's category is
    // set when it is listed (no call changes it), and the chain cannot be read inside the
    // transaction (SQLite has one connection).
    const categoryIds =
      request.userCouponId === undefined ? [] : await this.deps.categoryChain(seen.categoryId)
    const outcome = await this.deps.transact(async (tx) => {
      const item = await orders.lockMallItem(tx, request.productNo)
      // After the lock: a buyer who queued behind others is judged when their order is applied.
      const now = clock.now()
      // After the item lock, so a concurrent retry with the same key waits and then replays.
      if (key) {
        const claim = await idempotency.claim<PurchaseOutcome>(tx, userId, key, hash, now)
        if (claim.kind === 'replay') return claim.result
      }
      if (!item) throw new AppError('NOT_FOUND', { productNo: request.productNo })
      const result = await this.place(tx, userId, item, request, { now, categoryIds })
      if (key) await idempotency.complete(tx, userId, key, result)
      return result
    })
    return say(outcome)
  }

  /** The checks, in the order a buyer would want to hear them, then the steps. */
  private async place(
    tx: Tx,
    userId: number,
    item: LockedMallItem,
    request: CreateOrderRequest,
    { now, categoryIds }: { now: number; categoryIds: readonly number[] },
  ): Promise<PurchaseOutcome> {
    const { orders, holds } = this.deps
    const { quantity, userCouponId } = request
    const refusal = quickRefusal(item, quantity)
    if (refusal) return refusal
    if (item.limitPerUser !== null) {
      const held = await orders.unitsHeld(tx, userId, item.id)
      if (held + quantity > item.limitPerUser) {
        return { status: 'LIMIT_EXCEEDED', left: Math.max(0, item.limitPerUser - held) }
      }
    }
    const goods = item.price * quantity
    let discount = 0
    if (userCouponId !== undefined) {
      const line = { productNo: item.productNo, categoryIds, goods }
      const claim = await holds.claim(tx, { userId, userCouponId, line, now })
      // The coupons module leaves at least a fen to pay (ADR 011); this holds every order to it
      // whatever an implementation returns, and a coupon that would save nothing is not used.
      discount = claim ? Math.min(claim.saving, goods - MIN_TOTAL) : 0
      if (discount <= 0) return { status: 'COUPON_INVALID' }
    }

    // Every check passed: the steps. The item row is locked, so the stock cannot have fallen
    // since it was read; the conditional update is the last guard all the same.
    if (!(await this.stock.run(tx, { mallItemId: item.id, quantity }))) {
      return { status: 'SOLD_OUT', left: item.stock }
    }
    const orderId = await orders.insertMallOrder(tx, {
      userId,
      mallItemId: item.id,
      quantity,
      amount: goods,
      discount,
      userCouponId: userCouponId ?? null,
      dueAt: now + MALL_PAYMENT_MINUTES * MINUTE,
      now,
    })
    if (userCouponId !== undefined) await this.coupon.run(tx, { userCouponId, orderId })
    return { status: 'SUCCESS', orderId }
  }

  /**
   * The buyer cancels an unpaid mall order: stock and coupon come back, exactly once (the order
   * row is locked first and its status judged under the lock).
   */
  async cancel(userId: number, orderId: number): Promise<CancelOrderResult> {
    const { orders, clock } = this.deps
    await this.deps.transact(async (tx) => {
      const order = await orders.lockOrder(tx, orderId)
      const now = clock.now()
      if (!order || order.userId !== userId) throw new AppError('NOT_FOUND', { orderId })
      if (cancelRefusal(order) !== null) throw new AppError('ORDER_NOT_CANCELLABLE', { orderId })
      if ((await this.deps.bookedAtCounter(tx, [orderId])).has(orderId)) {
        throw new AppError('ORDER_NOT_CANCELLABLE', { orderId, reason: 'booked_at_counter' })
      }
      const unwound = await unwindMallOrder(tx, order, now, {
        orders,
        stock: this.stock,
        coupon: this.coupon,
      })
      // Unreachable under the row lock (the status was just checked); a guard, not a path.
      if (!unwound) throw new AppError('ORDER_NOT_CANCELLABLE', { orderId })
    })
    return { orderId, status: 'cancelled' }
  }

  // Reads.

  /**
   * The units of an item the user holds in orders not cancelled: the figure the per-user limit
   * counts, read by the same query, for the item page (`boughtByMe`). 0 for an unknown item.
   */
  async unitsHeld(productNo: string, userId: number): Promise<number> {
    const itemId = await this.deps.reads.mallItemId(productNo)
    return itemId === undefined ? 0 : this.deps.orders.committedUnitsHeld(userId, itemId)
  }

  /** The caller's orders pending payment (auction and mall), newest first. */
  async pendingOrders(userId: number): Promise<Order[]> {
    return (await this.deps.reads.pendingOf(userId)).map(toOrder)
  }

  /** Every order of the caller, whatever its status, newest first (the web files them by group). */
  async allOrders(userId: number): Promise<Order[]> {
    return (await this.deps.reads.allOf(userId)).map(toOrder)
  }

  /** One of the caller's orders; another user's answers 404 like a missing one. */
  async order(userId: number, orderId: number): Promise<Order> {
    const row = await this.deps.reads.order(orderId)
    if (!row || row.user_id !== userId) throw new AppError('NOT_FOUND', { orderId })
    return toOrder(row)
  }

  /** Who bought the item, newest first: buyers masked but for the caller, cancelled orders left out. */
  async purchaseRecords(
    productNo: string,
    viewer: number | null,
    query: { page: number; pageSize: number },
  ): Promise<{ data: PurchaseRecord[]; page: number; pageSize: number; total: number }> {
    const itemId = await this.deps.reads.mallItemId(productNo)
    if (itemId === undefined) throw new AppError('NOT_FOUND', { productNo })
    const { rows, total } = await this.deps.reads.purchaseRecords(itemId, {
      offset: (query.page - 1) * query.pageSize,
      limit: query.pageSize,
    })
    return {
      data: rows.map((r) => ({
        buyer: r.user_id === viewer ? r.display : maskBidder(r.display),
        quantity: r.quantity,
        at: new Date(r.created_at).toISOString(),
        mine: r.user_id === viewer,
      })),
      page: query.page,
      pageSize: query.pageSize,
      total,
    }
  }
}
