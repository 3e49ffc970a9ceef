import { PURCHASE_DETAILS } from '@numisma/contracts/mall'
import type { FastifyBaseLogger } from 'fastify'
import { describe, expect, it } from 'vitest'
import { FakeClock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import type { IdempotencyStore } from '../../platform/idempotency'
import type { Transact, Tx } from '../../platform/transactions'
import type { CouponHolds } from './coupon-holds'
import { MallOrderExpiry } from './expiry'
import { MallOrderService } from './mall-order-service'
import type { OrderReads } from './reads-repository'
import type { LockedMallItem, LockedOrder, NewMallOrder, OrdersRepository } from './repository'

/**
 * MallOrderService and the expiry job over an in-memory store (the Immich pattern): the checks,
 * the limit arithmetic, the order of the coupon steps and their undo run without a database. The
 * fake transaction restores the store when its work throws, as a database's rollback would.
 */
const YUAN = 100
const MINUTE = 60_000
const NOW = Date.UTC(2026, 10, 24, 2, 0, 0)
const ALICE = 1
const BOB = 2

const buildItem = (overrides: Partial<LockedMallItem> = {}): LockedMallItem => ({
  id: 5,
  productNo: 'M100005',
  categoryId: 12,
  price: 88 * YUAN,
  stock: 10,
  limitPerUser: null,
  onSale: true,
  ...overrides,
})

interface StoredOrder extends LockedOrder {
  amount: number
  discount: number
  total: number
  createdAt: number
  cancelledAt: number | null
}

interface State {
  items: (LockedMallItem & { sold: number })[]
  orders: StoredOrder[]
  /** userCouponId → the order that locks it. */
  lockedCoupons: Map<number, number>
  keys: Record<string, { hash: string; result: unknown }>
}

function setup(
  options: {
    item?: LockedMallItem
    /** The saving a claimed coupon gives; null: the coupons module refuses it. */
    saving?: number | null
    /** Replaces a coupon step, to make it fail. */
    holds?: Partial<CouponHolds>
  } = {},
) {
  const clock = new FakeClock(NOW)
  let state: State = {
    items: [{ ...(options.item ?? buildItem()), sold: 0 }],
    orders: [],
    lockedCoupons: new Map(),
    keys: {},
  }
  const log: string[] = []
  const itemById = (id: number) => state.items.find((i) => i.id === id)!

  let transactions = 0
  const transact = (async (work: (tx: Tx) => Promise<unknown>) => {
    transactions++
    const before = structuredClone(state)
    try {
      return await work({} as Tx)
    } catch (error) {
      state = before
      log.push('rollback')
      throw error
    }
  }) as Transact

  const unitsHeld = (userId: number, mallItemId: number) =>
    state.orders
      .filter(
        (o) =>
          o.userId === userId &&
          o.mallItemId === mallItemId &&
          o.kind === 'mall' &&
          o.status !== 'cancelled',
      )
      .reduce((sum, o) => sum + o.quantity, 0)

  const orders = {
    lockMallItem: (_tx: Tx, productNo: string) => {
      log.push('lockItem')
      const item = state.items.find((i) => i.productNo === productNo)
      return Promise.resolve(item && { ...item })
    },
    unitsHeld: (_tx: Tx, userId: number, mallItemId: number) =>
      Promise.resolve(unitsHeld(userId, mallItemId)),
    committedUnitsHeld: (userId: number, mallItemId: number) =>
      Promise.resolve(unitsHeld(userId, mallItemId)),
    reserveStock: (_tx: Tx, mallItemId: number, quantity: number) => {
      log.push('reserveStock')
      const item = itemById(mallItemId)
      if (item.stock < quantity) return Promise.resolve(false)
      item.stock -= quantity
      item.sold += quantity
      return Promise.resolve(true)
    },
    returnStock: (_tx: Tx, mallItemId: number, quantity: number) => {
      log.push('returnStock')
      const item = itemById(mallItemId)
      item.stock += quantity
      item.sold -= quantity
      return Promise.resolve()
    },
    insertMallOrder: (_tx: Tx, order: NewMallOrder) => {
      log.push('insertOrder')
      const id = state.orders.length + 100
      state.orders.push({
        id,
        userId: order.userId,
        kind: 'mall',
        status: 'pending_payment',
        mallItemId: order.mallItemId,
        quantity: order.quantity,
        userCouponId: order.userCouponId,
        payMethod: null,
        dueAt: order.dueAt,
        amount: order.amount,
        discount: order.discount,
        total: order.amount - order.discount,
        createdAt: order.now,
        cancelledAt: null,
      })
      return Promise.resolve(id)
    },
    lockOrder: (_tx: Tx, orderId: number) => {
      const order = state.orders.find((o) => o.id === orderId)
      return Promise.resolve(order && { ...order })
    },
    markCancelled: (_tx: Tx, orderId: number, now: number) => {
      const order = state.orders.find((o) => o.id === orderId)
      if (order?.status !== 'pending_payment') return Promise.resolve(false)
      order.status = 'cancelled'
      order.cancelledAt = now
      return Promise.resolve(true)
    },
    dueMallOrders: (now: number, limit: number, skip: readonly number[] = []) =>
      Promise.resolve(
        state.orders
          .filter(
            (o) =>
              o.kind === 'mall' &&
              o.status === 'pending_payment' &&
              o.dueAt !== null &&
              o.dueAt <= now &&
              o.payMethod !== 'remittance' &&
              !skip.includes(o.id),
          )
          .slice(0, limit)
          .map((o) => ({ id: o.id })),
      ),
  }

  const claims: Parameters<CouponHolds['claim']>[1][] = []
  const holds: CouponHolds = {
    claim: (_tx, request) => {
      log.push('claim')
      claims.push(request)
      const saving = options.saving === undefined ? 10 * YUAN : options.saving
      const free = !state.lockedCoupons.has(request.userCouponId)
      return Promise.resolve(saving === null || !free ? null : { saving })
    },
    lock: (_tx, userCouponId, orderId) => {
      log.push('lockCoupon')
      state.lockedCoupons.set(userCouponId, orderId)
      return Promise.resolve()
    },
    release: (_tx, userCouponId, orderId) => {
      log.push('releaseCoupon')
      if (state.lockedCoupons.get(userCouponId) === orderId)
        state.lockedCoupons.delete(userCouponId)
      return Promise.resolve()
    },
    // Paying uses a coupon (modules/payments); placing and cancelling never do.
    consume: () => Promise.reject(new Error('placing an order never uses a coupon')),
    ...options.holds,
  }

  const idempotency = {
    claim: (_tx: Tx, owner: number, key: string, hash: string) => {
      const seen = state.keys[`${owner}:${key}`]
      if (!seen) {
        state.keys[`${owner}:${key}`] = { hash, result: null }
        return Promise.resolve({ kind: 'new' as const })
      }
      if (seen.hash !== hash) throw new AppError('IDEMPOTENCY_KEY_REUSED')
      return Promise.resolve({ kind: 'replay' as const, result: seen.result })
    },
    complete: (_tx: Tx, owner: number, key: string, result: unknown) => {
      state.keys[`${owner}:${key}`]!.result = result
      return Promise.resolve()
    },
    committed: (owner: number, key: string) =>
      Promise.resolve(state.keys[`${owner}:${key}`] !== undefined),
  }

  /** Reads outside a transaction see the store as last committed. */
  const reads = {
    mallItem: (productNo: string) => {
      const item = state.items.find((i) => i.productNo === productNo)
      return Promise.resolve(item && { ...item })
    },
    mallItemId: (productNo: string) =>
      Promise.resolve(state.items.find((i) => i.productNo === productNo)?.id),
  }

  const repo = orders as unknown as OrdersRepository
  /** The orders an open counter cash booking holds (modules/bookings in the app). */
  const bookedAtCounter = new Set<number>()
  const service = new MallOrderService({
    transact,
    clock,
    orders: repo,
    reads: reads as unknown as OrderReads,
    holds,
    idempotency: idempotency as unknown as IdempotencyStore,
    categoryChain: (categoryId) => Promise.resolve(categoryId === null ? [] : [categoryId, 1]),
    bookedAtCounter: (_tx, orderIds) =>
      Promise.resolve(new Set(orderIds.filter((id) => bookedAtCounter.has(id)))),
  })
  const errors: { orderId?: number; message: string }[] = []
  const logger = {
    error: (fields: { err?: unknown; orderId?: number }, message: string) =>
      errors.push({ orderId: fields.orderId, message }),
  } as unknown as FastifyBaseLogger
  const expiry = new MallOrderExpiry({ transact, orders: repo, holds, clock, log: logger })
  const buy = (
    userId: number,
    request: { productNo?: string; quantity: number; userCouponId?: number },
    idempotencyKey?: string,
  ) =>
    service.createOrder(
      userId,
      { productNo: request.productNo ?? 'M100005', ...request },
      { locale: 'zh', idempotencyKey },
    )
  return {
    service,
    expiry,
    errors,
    clock,
    buy,
    bookedAtCounter,
    log,
    claims,
    state: () => state,
    transactions: () => transactions,
    item: () => state.items[0]!,
  }
}

const codeOf = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(AppError)
  return (error as AppError).code
}

