import { DEFAULT_PRICE_STEPS } from '@numisma/domain/increments'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app'
import { SandboxSmsSender } from '../src/modules/passport/sms-sender'
import type { Database } from '../src/platform/db'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { createLot, creditDeposit } from './helpers/auction'
import { testDatabases } from './helpers/databases'
import { buy, createMallItem, signInMany, staffCaller, type StaffCall } from './helpers/mall-orders'

const databases = await testDatabases()
const YUAN = 100
const DAY = 24 * 60 * 60 * 1000
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe.each(databases)('shop settings for cataloguers on $name', (kind) => {
  let t: TestApp
  let admin: StaffCall
  let cataloguer: StaffCall
  let cashier: StaffCall

  beforeAll(async () => {
    t = await createTestApp(kind)
    admin = await staffCaller(t)
    cataloguer = await staffCaller(t, ['cataloguer'])
    cashier = await staffCaller(t, ['cashier'])
  })
  afterAll(() => t.close())

  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the reply's shape
  const data = <T = Record<string, unknown>>(res: { json: () => unknown }): T =>
    (res.json() as { data: T }).data
  const audit = async (target: string) =>
    data<{ route: string; before: unknown; after: unknown; errorCode: string | null }[]>(
      await admin('GET', `/audit?target=${encodeURIComponent(target)}`),
    )
  /** The newest audit line of an accepted change to `target`. */
  const lastChange = async (target: string) =>
    (await audit(target)).find((line) => line.errorCode === null)
  const iso = (ms: number) => new Date(ms).toISOString()

  describe('mall items', () => {
    it('lists, searches and edits an item; the shop shows the edit; the audit has before/after', async () => {
      const category = data<{ id: number }>(
        await cataloguer('POST', '/mall-categories', { name: '纪念币' }),
      ).id
      const { id, productNo } = await createMallItem(cataloguer, {
        title: '2019年建国七十周年纪念币',
        price: 30 * YUAN,
        stock: 10,
      })
      const found = data<{ items: { id: number }[]; total: number }>(
        await cataloguer('GET', `/mall-items?keyword=${encodeURIComponent('七十周年')}`),
      )
      expect(found.items.map((i) => i.id)).toEqual([id])
      const byNo = data<{ items: { id: number }[] }>(
        await cataloguer('GET', `/mall-items?keyword=${productNo.toLowerCase()}`),
      )
      expect(byNo.items.map((i) => i.id)).toEqual([id])
      const wildcard = data<{ total: number }>(await cataloguer('GET', '/mall-items?keyword=%25'))
      expect(wildcard.total).toBe(0)

      const edit = {
        title: '2019年建国七十周年纪念币 原卷',
        subtitle: '整卷40枚',
        description: '原封未拆。',
        images: ['/svc/media/photos/0123456789abcdef0123456789abcdef/full.jpg'],
        price: 1_280 * YUAN,
        categoryId: category,
        limitPerUser: 2,
        gradeCode: 0,
        gradingService: null,
        certNo: null,
        year: '2019',
        denomination: '10元',
        material: '双色铜合金',
        exportBanned: false,
      }
      const res = await cataloguer('PUT', `/mall-items/${id}`, edit)
      expect(res.statusCode).toBe(200)
      expect(data(res)).toMatchObject({
        title: edit.title,
        price: edit.price,
        categoryId: category,
        categoryName: '纪念币',
        limitPerUser: 2,
        stock: 10,
      })
      const shop = await t.call({
        method: 'GET',
        path: `/mallproduct/getMallByProductNo/${productNo}`,
      })
      expect(data(shop)).toMatchObject({ title: edit.title, price: edit.price })

      const unknown = await cataloguer('PUT', `/mall-items/${id}`, { ...edit, categoryId: 999_999 })
      expect(unknown.statusCode).toBe(400)
      expect(unknown.json().code).toBe('VALIDATION_FAILED')

      expect(await lastChange(`mall-item:${id}`)).toMatchObject({
        before: expect.objectContaining({ title: '2019年建国七十周年纪念币', price: 30 * YUAN }),
        after: expect.objectContaining({ title: edit.title, price: edit.price }),
      })
    })

    it('creates an item with photos, description, category, limit and grade in one call', async () => {
      const category = data<{ id: number }>(
        await cataloguer('POST', '/mall-categories', { name: '评级币' }),
      ).id
      const input = {
        title: '1980年长城币 壹圆',
        subtitle: 'PCGS MS65',
        description: '原光，底板干净。\n盒证齐全。',
        images: [
          '/svc/media/photos/0123456789abcdef0123456789abcdef/full.jpg',
          '/svc/media/photos/fedcba9876543210fedcba9876543210/full.jpg',
        ],
        price: 880 * YUAN,
        stock: 3,
        categoryId: category,
        limitPerUser: 1,
        gradeCode: 65,
        gradingService: 'PCGS',
        certNo: '40123456',
        year: '1980',
        denomination: '1元',
        material: '铜镍合金',
        exportBanned: true,
      }
      const res = await cataloguer('POST', '/mall-items/new', input)
      expect(res.statusCode, res.body).toBe(200)
      const created = data<{ id: number; productNo: string }>(res)
      const { stock, ...described } = input
      const expected = {
        ...described,
        stock,
        categoryName: '评级币',
        onSale: true,
        reserved: 0,
        sold: 0,
      }
      expect(created).toMatchObject(expected)
      expect(created.productNo).toMatch(/^M\d+$/)
      expect(data(await cataloguer('GET', `/mall-items/${created.id}`))).toMatchObject(expected)
      const shop = await t.call({
        method: 'GET',
        path: `/mallproduct/getMallByProductNo/${created.productNo}`,
      })
      expect(data(shop)).toMatchObject({ title: input.title, price: input.price })
      expect(await lastChange(`mall-item:${created.id}`)).toMatchObject({
        after: expect.objectContaining({ title: input.title, images: input.images, stock: 3 }),
      })

      const minimal = await cataloguer('POST', '/mall-items/new', {
        title: '空白商品',
        price: 10 * YUAN,
        stock: 0,
      })
      expect(data(minimal)).toMatchObject({
        subtitle: '',
        description: '',
        images: [],
        categoryId: null,
        limitPerUser: null,
        gradingService: null,
        stock: 0,
      })
    })

    it('creates nothing when a new item names an unknown category or breaks a field', async () => {
      const title = `无此分类 ${Date.now()}`
      const unknown = await cataloguer('POST', '/mall-items/new', {
        title,
        price: 10 * YUAN,
        stock: 1,
        categoryId: 999_999,
      })
      expect(unknown.statusCode).toBe(400)
      expect(unknown.json()).toMatchObject({ code: 'VALIDATION_FAILED' })
      const bad = await cataloguer('POST', '/mall-items/new', {
        title,
        price: 10 * YUAN,
        stock: -1,
        images: ['javascript:alert(1)'],
      })
      expect(bad.statusCode).toBe(400)
      const found = data<{ total: number }>(
        await cataloguer('GET', `/mall-items?keyword=${encodeURIComponent(title)}`),
      )
      expect(found.total).toBe(0)
    })

    it('adjusts stock by a signed delta and never takes ordered units back', async () => {
      const { id, productNo } = await createMallItem(cataloguer, { stock: 10, price: 50 * YUAN })
      const more = await cataloguer('POST', `/mall-items/${id}/stock`, { delta: 5 })
      expect(data(more)).toMatchObject({ stock: 15, reserved: 0, sold: 0 })
      const buyer = await t.signIn()
      expect(data(await buy(t, buyer, { productNo, quantity: 3 }))).toMatchObject({
        status: 'SUCCESS',
      })
      const refused = await cataloguer('POST', `/mall-items/${id}/stock`, { delta: -13 })
      expect(refused.statusCode).toBe(409)
      expect(refused.json()).toMatchObject({
        code: 'STOCK_HELD',
        details: { stock: 12, reserved: 3, sold: 0, delta: -13 },
      })
      const zero = await cataloguer('POST', `/mall-items/${id}/stock`, { delta: 0 })
      expect(zero.statusCode).toBe(400)
      expect(
        data(await cataloguer('POST', `/mall-items/${id}/stock`, { delta: -12 })),
      ).toMatchObject({ stock: 0, reserved: 3 })
      const lines = await audit(`mall-item:${id}`)
      expect(lines.map((l) => l.errorCode)).toContain('STOCK_HELD')
      expect(lines.find((l) => l.errorCode === null)).toMatchObject({
        before: { stock: 12, reserved: 3, sold: 0 },
        after: { stock: 0, reserved: 3, sold: 0 },
      })
    })

    it('takes an item off sale and puts it back', async () => {
      const { id, productNo } = await createMallItem(cataloguer, { stock: 5 })
      const buyer = await t.signIn()
      expect(
        data(await cataloguer('PUT', `/mall-items/${id}/sale`, { onSale: false })),
      ).toMatchObject({ onSale: false })
      expect(data(await buy(t, buyer, { productNo, quantity: 1 }))).toMatchObject({
        status: 'OFF_SALE',
      })
      const listed = data<{ items: { id: number }[] }>(
        await cataloguer('GET', '/mall-items?onSale=false'),
      )
      expect(listed.items.map((i) => i.id)).toContain(id)
      await cataloguer('PUT', `/mall-items/${id}/sale`, { onSale: true })
      expect(data(await buy(t, buyer, { productNo, quantity: 1 }))).toMatchObject({
        status: 'SUCCESS',
      })
      expect(await lastChange(`mall-item:${id}`)).toMatchObject({
        before: { onSale: false },
        after: { onSale: true },
      })
    })

    it('never oversells while 20 removals of one unit race 20 buyers of one', async () => {
      const { id, productNo } = await createMallItem(cataloguer, { stock: 20 })
      const buyers = await signInMany(t, 20)
      const [adjusted, bought] = await Promise.all([
        Promise.all(
          Array.from({ length: 20 }, () =>
            cataloguer('POST', `/mall-items/${id}/stock`, { delta: -1 }),
          ),
        ),
        Promise.all(buyers.map((b) => buy(t, b, { productNo, quantity: 1 }))),
      ])
      const removals = adjusted.filter((r) => r.statusCode === 200).length
      const refusals = adjusted.filter((r) => r.json().code === 'STOCK_HELD').length
      const sales = bought.filter((r) => data<{ status: string }>(r).status === 'SUCCESS').length
      expect(removals + refusals).toBe(20)
      expect(removals + sales).toBe(20)
      const item = data<{ stock: number; reserved: number }>(
        await cataloguer('GET', `/mall-items/${id}`),
      )
      expect(item).toMatchObject({ stock: 0, reserved: sales })
    })

    it('never answers 5xx when an item’s category is deleted while the item is filed under it', async () => {
      const pairs = 25
      const items: number[] = []
      const categories: number[] = []
      for (let i = 0; i < pairs; i++) {
        items.push((await createMallItem(cataloguer, { title: `竞速藏品 ${i}` })).id)
        categories.push(
          data<{ id: number }>(await cataloguer('POST', '/mall-categories', { name: `竞速 ${i}` }))
            .id,
        )
      }
      const statuses = await Promise.all(
        items.map(async (id, i) => {
          const before = data(await cataloguer('GET', `/mall-items/${id}`))
          const edit = {
            title: before.title,
            subtitle: before.subtitle,
            description: before.description,
            images: before.images,
            price: before.price,
            categoryId: categories[i],
            limitPerUser: before.limitPerUser,
            gradeCode: before.gradeCode,
            gradingService: before.gradingService,
            certNo: before.certNo,
            year: before.year,
            denomination: before.denomination,
            material: before.material,
            exportBanned: before.exportBanned,
          }
          const [edited, removal] = await Promise.all([
            cataloguer('PUT', `/mall-items/${id}`, edit),
            // Staggered, so some deletions land between the edit's check and its write.
            sleep(i % 8).then(() => cataloguer('DELETE', `/mall-categories/${categories[i]}`)),
          ])
          const after = data<{ categoryId: number | null }>(
            await cataloguer('GET', `/mall-items/${id}`),
          )
          if (edited.statusCode === 200) {
            expect(removal.json().code, removal.body).toBe('CATEGORY_IN_USE')
            expect(after.categoryId).toBe(categories[i])
          } else {
            expect(edited.statusCode, edited.body).toBe(400)
            expect(edited.json().code).toBe('VALIDATION_FAILED')
            expect(removal.statusCode, removal.body).toBe(200)
            expect(after.categoryId).toBeNull()
          }
          return [edited.statusCode, removal.statusCode]
        }),
      )
      expect(statuses.flat().every((status) => status < 500)).toBe(true)
    })

    it('is closed to a cashier', async () => {
      for (const [method, path, body] of [
        ['GET', '/mall-items', undefined],
        ['POST', '/mall-items/new', { title: '收银员的商品', price: 100, stock: 1 }],
        ['POST', '/mall-items/1/stock', { delta: 1 }],
        ['PUT', '/mall-items/1/sale', { onSale: false }],
      ] as const) {
        const res = await cashier(method, path, body)
        expect(res.statusCode).toBe(403)
        expect(res.json().code).toBe('FORBIDDEN')
      }
    })
  })

  describe('categories', () => {
    it('creates, renames, reorders and deletes auction categories only while unused', async () => {
      const before = data<{ id: number }[]>(await cataloguer('GET', '/categories'))
      const a = data<{ id: number }>(await cataloguer('POST', '/categories', { name: '机制币' })).id
      const b = data<{ id: number }>(
        await cataloguer('POST', '/categories', { name: '纸钞', nameEn: 'Notes' }),
      ).id
      const renamed = await cataloguer('PUT', `/categories/${a}`, {
        name: '机制币章',
        nameEn: 'Machine-struck',
        icon: '机',
      })
      expect(data(renamed)).toMatchObject({
        name: '机制币章',
        nameEn: 'Machine-struck',
        icon: '机',
      })
      expect(await lastChange(`category:${a}`)).toMatchObject({
        before: expect.objectContaining({ name: '机制币' }),
        after: expect.objectContaining({ name: '机制币章' }),
      })

      const ids = [b, a, ...before.map((c) => c.id)]
      expect((await cataloguer('PUT', '/categories/order', { ids })).statusCode).toBe(200)
      const shop = data<{ id: number }[]>(await t.call({ method: 'GET', path: '/meta/@category' }))
      expect(shop.map((c) => c.id)).toEqual(ids)
      const stale = await cataloguer('PUT', '/categories/order', { ids: [a] })
      expect(stale.statusCode).toBe(409)
      expect(stale.json().code).toBe('CATEGORY_ORDER_STALE')

      await t.database.db
        .updateTable('lots')
        .set({ category_id: a })
        .where('id', '=', await createLot(t))
        .execute()
      const used = await cataloguer('DELETE', `/categories/${a}`)
      expect(used.statusCode).toBe(409)
      expect(used.json()).toMatchObject({ code: 'CATEGORY_IN_USE', details: { lots: 1 } })
      expect((await cataloguer('DELETE', `/categories/${b}`)).statusCode).toBe(200)
      expect((await cataloguer('DELETE', `/categories/${b}`)).statusCode).toBe(404)
    })

    it('keeps the mall tree: children, order, and no deleting what items, children or coupons name', async () => {
      const top = data<{ id: number }>(
        await cataloguer('POST', '/mall-categories', { name: '钱币' }),
      ).id
      const c1 = data<{ id: number }>(
        await cataloguer('POST', '/mall-categories', { name: '古钱币', parentId: top }),
      ).id
      const c2 = data<{ id: number }>(
        await cataloguer('POST', '/mall-categories', { name: '现代币', parentId: top }),
      ).id
      const orphan = await cataloguer('POST', '/mall-categories', { name: '无', parentId: 999_999 })
      expect(orphan.statusCode).toBe(400)

      await cataloguer('PUT', '/mall-categories/order', { parentId: top, ids: [c2, c1] })
      const tree = data<{ id: number; children: { id: number }[] }[]>(
        await t.call({ method: 'GET', path: '/mall/categoryTree' }),
      )
      expect(tree.find((n) => n.id === top)?.children.map((c) => c.id)).toEqual([c2, c1])

      const parentUsed = await cataloguer('DELETE', `/mall-categories/${top}`)
      expect(parentUsed.json()).toMatchObject({ code: 'CATEGORY_IN_USE', details: { children: 2 } })
      await createMallItem(cataloguer, { categoryId: c1 })
      expect((await cataloguer('DELETE', `/mall-categories/${c1}`)).json()).toMatchObject({
        code: 'CATEGORY_IN_USE',
        details: { items: 1 },
      })
      const now = t.clock.now()
      await cataloguer('POST', '/coupons', {
        title: '现代币满减',
        kind: 'amount',
        threshold: 100 * YUAN,
        amount: 10 * YUAN,
        total: 10,
        perUser: 1,
        startsAt: iso(now - DAY),
        endsAt: iso(now + DAY),
        categoryIds: [c2],
      })
      expect((await cataloguer('DELETE', `/mall-categories/${c2}`)).json()).toMatchObject({
        code: 'CATEGORY_IN_USE',
        details: { coupons: 1 },
      })
      const renamed = await cataloguer('PUT', `/mall-categories/${c2}`, { name: '现代纪念币' })
      expect(data(renamed)).toMatchObject({ name: '现代纪念币', parentId: top })
      const spare = data<{ id: number }>(
        await cataloguer('POST', '/mall-categories', { name: '空' }),
      ).id
      expect((await cataloguer('DELETE', `/mall-categories/${spare}`)).statusCode).toBe(200)
      expect(await lastChange(`mall-category:${spare}`)).toMatchObject({
        before: expect.objectContaining({ name: '空' }),
        after: { deleted: true },
      })
    })
  })

  describe('banners', () => {
    it('creates, edits and deletes a banner the shop shows while it is active', async () => {
      const now = t.clock.now()
      const banner = {
        position: 0,
        title: '秋季拍卖会',
        titleEn: 'Autumn sale',
        image: '/svc/media/photos/0123456789abcdef0123456789abcdef/full.jpg',
        link: '/special/1',
        sort: 1,
        activeFrom: iso(now - DAY),
        activeUntil: iso(now + DAY),
      }
      for (const link of ['javascript:alert(1)', '//evil.example/x', 'http://plain.example/']) {
        const bad = await cataloguer('POST', '/banners', { ...banner, link })
        expect(bad.statusCode).toBe(400)
        expect(bad.json().code).toBe('VALIDATION_FAILED')
      }
      const id = data<{ id: number }>(await cataloguer('POST', '/banners', banner)).id
      const shown = () =>
        t
          .call({ method: 'GET', path: '/mall/advertis/0' })
          .then((r) => data<{ id: number; title: string }[]>(r))
      expect((await shown()).find((b) => b.id === id)).toMatchObject({ title: '秋季拍卖会' })

      const edited = await cataloguer('PUT', `/banners/${id}`, {
        ...banner,
        title: '冬季拍卖会',
        link: 'https://numisma.example/winter',
        activeFrom: iso(now + DAY),
        activeUntil: null,
      })
      expect(data(edited)).toMatchObject({ title: '冬季拍卖会', live: false, activeUntil: null })
      expect((await shown()).some((b) => b.id === id)).toBe(false)
      expect(await lastChange(`banner:${id}`)).toMatchObject({
        before: expect.objectContaining({ title: '秋季拍卖会' }),
        after: expect.objectContaining({ title: '冬季拍卖会' }),
      })
      expect((await cataloguer('DELETE', `/banners/${id}`)).statusCode).toBe(200)
      expect(
        data<{ id: number }[]>(await cataloguer('GET', '/banners')).some((b) => b.id === id),
      ).toBe(false)
      expect((await cashier('POST', '/banners', banner)).statusCode).toBe(403)
    })
  })

  describe('coupons', () => {
    it('lists counts and stops issuing without touching coupons already received', async () => {
      const now = t.clock.now()
      const { productNo } = await createMallItem(cataloguer, { price: 200 * YUAN, stock: 10 })
      const id = data<{ id: number }>(
        await cataloguer('POST', '/coupons', {
          title: '满100减20',
          kind: 'amount',
          threshold: 100 * YUAN,
          amount: 20 * YUAN,
          total: 100,
          perUser: 1,
          startsAt: iso(now - DAY),
          endsAt: iso(now + 7 * DAY),
        }),
      ).id
      const [first, second] = await signInMany(t, 2)
      const receive = (as: Session) =>
        t.call({ method: 'POST', path: `/api/user/receiveCoupon/${id}`, as })
      const userCouponId = data<{ userCouponId: number }>(await receive(first!)).userCouponId
      const listed = () =>
        cataloguer('GET', '/coupons').then((r) =>
          data<{ id: number; received: number; total: number; used: number; state: string }[]>(
            r,
          ).find((c) => c.id === id),
        )
      expect(await listed()).toMatchObject({ total: 100, received: 1, used: 0, state: 'issuing' })

      const stopped = await cataloguer('POST', `/coupons/${id}/stop`)
      expect(data(stopped)).toEqual({ total: 1, received: 1 })
      expect(await listed()).toMatchObject({ total: 1, received: 1, state: 'stopped' })
      expect((await receive(second!)).json().code).toBe('COUPON_GONE')
      expect((await cataloguer('POST', `/coupons/${id}/stop`)).json().code).toBe(
        'COUPON_NOT_ISSUING',
      )
      // The received coupon keeps its terms and pays for an order.
      const order = await buy(t, first!, { productNo, quantity: 1, userCouponId })
      expect(data(order)).toMatchObject({ status: 'SUCCESS' })
      expect(await lastChange(`coupon:${id}`)).toMatchObject({
        before: { total: 100, received: 1 },
        after: { total: 1, received: 1 },
      })
      expect((await cashier('POST', `/coupons/${id}/stop`)).statusCode).toBe(403)
    })
  })

  describe('the increment table', () => {
    const table = [
      { from: 0, step: 25 * YUAN },
      { from: 1_000 * YUAN, step: 50 * YUAN },
    ]

    it('refuses a table that breaks the rule, with the row and the problem', async () => {
      const res = await cataloguer('PUT', '/price-steps', {
        steps: [
          { from: 0, step: 5 * YUAN },
          { from: 102 * YUAN, step: 10 * YUAN },
        ],
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({
        code: 'INCREMENT_TABLE_INVALID',
        details: { problem: 'off-previous-grid', row: 1 },
      })
      expect(data(await cataloguer('GET', '/price-steps'))).toEqual(DEFAULT_PRICE_STEPS)
      expect((await cashier('PUT', '/price-steps', { steps: table })).statusCode).toBe(403)
    })

    it('judges the next bid and start price on the new grid at once, on every instance', async () => {
      const lotId = await createLot(t, { startPrice: 100 * YUAN })
      const [alice, bob] = await signInMany(t, 2)
      await creditDeposit(t, alice!.userId, 100_000 * YUAN)
      await creditDeposit(t, bob!.userId, 100_000 * YUAN)
      // A second instance on the same database, which has judged a bid before the change.
      const other = await buildApp({
        database: { ...t.database, close: () => Promise.resolve() } satisfies Database,
        clock: t.clock,
        sms: new SandboxSmsSender(),
        env: 'development',
        webDist: '/nonexistent',
      })
      await other.ready()
      const bidOn = (app: 'this' | 'other', as: Session, amount: number) => {
        const call = {
          method: 'POST' as const,
          path: '/bidding/bid',
          as,
          body: { lotId, amount, proxy: false },
        }
        return app === 'this'
          ? t.call(call)
          : other.inject({
              method: 'POST',
              url: `/svc/main${call.path}`,
              headers: t.sign(call),
              cookies: { sid: as.sid },
              payload: call.body,
            })
      }
      try {
        expect((await bidOn('other', alice!, 100 * YUAN)).statusCode).toBe(200)

        const res = await cataloguer('PUT', '/price-steps', { steps: table })
        expect(data(res)).toEqual(table)
        expect(data(await t.call({ method: 'GET', path: '/bidding/price-step' }))).toEqual(table)

        const off = await bidOn('other', bob!, 110 * YUAN) // on the old 10-yuan grid only
        expect(off.json()).toMatchObject({ code: 'BID_OFF_GRID' })
        expect(data(await bidOn('other', bob!, 125 * YUAN))).toMatchObject({ price: 125 * YUAN })
        expect((await bidOn('this', alice!, 140 * YUAN)).json()).toMatchObject({
          code: 'BID_OFF_GRID',
        })
        expect(data(await bidOn('this', alice!, 150 * YUAN))).toMatchObject({ price: 150 * YUAN })

        const special = data<{ id: number }>(
          await cataloguer('POST', '/specials', {
            title: '新阶梯专场',
            startsAt: iso(t.clock.now() + DAY),
            endsAt: iso(t.clock.now() + 2 * DAY),
          }),
        ).id
        const lot = (startPrice: number) =>
          cataloguer('POST', '/lots', { specialId: special, title: '样币', startPrice })
        expect((await lot(110 * YUAN)).json().code).toBe('BID_OFF_GRID')
        expect((await lot(125 * YUAN)).statusCode).toBe(200)

        expect(await lastChange('price-steps')).toMatchObject({
          before: DEFAULT_PRICE_STEPS,
          after: table,
        })
      } finally {
        await other.close()
      }
    })
  })
})
