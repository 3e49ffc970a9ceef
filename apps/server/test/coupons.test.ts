import { errorText } from '@numisma/contracts/errors'
import type { CouponCreate } from '@numisma/contracts/mall'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { couponHoldsFor } from '../src/modules/coupons/holds'
import { type Tx, writeTransaction } from '../src/platform/transactions'
import type { Session, TestApp } from './helpers/app'
import { createTestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { buy, createMallItem, type StaffCall, signInMany, staffCaller } from './helpers/mall-orders'

/** Issue 8, item 3: mall coupons over HTTP on both databases, and the holds mall orders take. */
const databases = await testDatabases()
const y = (yuan: number) => yuan * 100
const HOUR = 3_600_000
const DAY = 24 * HOUR

describe.each(databases)('coupons on $name', (kind) => {
  let t: TestApp
  let admin: StaffCall
  /** Mall categories: 钱币 (parent) → 纪念币 (child), and 邮票 beside them. */
  const cat = { parent: 0, child: 0, other: 0 }
  /** 150 yuan in 纪念币; 80 yuan without a category; 60 yuan in 邮票. */
  const item = { child: '', bare: '', other: '' }

  beforeAll(async () => {
    t = await createTestApp(kind)
    admin = await staffCaller(t)
    const category = async (name: string, parentId: number | null) =>
      (
        await t.database.db
          .insertInto('mall_categories')
          .values({ name, parent_id: parentId, sort: 0 })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id
    cat.parent = await category('钱币', null)
    cat.child = await category('纪念币', cat.parent)
    cat.other = await category('邮票', null)
    item.child = (
      await createMallItem(admin, { price: y(150), stock: 100, categoryId: cat.child })
    ).productNo
    item.bare = (await createMallItem(admin, { price: y(80), stock: 100 })).productNo
    item.other = (
      await createMallItem(admin, { price: y(60), stock: 100, categoryId: cat.other })
    ).productNo
  })
  afterAll(() => t.close())

  /** A whole-mall 满100减10 open from an hour ago for a day, 100 to hand out, one each. */
  const couponInput = (overrides: Partial<CouponCreate> = {}): CouponCreate => ({
    title: '满100减10',
    kind: 'amount',
    threshold: y(100),
    amount: y(10),
    total: 100,
    perUser: 1,
    startsAt: new Date(t.clock.now() - HOUR).toISOString(),
    endsAt: new Date(t.clock.now() + DAY).toISOString(),
    productNos: [],
    categoryIds: [],
    ...overrides,
  })
  const createCoupon = async (overrides: Partial<CouponCreate> = {}): Promise<number> => {
    const res = await admin('POST', '/coupons', couponInput(overrides))
    expect(res.statusCode, res.body).toBe(200)
    return res.json<{ data: { id: number } }>().data.id
  }
  const receive = (as: Session, couponId: number, headers?: Record<string, string>) =>
    t.call({ method: 'POST', path: `/api/user/receiveCoupon/${couponId}`, as, headers })
  const received = async (as: Session, couponId: number): Promise<number> => {
    const res = await receive(as, couponId)
    expect(res.statusCode, res.body).toBe(200)
    return res.json<{ data: { userCouponId: number } }>().data.userCouponId
  }
  const mallCoupons = async (productNo: string, as?: Session) => {
    const res = await t.call({
      method: 'GET',
      path: `/mallproduct/getMallCoupons/${productNo}`,
      as,
    })
    expect(res.statusCode, res.body).toBe(200)
    return res.json<{
      data: { id: number; title: string; received: boolean; receivable: boolean; left: number }[]
    }>().data
  }
  const usable = (as: Session, query: string) =>
    t.call({ method: 'GET', path: `/user/3_3/pay/getUserCoupons?${query}`, as })
  const history = async (as: Session, state?: string) => {
    const res = await t.call({
      method: 'GET',
      path: `/user/3_3/pay/getUserCouponsHistory${state ? `?state=${state}` : ''}`,
      as,
    })
    expect(res.statusCode, res.body).toBe(200)
    return res.json<{ data: { userCouponId: number; title: string; status: string }[] }>().data
  }
  const issuedRows = async (couponId: number) => {
    const coupon = await t.database.db
      .selectFrom('coupons')
      .select('issued')
      .where('id', '=', couponId)
      .executeTakeFirstOrThrow()
    const rows = await t.database.db
      .selectFrom('user_coupons')
      .select('user_id')
      .where('coupon_id', '=', couponId)
      .execute()
    return { issued: coupon.issued, rows: rows.length }
  }

  describe('staff POST /admin/coupons', () => {
    it('issues a coupon and stores its scope', async () => {
      const id = await createCoupon({
        kind: 'percent',
        amount: undefined,
        percent: 12,
        cap: y(20),
        threshold: 0,
        categoryIds: [cat.child],
        productNos: [item.bare],
      })
      const row = await t.database.db
        .selectFrom('coupons')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
      expect(row).toMatchObject({
        kind: 'percent',
        percent: 12,
        cap: y(20),
        amount: null,
        issued: 0,
        category_ids: `[${cat.child}]`,
        product_nos: `["${item.bare}"]`,
      })
    })

    it('refuses unknown categories and items with a 400 naming the field, storing nothing', async () => {
      const before = await t.database.db
        .selectFrom('coupons')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow()
      const res = await admin('POST', '/coupons', couponInput({ categoryIds: [cat.child, 9_999] }))
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: { fields: [{ field: 'body.categoryIds', message: 'unknown: 9999' }] },
      })
      const item404 = await admin('POST', '/coupons', couponInput({ productNos: ['M999999'] }))
      expect(item404.json().details.fields[0].field).toBe('body.productNos')
      const after = await t.database.db
        .selectFrom('coupons')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow()
      expect(Number(after.n)).toBe(Number(before.n))
    })

    it('refuses terms that do not fit together, naming the field', async () => {
      const cases: [Partial<CouponCreate>, string][] = [
        [{ kind: 'percent', amount: undefined }, 'body.kind'],
        [{ endsAt: new Date(t.clock.now() - 2 * HOUR).toISOString() }, 'body.endsAt'],
        [{ amount: y(200) }, 'body.amount'],
        [{ perUser: 5, total: 2 }, 'body.perUser'],
        [{ percent: 100, kind: 'percent' }, 'body.percent'],
      ]
      for (const [overrides, field] of cases) {
        const res = await admin('POST', '/coupons', couponInput(overrides))
        expect(res.statusCode, JSON.stringify(overrides)).toBe(400)
        const fields = res.json<{ details: { fields: { field: string }[] } }>().details.fields
        expect(fields.map((f) => f.field)).toContain(field)
      }
    })

    it('needs a staff session', async () => {
      const res = await t.inject({
        method: 'POST',
        url: '/svc/main/admin/coupons',
        payload: couponInput(),
      })
      expect(res.statusCode).toBe(401)
    })
  })

  describe('getMallCoupons', () => {
    it('offers the open coupons covering the item, its category or the parent category', async () => {
      const tag = `scope-${kind.name}`
      const ids = {
        all: await createCoupon({ title: `${tag} all` }),
        item: await createCoupon({ title: `${tag} item`, productNos: [item.child] }),
        child: await createCoupon({ title: `${tag} child`, categoryIds: [cat.child] }),
        parent: await createCoupon({ title: `${tag} parent`, categoryIds: [cat.parent] }),
        other: await createCoupon({ title: `${tag} other`, categoryIds: [cat.other] }),
        bare: await createCoupon({ title: `${tag} bare`, productNos: [item.bare] }),
        later: await createCoupon({
          title: `${tag} later`,
          startsAt: new Date(t.clock.now() + HOUR).toISOString(),
        }),
        over: await createCoupon({
          title: `${tag} over`,
          startsAt: new Date(t.clock.now() - 2 * HOUR).toISOString(),
          endsAt: new Date(t.clock.now() - HOUR).toISOString(),
        }),
      }
      const mine = (list: { title: string }[]) =>
        list.filter((c) => c.title.startsWith(tag)).map((c) => c.title.slice(tag.length + 1))
      expect(mine(await mallCoupons(item.child))).toEqual(['all', 'item', 'child', 'parent'])
      expect(mine(await mallCoupons(item.bare))).toEqual(['all', 'bare'])
      expect(mine(await mallCoupons(item.other))).toEqual(['all', 'other'])
      // A signed-out caller sees them too, none received.
      const anonymous = (await mallCoupons(item.child)).find((c) => c.id === ids.all)
      expect(anonymous).toMatchObject({ received: false, receivable: true, left: 100 })
    })

    it('tells a signed-in caller what they received and may still receive', async () => {
      const [alice, bob] = await signInMany(t, 2)
      const once = await createCoupon({ title: 'once', productNos: [item.child] })
      const twice = await createCoupon({ title: 'twice', productNos: [item.child], perUser: 2 })
      await received(alice!, once)
      await received(alice!, twice)
      const view = (list: Awaited<ReturnType<typeof mallCoupons>>, id: number) =>
        list.find((c) => c.id === id)
      const forAlice = await mallCoupons(item.child, alice)
      expect(view(forAlice, once)).toMatchObject({ received: true, receivable: false, left: 99 })
      expect(view(forAlice, twice)).toMatchObject({ received: true, receivable: true, left: 99 })
      expect(view(await mallCoupons(item.child, bob), once)).toMatchObject({
        received: false,
        receivable: true,
      })
    })

    it('answers 404 NOT_FOUND for an unknown item', async () => {
      const res = await t.call({ method: 'GET', path: '/mallproduct/getMallCoupons/M999999' })
      expect(res.statusCode).toBe(404)
      expect(res.json().code).toBe('NOT_FOUND')
    })
  })

  describe('receiveCoupon', () => {
    it('hands out exactly `total` to 50 concurrent receivers', async () => {
      const couponId = await createCoupon({ title: 'ten', total: 10 })
      const users = await signInMany(t, 50)
      const results = await Promise.all(users.map((u) => receive(u, couponId)))
      const codes = results.map((r) =>
        r.statusCode === 200 ? 'OK' : r.json<{ code: string }>().code,
      )
      expect(codes.filter((c) => c === 'OK')).toHaveLength(10)
      expect(codes.filter((c) => c === 'COUPON_GONE')).toHaveLength(40)
      expect(await issuedRows(couponId)).toEqual({ issued: 10, rows: 10 })
    })

    it('hands one user no more than perUser under 20 concurrent requests', async () => {
      const couponId = await createCoupon({ title: 'two each', perUser: 2 })
      const [user] = await signInMany(t, 1)
      const results = await Promise.all(Array.from({ length: 20 }, () => receive(user!, couponId)))
      const codes = results.map((r) =>
        r.statusCode === 200 ? 'OK' : r.json<{ code: string }>().code,
      )
      expect(codes.filter((c) => c === 'OK')).toHaveLength(2)
      expect(codes.filter((c) => c === 'COUPON_LIMIT')).toHaveLength(18)
      expect(await issuedRows(couponId)).toEqual({ issued: 2, rows: 2 })
    })

    it('says COUPON_GONE and COUPON_LIMIT in the caller’s language', async () => {
      const [user, other] = await signInMany(t, 2)
      const one = await createCoupon({ title: 'one', total: 1 })
      await received(user!, one)
      const limit = await receive(user!, one, { 'accept-language': 'en' })
      // Run out beats the user's own limit: nothing is left for anyone.
      expect(limit.statusCode).toBe(409)
      expect(limit.json()).toMatchObject({
        code: 'COUPON_GONE',
        message: errorText('COUPON_GONE', 'en'),
      })

      const each = await createCoupon({ title: 'each' })
      await received(other!, each)
      const again = await receive(other!, each)
      expect(again.statusCode).toBe(409)
      expect(again.json()).toMatchObject({
        code: 'COUPON_LIMIT',
        message: errorText('COUPON_LIMIT', 'zh'),
      })
      expect(errorText('COUPON_LIMIT', 'zh')).toBe('已达到该优惠券的领取上限')
    })

    it('refuses outside the window, an unknown coupon and a signed-out caller', async () => {
      const [user] = await signInMany(t, 1)
      const later = await createCoupon({
        title: 'later',
        startsAt: new Date(t.clock.now() + HOUR).toISOString(),
      })
      const res = await receive(user!, later)
      expect([res.statusCode, res.json().code]).toEqual([409, 'COUPON_GONE'])
      const unknown = await receive(user!, 987_654)
      expect([unknown.statusCode, unknown.json().code]).toEqual([404, 'NOT_FOUND'])
      const anonymous = await t.call({ method: 'POST', path: `/api/user/receiveCoupon/${later}` })
      expect(anonymous.statusCode).toBe(401)
      expect((await issuedRows(later)).rows).toBe(0)
    })
  })

  describe('getUserCoupons', () => {
    it("ranks the caller's usable coupons for an item by what each saves", async () => {
      const [bob] = await signInMany(t, 1)
      const ids = {
        tenOff: await received(bob!, await createCoupon({ title: '满100减10' })),
        percent: await received(
          bob!,
          await createCoupon({
            title: '九折封顶15',
            kind: 'percent',
            amount: undefined,
            percent: 10,
            cap: y(15),
            threshold: 0,
            categoryIds: [cat.parent],
          }),
        ),
        big: await received(
          bob!,
          await createCoupon({ title: '满500减80', threshold: y(500), amount: y(80) }),
        ),
        stamps: await received(
          bob!,
          await createCoupon({
            title: '邮票减5',
            amount: y(5),
            threshold: 0,
            categoryIds: [cat.other],
          }),
        ),
      }
      const savings = async (query: string) => {
        const res = await usable(bob!, query)
        expect(res.statusCode, res.body).toBe(200)
        return res
          .json<{ data: { userCouponId: number; saving: number }[] }>()
          .data.map((c) => [c.userCouponId, c.saving])
      }
      // 150 × 2 = 300 yuan: 10 % is 30, capped at 15; 满100减10; 满500 not reached; stamps out of scope.
      expect(await savings(`productNo=${item.child}&quantity=2`)).toEqual([
        [ids.percent, y(15)],
        [ids.tenOff, y(10)],
      ])
      expect(await savings(`productNo=${item.child}&quantity=4`)).toEqual([
        [ids.big, y(80)],
        [ids.percent, y(15)],
        [ids.tenOff, y(10)],
      ])
      expect(await savings(`productNo=${item.other}`)).toEqual([[ids.stamps, y(5)]])
    })

    it("judges the caller's own unpaid order; another user's order is 404", async () => {
      const [carol, dave] = await signInMany(t, 2)
      const tenOff = await received(carol!, await createCoupon({ title: 'order 满100减10' }))
      const order = await buy(t, carol!, { productNo: item.child, quantity: 1 })
      expect(order.json().data.status).toBe('SUCCESS')
      const orderId = order.json<{ data: { orderId: number } }>().data.orderId
      const offered = await usable(carol!, `orderId=${orderId}`)
      expect(offered.json().data.map((c: { userCouponId: number }) => c.userCouponId)).toEqual([
        tenOff,
      ])
      expect(offered.json().data[0].saving).toBe(y(10))

      const stranger = await usable(dave!, `orderId=${orderId}`)
      expect([stranger.statusCode, stranger.json().code]).toEqual([404, 'NOT_FOUND'])

      // Bought with the coupon: that order takes none, and the coupon is no longer usable.
      const withCoupon = await buy(t, carol!, {
        productNo: item.child,
        quantity: 1,
        userCouponId: tenOff,
      })
      expect(withCoupon.json().data.status).toBe('SUCCESS')
      const heldBy = withCoupon.json<{ data: { orderId: number } }>().data.orderId
      expect((await usable(carol!, `orderId=${heldBy}`)).json().data).toEqual([])
      expect((await usable(carol!, `orderId=${orderId}`)).json().data).toEqual([])
    })

    it('needs exactly one of productNo and orderId', async () => {
      const [erin] = await signInMany(t, 1)
      const neither = await usable(erin!, 'quantity=1')
      expect(neither.statusCode).toBe(400)
      expect(neither.json().code).toBe('VALIDATION_FAILED')
      const both = await usable(erin!, `productNo=${item.child}&orderId=1`)
      expect(both.statusCode).toBe(400)
      const unknown = await usable(erin!, 'productNo=M999999')
      expect(unknown.statusCode).toBe(404)
    })
  })

  describe('coupon holds (the mall order’s side)', () => {
    const holds = () => couponHoldsFor(t.database)
    const line = () => ({
      productNo: item.child,
      categoryIds: [cat.child, cat.parent],
      goods: y(150),
    })
    const status = async (userCouponId: number) =>
      t.database.db
        .selectFrom('user_coupons')
        .select(['status', 'order_id'])
        .where('id', '=', userCouponId)
        .executeTakeFirstOrThrow()
    const placeOrder = async (as: Session) =>
      (await buy(t, as, { productNo: item.bare, quantity: 1 })).json<{
        data: { orderId: number }
      }>().data.orderId

    it('claims, locks and releases in a transaction; a second release does nothing', async () => {
      const [frank, grace] = await signInMany(t, 2)
      const userCouponId = await received(frank!, await createCoupon({ title: 'hold me' }))
      const [first, second] = [await placeOrder(frank!), await placeOrder(frank!)]
      const claim = (userId: string) =>
        writeTransaction(t.database, (tx) =>
          holds().claim(tx, {
            userId: Number(userId),
            userCouponId,
            line: line(),
            now: t.clock.now(),
          }),
        )

      expect(await claim(grace!.userId)).toBeNull()
      expect(
        await writeTransaction(t.database, (tx) =>
          holds().claim(tx, {
            userId: Number(frank!.userId),
            userCouponId,
            line: { ...line(), goods: y(99) },
            now: t.clock.now(),
          }),
        ),
      ).toBeNull()

      await writeTransaction(t.database, async (tx) => {
        expect(
          await holds().claim(tx, {
            userId: Number(frank!.userId),
            userCouponId,
            line: line(),
            now: t.clock.now(),
          }),
        ).toEqual({ saving: y(10) })
        await holds().lock(tx, userCouponId, first)
      })
      expect(await status(userCouponId)).toEqual({ status: 'locked', order_id: first })
      expect(await claim(frank!.userId)).toBeNull()

      await writeTransaction(t.database, (tx) => holds().release(tx, userCouponId, first))
      expect(await status(userCouponId)).toEqual({ status: 'usable', order_id: null })
      // The coupon goes to the next order; a late second release from the first does not free it.
      await writeTransaction(t.database, (tx) => holds().lock(tx, userCouponId, second))
      await writeTransaction(t.database, (tx) => holds().release(tx, userCouponId, first))
      expect(await status(userCouponId)).toEqual({ status: 'locked', order_id: second })
    })

    it('makes a second order wait for the first one’s hold, then refuses it the coupon', async () => {
      const [heidi] = await signInMany(t, 1)
      const userCouponId = await received(heidi!, await createCoupon({ title: 'contested' }))
      const [first, second] = [await placeOrder(heidi!), await placeOrder(heidi!)]
      const takeFor = (tx: Tx, orderId: number) =>
        holds()
          .claim(tx, {
            userId: Number(heidi!.userId),
            userCouponId,
            line: line(),
            now: t.clock.now(),
          })
          .then(async (claimed) => {
            if (claimed) await holds().lock(tx, userCouponId, orderId)
            return claimed !== null
          })
      // The second order starts while the first holds the coupon uncommitted: it must queue behind
      // the row lock (PostgreSQL) or the write lock (SQLite) and then see the coupon taken.
      let rival: Promise<boolean> | undefined
      const won = await writeTransaction(t.database, async (tx) => {
        const taken = await takeFor(tx, first)
        rival = writeTransaction(t.database, (tx2) => takeFor(tx2, second))
        await new Promise((resolve) => setTimeout(resolve, 150))
        return taken
      })
      expect(won).toBe(true)
      expect(await rival).toBe(false)
      expect(await status(userCouponId)).toEqual({ status: 'locked', order_id: first })
    })
  })

  // Last: it moves the shared clock past the end of a coupon's window.
  describe('history and the user centre counter', () => {
    it('splits usable, used (locked and used) and expired, newest first, and counts the usable', async () => {
      const [ivan] = await signInMany(t, 1)
      const soon = await received(
        ivan!,
        await createCoupon({
          title: 'ends soon',
          endsAt: new Date(t.clock.now() + HOUR).toISOString(),
        }),
      )
      const lasting = await received(ivan!, await createCoupon({ title: 'lasting' }))
      const locked = await received(ivan!, await createCoupon({ title: 'locked' }))
      const spent = await received(ivan!, await createCoupon({ title: 'spent' }))
      const order = await buy(t, ivan!, {
        productNo: item.child,
        quantity: 1,
        userCouponId: locked,
      })
      expect(order.json().data.status).toBe('SUCCESS')
      // Paying arrives with the money issue; until then a used coupon is written here.
      await t.database.db
        .updateTable('user_coupons')
        .set({ status: 'used', used_at: t.clock.now() })
        .where('id', '=', spent)
        .execute()
      const counter = async () => {
        const res = await t.call({ method: 'GET', path: '/user/@statistics', as: ivan })
        expect(res.statusCode, res.body).toBe(200)
        return res.json<{ data: { counts: { coupons?: number } } }>().data.counts.coupons
      }
      const ids = (rows: { userCouponId: number; status: string }[]) =>
        rows.map((r) => [r.userCouponId, r.status])

      expect(ids(await history(ivan!))).toEqual([
        [spent, 'used'],
        [locked, 'locked'],
        [lasting, 'usable'],
        [soon, 'usable'],
      ])
      expect(await counter()).toBe(2)

      t.clock.advance(HOUR)
      expect(ids(await history(ivan!))).toEqual([
        [spent, 'used'],
        [locked, 'locked'],
        [lasting, 'usable'],
        [soon, 'expired'],
      ])
      expect(ids(await history(ivan!, 'usable'))).toEqual([[lasting, 'usable']])
      expect(ids(await history(ivan!, 'used'))).toEqual([
        [spent, 'used'],
        [locked, 'locked'],
      ])
      expect(ids(await history(ivan!, 'expired'))).toEqual([[soon, 'expired']])
      expect(await counter()).toBe(1)
      // An expired coupon is offered for nothing.
      const offered = await usable(ivan!, `productNo=${item.child}`)
      expect(offered.json().data.map((c: { userCouponId: number }) => c.userCouponId)).toEqual([
        lasting,
      ])
    })
  })
})