describe('MallOrderService.createOrder', () => {
  it('reserves stock and places a pending order due in 30 minutes', async () => {
    const s = setup()
    const result = await s.buy(ALICE, { quantity: 3 })
    expect(result).toEqual({
      status: 'SUCCESS',
      detail: PURCHASE_DETAILS.SUCCESS.zh,
      orderId: 100,
    })
    expect(s.item()).toMatchObject({ stock: 7, sold: 3 })
    expect(s.state().orders).toEqual([
      expect.objectContaining({
        userId: ALICE,
        mallItemId: 5,
        quantity: 3,
        amount: 264 * YUAN,
        discount: 0,
        total: 264 * YUAN,
        userCouponId: null,
        status: 'pending_payment',
        dueAt: NOW + 30 * MINUTE,
        createdAt: NOW,
      }),
    ])
  })

  it('says each outcome in the caller’s language', async () => {
    const s = setup({ item: buildItem({ onSale: false }) })
    const zh = await s.buy(ALICE, { quantity: 1 })
    const en = await s.service.createOrder(
      ALICE,
      { productNo: 'M100005', quantity: 1 },
      { locale: 'en' },
    )
    expect(zh.detail).toBe('商品已下架')
    expect(en).toEqual({ status: 'OFF_SALE', detail: 'the item is no longer on sale' })
  })

  it('judges off sale first, then stock, then the limit, then the coupon — writing nothing', async () => {
    const offSale = setup({ item: buildItem({ onSale: false, stock: 0, limitPerUser: 1 }) })
    expect((await offSale.buy(ALICE, { quantity: 2, userCouponId: 9 })).status).toBe('OFF_SALE')

    const soldOut = setup({ item: buildItem({ stock: 2, limitPerUser: 1 }) })
    expect(await soldOut.buy(ALICE, { quantity: 3, userCouponId: 9 })).toMatchObject({
      status: 'SOLD_OUT',
      left: 2,
      detail: PURCHASE_DETAILS.SOLD_OUT.zh,
    })

    const limited = setup({ item: buildItem({ limitPerUser: 1 }), saving: null })
    expect((await limited.buy(ALICE, { quantity: 2, userCouponId: 9 })).status).toBe(
      'LIMIT_EXCEEDED',
    )
    expect((await limited.buy(ALICE, { quantity: 1, userCouponId: 9 })).status).toBe(
      'COUPON_INVALID',
    )

    for (const s of [offSale, soldOut, limited]) {
      expect(s.state().orders).toEqual([])
      expect(s.item().sold).toBe(0)
      expect(s.log).not.toContain('reserveStock')
      expect(s.log).not.toContain('lockCoupon')
    }
  })

  it('answers off sale and sold out from the committed item, without queueing for its lock', async () => {
    const soldOut = setup({ item: buildItem({ stock: 1 }) })
    const refused = await soldOut.buy(ALICE, { quantity: 2, userCouponId: 9 }, 'fast-key-0001')
    expect(refused).toMatchObject({ status: 'SOLD_OUT', left: 1 })
    const offSale = setup({ item: buildItem({ onSale: false }) })
    expect((await offSale.buy(ALICE, { quantity: 1 })).status).toBe('OFF_SALE')
    for (const s of [soldOut, offSale]) {
      expect(s.transactions()).toBe(0)
      expect(s.log).toEqual([])
      expect(s.state().keys).toEqual({})
    }
  })

  it('sells the last units exactly and then says how many are left', async () => {
    const s = setup({ item: buildItem({ stock: 3 }) })
    expect((await s.buy(ALICE, { quantity: 2 })).status).toBe('SUCCESS')
    expect(await s.buy(BOB, { quantity: 2 })).toMatchObject({ status: 'SOLD_OUT', left: 1 })
    expect((await s.buy(BOB, { quantity: 1 })).status).toBe('SUCCESS')
    expect(await s.buy(BOB, { quantity: 1 })).toMatchObject({ status: 'SOLD_OUT', left: 0 })
    expect(s.item()).toMatchObject({ stock: 0, sold: 3 })
  })

  it('answers NOT_FOUND for an unknown product number, keeping nothing', async () => {
    const s = setup()
    expect(await codeOf(s.buy(ALICE, { productNo: 'M999999', quantity: 1 }, 'key-00000001'))).toBe(
      'NOT_FOUND',
    )
    expect(s.state().keys).toEqual({})
  })
})

