import type { CouponCreate } from '@numisma/contracts/mall'
import { describe, expect, it } from 'vitest'
import { FakeClock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import type { Transact, Tx } from '../../platform/transactions'
import type {
  CouponItem,
  CouponOrder,
  CouponRepository,
  CouponRow,
  UserCouponRow,
} from './repository'
import { CouponService } from './service'

/**
 * CouponService over an in-memory repository (the Immich pattern): issuing, receiving, offering
 * and listing coupons without a database. The concurrency of receiving is the integration test's
 * (apps/server/test/coupons.test.ts); here each rule and refusal is checked on its own.
 */
const y = (yuan: number) => yuan * 100
const HOUR = 3_600_000
const NOW = Date.UTC(2026, 10, 23, 4)
const USER = 8
const OTHER = 9

const buildCoupon = (overrides: Partial<CouponRow> = {}): CouponRow => ({
  id: 1,
  title: '满100减10',
  kind: 'amount',
  threshold: y(100),
  amount: y(10),
  percent: null,
  cap: null,
  total: 100,
  issued: 0,
  per_user: 1,
  starts_at: NOW - HOUR,
  ends_at: NOW + HOUR,
  product_nos: '[]',
  category_ids: '[]',
  created_at: NOW - 2 * HOUR,
  ...overrides,
})

/** M100001: 150 yuan, category 12 under 1. */
const ITEM: CouponItem = { id: 1, productNo: 'M100001', price: y(150), categoryId: 12 }
const PARENTS = new Map<number, number | null>([
  [1, null],
  [12, 1],
  [13, 1],
])

/** The catalogue's chain over PARENTS. */
const categoryChain = (categoryId: number | null) => {
  const chain: number[] = []
  for (
    let next = categoryId;
    next !== null && next !== undefined;
    next = PARENTS.get(next) ?? null
  ) {
    chain.push(next)
  }
  return Promise.resolve(chain)
}

class FakeCoupons implements Pick<CouponRepository, keyof CouponRepository> {
  coupons: CouponRow[] = []
  received: {
    id: number
    couponId: number
    userId: number
    status: string
    orderId: number | null
    receivedAt: number
  }[] = []
  orders: CouponOrder[] = []
  items: CouponItem[] = [ITEM]
  /** Runs when a coupon is locked (to move the clock while a receiver "waits" for the lock). */
  onLock: () => void = () => undefined

  insertCoupon(_tx: Tx, row: Parameters<CouponRepository['insertCoupon']>[1]) {
    const id = this.coupons.length + 1
    this.coupons.push(buildCoupon({ ...row, id, issued: 0 }))
    return Promise.resolve(id)
  }
  existingCategoryIds(ids: readonly number[]) {
    return Promise.resolve(ids.filter((id) => PARENTS.has(id)))
  }
  existingProductNos(productNos: readonly string[]) {
    return Promise.resolve(productNos.filter((p) => this.items.some((i) => i.productNo === p)))
  }
  lockCoupon(_tx: Tx, couponId: number) {
    this.onLock()
    return Promise.resolve(this.coupons.find((c) => c.id === couponId))
  }
  receivedCount(_tx: Tx, couponId: number, userId: number) {
    return Promise.resolve(
      this.received.filter((r) => r.couponId === couponId && r.userId === userId).length,
    )
  }
  issue(_tx: Tx, couponId: number, userId: number, now: number) {
    const coupon = this.coupons.find((c) => c.id === couponId)!
    coupon.issued++
    const id = this.received.length + 1
    this.received.push({ id, couponId, userId, status: 'usable', orderId: null, receivedAt: now })
    return Promise.resolve(id)
  }
  couponsOpenAt(now: number) {
    return Promise.resolve(this.coupons.filter((c) => c.starts_at <= now && now < c.ends_at))
  }
  receivedCounts(userId: number, couponIds: readonly number[]) {
    const counts = new Map<number, number>()
    for (const r of this.received) {
      if (r.userId === userId && couponIds.includes(r.couponId)) {
        counts.set(r.couponId, (counts.get(r.couponId) ?? 0) + 1)
      }
    }
    return Promise.resolve(counts)
  }
  mallItem(productNo: string) {
    return Promise.resolve(this.items.find((i) => i.productNo === productNo))
  }
  mallItemById(id: number) {
    return Promise.resolve(this.items.find((i) => i.id === id))
  }
  order(orderId: number) {
    return Promise.resolve(this.orders.find((o) => o.id === orderId))
  }
  private rows(userId: number): UserCouponRow[] {
    return this.received
      .filter((r) => r.userId === userId)
      .map((r) => ({
        id: r.id,
        userId: r.userId,
        status: r.status,
        orderId: r.orderId,
        receivedAt: r.receivedAt,
        usedAt: r.status === 'used' ? r.receivedAt + 1 : null,
        coupon: this.coupons.find((c) => c.id === r.couponId)!,
      }))
  }
  userCouponsIn(userId: number, status: string, now: number) {
    return Promise.resolve(
      this.rows(userId).filter((r) => r.status === status && r.coupon.ends_at > now),
    )
  }
  usableCount(userId: number, now: number) {
    return this.userCouponsIn(userId, 'usable', now).then((rows) => rows.length)
  }
  userCoupons(userId: number) {
    return Promise.resolve(
      this.rows(userId).sort((a, b) => b.receivedAt - a.receivedAt || b.id - a.id),
    )
  }
  lockUserCoupon(): Promise<UserCouponRow | undefined> {
    throw new Error('not used by the service')
  }
  lockFor(): Promise<boolean> {
    throw new Error('not used by the service')
  }
  releaseFrom(): Promise<boolean> {
    throw new Error('not used by the service')
  }
  useFrom(): Promise<boolean> {
    throw new Error('not used by the service')
  }

  /** A coupon in the store, and optionally received by users. */
  add(
    overrides: Partial<CouponRow> = {},
    receivedBy: { userId: number; status?: string; at?: number }[] = [],
  ) {
    const coupon = buildCoupon({ ...overrides, id: this.coupons.length + 1 })
    this.coupons.push(coupon)
    for (const r of receivedBy) {
      coupon.issued++
      this.received.push({
        id: this.received.length + 1,
        couponId: coupon.id,
        userId: r.userId,
        status: r.status ?? 'usable',
        orderId: null,
        receivedAt: r.at ?? NOW - HOUR / 2,
      })
    }
    return coupon
  }
}

function setup() {
  const coupons = new FakeCoupons()
  const clock = new FakeClock(NOW)
  let transactions = 0
  const transact: Transact = (work) => {
    transactions++
    return work({} as Tx)
  }
  const service = new CouponService({ transact, clock, coupons, categoryChain })
  return { service, coupons, clock, transactions: () => transactions }
}

const codeOf = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(AppError)
  return error as AppError
}