describe('MallOrderService per-user limit', () => {
  it('counts the units a buyer holds in orders not cancelled, and says how many more they may buy', async () => {
    const s = setup({ item: buildItem({ limitPerUser: 3 }) })
    expect((await s.buy(ALICE, { quantity: 2 })).status).toBe('SUCCESS')
    expect(await s.buy(ALICE, { quantity: 2 })).toMatchObject({
      status: 'LIMIT_EXCEEDED',
      left: 1,
      detail: PURCHASE_DETAILS.LIMIT_EXCEEDED.zh,
    })
    // Another buyer's units are theirs.
    expect((await s.buy(BOB, { quantity: 3 })).status).toBe('SUCCESS')
    expect((await s.buy(ALICE, { quantity: 1 })).status).toBe('SUCCESS')
    expect(await s.buy(ALICE, { quantity: 1 })).toMatchObject({
      status: 'LIMIT_EXCEEDED',
      left: 0,
    })
  })

  it('gives back the units of a cancelled order, but not those of a paid one', async () => {
    const s = setup({ item: buildItem({ limitPerUser: 2 }) })
    const first = await s.buy(ALICE, { quantity: 2 })
    await s.service.cancel(ALICE, first.orderId!)
    const second = await s.buy(ALICE, { quantity: 2 })
    expect(second.status).toBe('SUCCESS')
    s.state().orders.find((o) => o.id === second.orderId)!.status = 'paid'
    expect(await s.buy(ALICE, { quantity: 1 })).toMatchObject({
      status: 'LIMIT_EXCEEDED',
      left: 0,
    })
  })

  it('shows the item page the units the limit counts', async () => {
    const s = setup({ item: buildItem({ limitPerUser: 3 }) })
    await s.buy(ALICE, { quantity: 2 })
    const cancelled = await s.buy(ALICE, { quantity: 1 })
    await s.service.cancel(ALICE, cancelled.orderId!)
    await s.buy(BOB, { quantity: 1 })
    expect(await s.service.unitsHeld('M100005', ALICE)).toBe(2)
    expect(await s.service.unitsHeld('M999999', ALICE)).toBe(0)
    expect(await s.buy(ALICE, { quantity: 2 })).toMatchObject({
      status: 'LIMIT_EXCEEDED',
      left: 3 - (await s.service.unitsHeld('M100005', ALICE)),
    })
  })

  it('refuses a single order above the limit, with the whole limit left', async () => {
    const s = setup({ item: buildItem({ limitPerUser: 2 }) })
    expect(await s.buy(ALICE, { quantity: 3 })).toMatchObject({
      status: 'LIMIT_EXCEEDED',
      left: 2,
    })
  })
})