const createInput = (overrides: Partial<CouponCreate> = {}): CouponCreate => ({
  title: '八五折',
  kind: 'percent',
  threshold: 0,
  percent: 15,
  cap: y(30),
  total: 10,
  perUser: 1,
  startsAt: new Date(NOW).toISOString(),
  endsAt: new Date(NOW + HOUR).toISOString(),
  productNos: [],
  categoryIds: [],
  ...overrides,
})

describe('CouponService.create', () => {
  it('stores the terms of its kind only, and each scope entry once', async () => {
    const { service, coupons } = setup()
    const { id } = await service.create(
      createInput({ amount: y(5), categoryIds: [12, 12, 1], productNos: ['M100001'] }),
    )
    expect(coupons.coupons[id - 1]).toMatchObject({
      kind: 'percent',
      amount: null,
      percent: 15,
      cap: y(30),
      starts_at: NOW,
      ends_at: NOW + HOUR,
      category_ids: '[12,1]',
      product_nos: '["M100001"]',
      created_at: NOW,
    })
  })

  it('refuses unknown categories and items, naming the field, and stores nothing', async () => {
    const { service, coupons } = setup()
    const error = await codeOf(
      service.create(createInput({ categoryIds: [12, 77], productNos: ['M999999'] })),
    )
    expect(error.code).toBe('VALIDATION_FAILED')
    expect(error.details).toEqual({
      fields: [
        { field: 'body.categoryIds', message: 'unknown: 77' },
        { field: 'body.productNos', message: 'unknown: M999999' },
      ],
    })
    expect(coupons.coupons).toEqual([])
  })
})