describe('MallOrderService coupon steps', () => {
  it('claims the coupon after the item lock and before any write, and locks it after the order exists', async () => {
    const s = setup({ saving: 30 * YUAN })
    const result = await s.buy(ALICE, { quantity: 2, userCouponId: 9 })
    expect(result.status).toBe('SUCCESS')
    expect(s.log).toEqual(['lockItem', 'claim', 'reserveStock', 'insertOrder', 'lockCoupon'])
    expect(s.claims).toEqual([
      {
        userId: ALICE,
        userCouponId: 9,
        line: { productNo: 'M100005', categoryIds: [12, 1], goods: 176 * YUAN },
        now: NOW,
      },
    ])
    expect(s.state().orders[0]).toMatchObject({
      amount: 176 * YUAN,
      discount: 30 * YUAN,
      total: 146 * YUAN,
      userCouponId: 9,
    })
    expect(s.state().lockedCoupons).toEqual(new Map([[9, result.orderId]]))
  })

  it('refuses a coupon another order holds: COUPON_INVALID, and the stock stays', async () => {
    const s = setup()
    expect((await s.buy(ALICE, { quantity: 1, userCouponId: 9 })).status).toBe('SUCCESS')
    expect(await s.buy(ALICE, { quantity: 1, userCouponId: 9 })).toEqual({
      status: 'COUPON_INVALID',
      detail: PURCHASE_DETAILS.COUPON_INVALID.zh,
    })
    expect(s.item()).toMatchObject({ stock: 9, sold: 1 })
    expect(s.state().orders).toHaveLength(1)
  })

  it('never takes a total below one fen, and uses no coupon that would save nothing', async () => {
    const s = setup({ saving: 1_000 * YUAN })
    await s.buy(ALICE, { quantity: 1, userCouponId: 9 })
    expect(s.state().orders[0]).toMatchObject({
      amount: 88 * YUAN,
      discount: 88 * YUAN - 1,
      total: 1,
    })

    const penny = setup({ item: buildItem({ price: 1 }), saving: 1 })
    expect((await penny.buy(ALICE, { quantity: 1, userCouponId: 9 })).status).toBe('COUPON_INVALID')
    expect(penny.state().orders).toEqual([])
    expect(penny.log).not.toContain('lockCoupon')
  })
})

describe('MallOrderService compensation', () => {
  it('a step that fails takes the steps before it back with the transaction', async () => {
    const s = setup({ holds: { lock: () => Promise.reject(new Error('coupon store down')) } })
    await expect(s.buy(ALICE, { quantity: 2, userCouponId: 9 })).rejects.toThrow(
      'coupon store down',
    )
    expect(s.log).toEqual(['lockItem', 'claim', 'reserveStock', 'insertOrder', 'rollback'])
    expect(s.item()).toMatchObject({ stock: 10, sold: 0 })
    expect(s.state().orders).toEqual([])
  })

  it('cancelling returns the stock, then releases the coupon, exactly once', async () => {
    const s = setup()
    const { orderId } = await s.buy(ALICE, { quantity: 4, userCouponId: 9 })
    s.log.length = 0
    s.clock.advance(5 * MINUTE)
    expect(await s.service.cancel(ALICE, orderId!)).toEqual({ orderId, status: 'cancelled' })
    expect(s.log).toEqual(['returnStock', 'releaseCoupon'])
    expect(s.item()).toMatchObject({ stock: 10, sold: 0 })
    expect(s.state().lockedCoupons.size).toBe(0)
    expect(s.state().orders[0]).toMatchObject({
      status: 'cancelled',
      cancelledAt: NOW + 5 * MINUTE,
    })

    expect(await codeOf(s.service.cancel(ALICE, orderId!))).toBe('ORDER_NOT_CANCELLABLE')
    expect(s.item()).toMatchObject({ stock: 10, sold: 0 })
  })

  it('cancels only the caller’s unpaid mall orders', async () => {
    const s = setup()
    const { orderId } = await s.buy(ALICE, { quantity: 1 })
    expect(await codeOf(s.service.cancel(BOB, orderId!))).toBe('NOT_FOUND')
    expect(await codeOf(s.service.cancel(ALICE, 999))).toBe('NOT_FOUND')
    s.state().orders[0]!.status = 'paid'
    expect(await codeOf(s.service.cancel(ALICE, orderId!))).toBe('ORDER_NOT_CANCELLABLE')
    s.state().orders[0]!.status = 'pending_payment'
    s.state().orders[0]!.kind = 'auction'
    expect(await codeOf(s.service.cancel(ALICE, orderId!))).toBe('ORDER_NOT_CANCELLABLE')
    expect(s.item()).toMatchObject({ stock: 9, sold: 1 })
  })

  it('refuses to cancel an order an open counter booking holds, and returns nothing', async () => {
    const s = setup()
    const { orderId } = await s.buy(ALICE, { quantity: 2, userCouponId: 9 })
    s.bookedAtCounter.add(orderId!)
    expect(await codeOf(s.service.cancel(ALICE, orderId!))).toBe('ORDER_NOT_CANCELLABLE')
    expect(s.state().orders[0]).toMatchObject({ status: 'pending_payment', cancelledAt: null })
    expect(s.item()).toMatchObject({ stock: 8, sold: 2 })
    expect(s.state().lockedCoupons.get(9)).toBe(orderId)
    // The booking called off, the buyer may cancel.
    s.bookedAtCounter.delete(orderId!)
    expect(await s.service.cancel(ALICE, orderId!)).toEqual({ orderId, status: 'cancelled' })
  })
})