describe('CouponService.mallCoupons', () => {
  it("offers the open coupons covering the item, its category or the category's parent", async () => {
    const { service, coupons } = setup()
    coupons.add({ title: 'whole mall' })
    coupons.add({ title: 'the item', product_nos: '["M100001"]' })
    coupons.add({ title: 'its category', category_ids: '[12]' })
    coupons.add({ title: 'the parent', category_ids: '[1]' })
    coupons.add({ title: 'a sibling', category_ids: '[13]' })
    coupons.add({ title: 'another item', product_nos: '["M100002"]' })
    coupons.add({ title: 'not yet', starts_at: NOW + 1 })
    coupons.add({ title: 'over', ends_at: NOW })
    const offered = await service.mallCoupons('M100001', null)
    expect(offered.map((c) => c.title)).toEqual([
      'whole mall',
      'the item',
      'its category',
      'the parent',
    ])
    expect(offered.map((c) => c.scope)).toEqual(['all', 'limited', 'limited', 'limited'])
  })

  it('tells the caller what they received and may still receive; a stranger, what is left', async () => {
    const { service, coupons } = setup()
    coupons.add({ per_user: 2 }, [{ userId: USER }])
    coupons.add({ per_user: 1 }, [{ userId: USER }])
    coupons.add({ total: 1 }, [{ userId: OTHER }])
    coupons.add({ total: 5 })
    const pick = (c: { received: boolean; receivable: boolean; left: number }) => [
      c.received,
      c.receivable,
      c.left,
    ]
    expect((await service.mallCoupons('M100001', USER)).map(pick)).toEqual([
      [true, true, 99],
      [true, false, 99],
      [false, false, 0],
      [false, true, 5],
    ])
    expect((await service.mallCoupons('M100001', null)).map(pick)).toEqual([
      [false, true, 99],
      [false, true, 99],
      [false, false, 0],
      [false, true, 5],
    ])
  })

  it('answers 404 for an unknown item', async () => {
    const { service } = setup()
    expect((await codeOf(service.mallCoupons('M404', USER))).code).toBe('NOT_FOUND')
  })
})

describe('CouponService.receive', () => {
  it('hands one out in a transaction and counts it', async () => {
    const { service, coupons, transactions } = setup()
    const coupon = coupons.add({ per_user: 2 })
    expect(await service.receive(USER, coupon.id)).toEqual({ userCouponId: 1 })
    expect(await service.receive(USER, coupon.id)).toEqual({ userCouponId: 2 })
    expect(coupon.issued).toBe(2)
    expect(transactions()).toBe(2)
  })

  it('refuses outside the window and when none are left (COUPON_GONE)', async () => {
    const { service, coupons } = setup()
    const early = coupons.add({ starts_at: NOW + 1 })
    const over = coupons.add({ ends_at: NOW })
    const gone = coupons.add({ total: 1 }, [{ userId: OTHER }])
    for (const c of [early, over, gone]) {
      expect((await codeOf(service.receive(USER, c.id))).code).toBe('COUPON_GONE')
    }
    expect(coupons.received.filter((r) => r.userId === USER)).toEqual([])
  })

  it('refuses one more than the per-user limit (COUPON_LIMIT)', async () => {
    const { service, coupons } = setup()
    const coupon = coupons.add({ per_user: 2 }, [
      { userId: USER },
      { userId: USER, status: 'used' },
    ])
    expect((await codeOf(service.receive(USER, coupon.id))).code).toBe('COUPON_LIMIT')
    expect(await service.receive(OTHER, coupon.id)).toEqual({ userCouponId: 3 })
  })

  it('judges the window by the clock read after the coupon is locked', async () => {
    const { service, coupons, clock } = setup()
    const coupon = coupons.add({ ends_at: NOW + 1_000 })
    coupons.onLock = () => clock.advance(1_000)
    expect((await codeOf(service.receive(USER, coupon.id))).code).toBe('COUPON_GONE')
  })

  it('answers 404 for an unknown coupon', async () => {
    const { service } = setup()
    expect((await codeOf(service.receive(USER, 42))).code).toBe('NOT_FOUND')
  })
})