describe('MallOrderExpiry', () => {
  it('cancels unpaid orders past 30 minutes with stock and coupon back, once', async () => {
    const s = setup()
    const early = await s.buy(ALICE, { quantity: 2, userCouponId: 9 })
    s.clock.advance(10 * MINUTE)
    const later = await s.buy(BOB, { quantity: 1 })
    s.clock.advance(20 * MINUTE)
    // The first is due now (30 minutes), the second in 10 minutes.
    expect(await s.expiry.sweep()).toEqual([early.orderId])
    expect(s.item()).toMatchObject({ stock: 9, sold: 1 })
    expect(s.state().lockedCoupons.size).toBe(0)
    expect(await s.expiry.sweep()).toEqual([])
    s.clock.advance(10 * MINUTE)
    expect(await s.expiry.sweep()).toEqual([later.orderId])
    expect(await s.expiry.sweep()).toEqual([])
    expect(s.item()).toMatchObject({ stock: 10, sold: 0 })
  })

  it('logs an order it cannot cancel and expires the others; leaves it a while, then retries', async () => {
    let broken = true
    const s = setup({
      holds: {
        release: (_tx, userCouponId) =>
          broken && userCouponId === 9
            ? Promise.reject(new Error('coupon row unreadable'))
            : Promise.resolve(),
      },
    })
    const poisoned = await s.buy(ALICE, { quantity: 2, userCouponId: 9 })
    s.clock.advance(MINUTE)
    const later = [await s.buy(BOB, { quantity: 1 }), await s.buy(BOB, { quantity: 1 })]
    s.clock.advance(30 * MINUTE)

    expect(await s.expiry.sweep()).toEqual(later.map((o) => o.orderId))
    expect(s.errors).toEqual([{ orderId: poisoned.orderId, message: expect.any(String) }])
    // Its transaction rolled back: still unpaid, its units still held.
    const order = () => s.state().orders.find((o) => o.id === poisoned.orderId)!
    expect(order().status).toBe('pending_payment')
    expect(s.item()).toMatchObject({ stock: 8, sold: 2 })

    // The next runs pass it over rather than failing on it first every time …
    const sweeps = s.log.filter((l) => l === 'returnStock').length
    expect(await s.expiry.sweep()).toEqual([])
    expect(s.log.filter((l) => l === 'returnStock').length).toBe(sweeps)
    // … until a while has passed; then it is tried again.
    s.clock.advance(2 * MINUTE)
    expect(await s.expiry.sweep()).toEqual([])
    expect(s.errors).toHaveLength(2)
    broken = false
    s.clock.advance(2 * MINUTE)
    expect(await s.expiry.sweep()).toEqual([poisoned.orderId])
    expect(order().status).toBe('cancelled')
    expect(s.item()).toMatchObject({ stock: 10, sold: 0 })
  })

  it('leaves an order whose buyer chose bank remittance, and paid ones', async () => {
    const s = setup()
    const remitted = await s.buy(ALICE, { quantity: 1 })
    const paid = await s.buy(BOB, { quantity: 1 })
    s.state().orders.find((o) => o.id === remitted.orderId)!.payMethod = 'remittance'
    s.state().orders.find((o) => o.id === paid.orderId)!.status = 'paid'
    s.clock.advance(60 * MINUTE)
    expect(await s.expiry.sweep()).toEqual([])
    expect(s.item()).toMatchObject({ stock: 8, sold: 2 })
  })
})

describe('MallOrderService idempotency', () => {
  it('replays the first outcome for a retry, in the retry’s language, buying nothing more', async () => {
    const s = setup()
    const first = await s.buy(ALICE, { quantity: 1 }, 'retry-key-0001')
    const again = await s.service.createOrder(
      ALICE,
      { productNo: 'M100005', quantity: 1 },
      { locale: 'en', idempotencyKey: 'retry-key-0001' },
    )
    expect(again).toEqual({ ...first, detail: PURCHASE_DETAILS.SUCCESS.en })
    expect(s.state().orders).toHaveLength(1)
    expect(s.item().stock).toBe(9)
    expect(await codeOf(s.buy(ALICE, { quantity: 2 }, 'retry-key-0001'))).toBe(
      'IDEMPOTENCY_KEY_REUSED',
    )
  })

  it('replays a refusal judged under the lock, even once the units have come back', async () => {
    const s = setup({ item: buildItem({ limitPerUser: 1 }) })
    const { orderId } = await s.buy(ALICE, { quantity: 1 })
    const refused = await s.buy(ALICE, { quantity: 1 }, 'retry-key-0002')
    expect(refused.status).toBe('LIMIT_EXCEEDED')
    await s.service.cancel(ALICE, orderId!)
    expect(await s.buy(ALICE, { quantity: 1 }, 'retry-key-0002')).toEqual(refused)
    expect((await s.buy(ALICE, { quantity: 1 }, 'retry-key-0003')).status).toBe('SUCCESS')
  })

  it('keeps no refusal read without the lock: a retry after stock came back buys', async () => {
    const s = setup({ item: buildItem({ stock: 1 }) })
    const { orderId } = await s.buy(BOB, { quantity: 1 })
    expect(await s.buy(ALICE, { quantity: 1 }, 'retry-key-0004')).toMatchObject({
      status: 'SOLD_OUT',
      left: 0,
    })
    expect(s.state().keys).not.toHaveProperty(`${ALICE}:retry-key-0004`)
    await s.service.cancel(BOB, orderId!)
    expect((await s.buy(ALICE, { quantity: 1 }, 'retry-key-0004')).status).toBe('SUCCESS')
  })

  it('replays a committed first result through the transaction though the item has sold out since', async () => {
    const s = setup({ item: buildItem({ stock: 1 }) })
    const first = await s.buy(ALICE, { quantity: 1 }, 'retry-key-0005')
    expect(first.status).toBe('SUCCESS')
    expect(s.item().stock).toBe(0)
    const before = s.transactions()
    expect(await s.buy(ALICE, { quantity: 1 }, 'retry-key-0005')).toEqual(first)
    expect(s.transactions()).toBe(before + 1)
    expect(s.state().orders).toHaveLength(1)
  })
})