describe('CouponService.usableFor', () => {
  it('ranks the caller’s usable coupons for an item by saving, leaving out what does not apply', async () => {
    const { service, coupons } = setup()
    coupons.add({ title: '减10' }, [{ userId: USER }])
    coupons.add({ title: '九折', kind: 'percent', amount: null, percent: 10, threshold: 0 }, [
      { userId: USER },
    ])
    coupons.add({ title: '满500减80', threshold: y(500), amount: y(80) }, [{ userId: USER }])
    coupons.add({ title: 'locked' }, [{ userId: USER, status: 'locked' }])
    coupons.add({ title: 'other user' }, [{ userId: OTHER }])
    coupons.add({ title: 'sibling', category_ids: '[13]' }, [{ userId: USER }])
    // 150 × 2 = 300 yuan: 九折 saves 30, 减10 saves 10, 满500 does not reach its threshold.
    const usable = await service.usableFor(USER, { productNo: 'M100001', quantity: 2 })
    expect(usable.map((c) => [c.title, c.saving])).toEqual([
      ['九折', y(30)],
      ['减10', y(10)],
    ])
    expect(usable[0]).toMatchObject({ userCouponId: 2, couponId: 2 })
    // 150 × 4 = 600 yuan reaches 满500减80.
    const more = await service.usableFor(USER, { productNo: 'M100001', quantity: 4 })
    expect(more.map((c) => c.title)).toEqual(['满500减80', '九折', '减10'])
  })

  it("judges the caller's own unpaid mall order by its goods", async () => {
    const { service, coupons } = setup()
    coupons.add({ threshold: y(200) }, [{ userId: USER }])
    coupons.orders.push(
      {
        id: 5,
        userId: USER,
        kind: 'mall',
        status: 'pending_payment',
        userCouponId: null,
        mallItemId: 1,
        amount: y(300),
      },
      {
        id: 6,
        userId: USER,
        kind: 'mall',
        status: 'pending_payment',
        userCouponId: null,
        mallItemId: 1,
        amount: y(150),
      },
    )
    expect(
      (await service.usableFor(USER, { orderId: 5, quantity: 1 })).map((c) => c.saving),
    ).toEqual([y(10)])
    expect(await service.usableFor(USER, { orderId: 6, quantity: 1 })).toEqual([])
  })

  it('offers nothing for an order that cannot take a coupon', async () => {
    const { service, coupons } = setup()
    coupons.add({}, [{ userId: USER }])
    const order: CouponOrder = {
      id: 5,
      userId: USER,
      kind: 'mall',
      status: 'pending_payment',
      userCouponId: null,
      mallItemId: 1,
      amount: y(300),
    }
    coupons.orders.push(
      { ...order, id: 1, status: 'paid' },
      { ...order, id: 2, status: 'cancelled' },
      { ...order, id: 3, userCouponId: 9 },
      { ...order, id: 4, kind: 'auction', mallItemId: null },
    )
    for (const orderId of [1, 2, 3, 4]) {
      expect(await service.usableFor(USER, { orderId, quantity: 1 })).toEqual([])
    }
  })

  it("answers 404 for another user's order, an unknown order and an unknown item", async () => {
    const { service, coupons } = setup()
    coupons.orders.push({
      id: 5,
      userId: OTHER,
      kind: 'mall',
      status: 'pending_payment',
      userCouponId: null,
      mallItemId: 1,
      amount: y(300),
    })
    expect((await codeOf(service.usableFor(USER, { orderId: 5, quantity: 1 }))).code).toBe(
      'NOT_FOUND',
    )
    expect((await codeOf(service.usableFor(USER, { orderId: 6, quantity: 1 }))).code).toBe(
      'NOT_FOUND',
    )
    expect((await codeOf(service.usableFor(USER, { productNo: 'M404', quantity: 1 }))).code).toBe(
      'NOT_FOUND',
    )
  })
})

describe('CouponService.history and usableCount', () => {
  function received() {
    const s = setup()
    s.coupons.add({ title: 'usable' }, [{ userId: USER, at: NOW - 5 }])
    s.coupons.add({ title: 'locked' }, [{ userId: USER, status: 'locked', at: NOW - 4 }])
    s.coupons.add({ title: 'used' }, [{ userId: USER, status: 'used', at: NOW - 3 }])
    s.coupons.add({ title: 'ends soon', ends_at: NOW + 10 }, [{ userId: USER, at: NOW - 2 }])
    s.coupons.add({ title: 'locked, window over', ends_at: NOW + 10 }, [
      { userId: USER, status: 'locked', at: NOW - 1 },
    ])
    s.coupons.add({ title: 'not mine' }, [{ userId: OTHER }])
    return s
  }
  const titles = (rows: { title: string; status: string }[]) =>
    rows.map((r) => `${r.title}:${r.status}`)

  it('lists every coupon newest first, a usable one past its window as expired', async () => {
    const { service, clock } = received()
    expect(titles(await service.history(USER, undefined))).toEqual([
      'locked, window over:locked',
      'ends soon:usable',
      'used:used',
      'locked:locked',
      'usable:usable',
    ])
    clock.advance(10)
    expect(titles(await service.history(USER, undefined))).toEqual([
      'locked, window over:locked',
      'ends soon:expired',
      'used:used',
      'locked:locked',
      'usable:usable',
    ])
  })

  it('splits the tabs: usable, used (locked and used), expired', async () => {
    const { service, clock } = received()
    clock.advance(10)
    expect(titles(await service.history(USER, 'usable'))).toEqual(['usable:usable'])
    expect(titles(await service.history(USER, 'used'))).toEqual([
      'locked, window over:locked',
      'used:used',
      'locked:locked',
    ])
    expect(titles(await service.history(USER, 'expired'))).toEqual(['ends soon:expired'])
  })

  it('counts the usable coupons whose window has not ended', async () => {
    const { service, clock } = received()
    expect(await service.usableCount(USER)).toBe(2)
    clock.advance(10)
    expect(await service.usableCount(USER)).toBe(1)
    expect(await service.usableCount(OTHER)).toBe(1)
  })
})
