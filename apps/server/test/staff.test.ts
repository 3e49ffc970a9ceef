import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { productNoOf } from '../src/modules/catalog/listing-service'
import { requestHash } from '../src/platform/idempotency'
import { StaffService } from '../src/modules/staff/service'
import { createTestApp, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'

const databases = await testDatabases()

describe.each(databases)('staff sign-in on $name', (kind) => {
  let t: TestApp
  let password: string

  beforeAll(async () => {
    t = await createTestApp(kind)
    const service = StaffService.forDatabase(t.database, t.clock)
    const boot = await service.bootstrap(undefined)
    expect(boot.created).toBe(true)
    password = boot.generated!
    expect(password.length).toBeGreaterThanOrEqual(12)
    expect(await service.bootstrap('another-password')).toEqual({ created: false })
  })
  afterAll(() => t.close())

  const login = (body: unknown) =>
    t.inject({ method: 'POST', url: '/svc/main/admin/login', payload: body as object })

  it('refuses a wrong password and an unknown user alike', async () => {
    for (const body of [
      { username: 'admin', password: 'wrong-password' },
      { username: 'nobody', password },
    ]) {
      const res = await login(body)
      expect(res.statusCode).toBe(401)
      expect(res.json().code).toBe('STAFF_LOGIN_FAILED')
    }
  })

  it('signs in with the bootstrap password and keeps a staff session', async () => {
    const res = await login({ username: 'admin', password })
    expect(res.statusCode).toBe(200)
    const cookie = res.cookies.find((c) => c.name === 'staff_sid')
    expect(cookie?.httpOnly).toBe(true)
    expect(cookie?.path).toBe('/svc/main/admin')

    const session = await t.inject({
      method: 'GET',
      url: '/svc/main/admin/session',
      cookies: { staff_sid: cookie!.value },
    })
    expect(session.json()).toEqual({
      data: { staffId: expect.any(Number), username: 'admin', roles: ['admin'] },
    })

    await t.inject({
      method: 'POST',
      url: '/svc/main/admin/logout',
      cookies: { staff_sid: cookie!.value },
    })
    const after = await t.inject({
      method: 'GET',
      url: '/svc/main/admin/session',
      cookies: { staff_sid: cookie!.value },
    })
    expect(after.statusCode).toBe(401)
  })

  it('refuses staff calls without a session and the user pair instead of one', async () => {
    expect((await t.inject({ method: 'GET', url: '/svc/main/admin/session' })).json().code).toBe(
      'UNAUTHENTICATED',
    )
    const user = await t.signIn()
    const res = await t.inject({
      method: 'GET',
      url: '/svc/main/admin/session',
      cookies: { sid: user.sid },
    })
    expect(res.statusCode).toBe(401)
  })

  it('validates the login body', async () => {
    const res = await login({ username: '' })
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('VALIDATION_FAILED')
  })

  describe('operator calls', () => {
    let cookie: string
    const admin = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.inject({
        method,
        url: `/svc/main/admin${url}`,
        cookies: { staff_sid: cookie },
        ...(payload ? { payload } : {}),
      })

    beforeAll(async () => {
      const res = await login({ username: 'admin', password })
      cookie = res.cookies.find((c) => c.name === 'staff_sid')!.value
    })

    it('creates a special and lots that close stagger seconds apart', async () => {
      const startsAt = new Date(t.clock.now() - 60_000).toISOString()
      const endsAt = new Date(t.clock.now() + 3_600_000).toISOString()
      const special = await admin('POST', '/specials', {
        title: '袁大头专场',
        startsAt,
        endsAt,
        staggerSeconds: 20,
      })
      expect(special.statusCode).toBe(200)
      const specialId = special.json().data.id
      const first = await admin('POST', '/lots', {
        specialId,
        title: '民国三年袁世凯像壹圆',
        startPrice: 100_000,
        reservePrice: 150_000,
        gradeCode: 24,
      })
      const second = await admin('POST', '/lots', {
        specialId,
        title: '民国八年袁世凯像壹圆',
        startPrice: 50_000,
      })
      expect(first.statusCode).toBe(200)
      expect(Date.parse(second.json().data.endsAt) - Date.parse(first.json().data.endsAt)).toBe(
        20_000,
      )
      const lot = await t.call({ method: 'GET', path: `/auction/${first.json().data.id}` })
      expect(lot.json().data).toMatchObject({
        title: '民国三年袁世凯像壹圆',
        startPrice: 100_000,
        hasReserve: true,
        status: 'live',
      })
    })

    it('refuses off-grid prices with the nearest valid amounts, and bad input with codes', async () => {
      const startsAt = new Date(t.clock.now()).toISOString()
      const endsAt = new Date(t.clock.now() + 3_600_000).toISOString()
      const specialId = (await admin('POST', '/specials', { title: 'x', startsAt, endsAt })).json()
        .data.id
      const off = await admin('POST', '/lots', { specialId, title: 'x', startPrice: 10_500 })
      expect(off.statusCode).toBe(400)
      expect(off.json()).toMatchObject({
        code: 'BID_OFF_GRID',
        details: { field: 'startPrice', below: 10_000, above: 11_000 },
      })
      expect(
        (await admin('POST', '/lots', { specialId: 999_999, title: 'x', startPrice: 10_000 }))
          .statusCode,
      ).toBe(404)
      const backwards = await admin('POST', '/specials', {
        title: 'x',
        startsAt: endsAt,
        endsAt: startsAt,
      })
      expect(backwards.statusCode).toBe(400)
      expect(backwards.json().code).toBe('VALIDATION_FAILED')
      const lots = await t.database.db
        .selectFrom('lots')
        .select('id')
        .where('special_id', '=', specialId)
        .execute()
      expect(lots).toEqual([])
    })

    it('adds a mall item with a product number, and credits a deposit', async () => {
      const item = await admin('POST', '/mall-items', {
        title: '钱币收藏册',
        price: 8_800,
        stock: 10,
      })
      expect(item.statusCode).toBe(200)
      const { id, productNo } = item.json().data
      expect(productNo).toMatch(/^M\d+$/)
      const detail = await t.call({
        method: 'GET',
        path: `/mallproduct/getMallByProductNo/${productNo}`,
      })
      expect(detail.json().data).toMatchObject({ productNo, title: '钱币收藏册' })
      expect(id).toBeGreaterThan(0)

      const user = await t.signIn()
      const credit = await admin('POST', `/users/${user.userId}/deposit`, { amount: 500_000 })
      expect(credit.json()).toEqual({ data: { deposit: 500_000 } })
      const stats = await t.call({ method: 'GET', path: '/user/@statistics', as: user })
      expect(stats.json().data).toMatchObject({
        balance: 0,
        deposit: 500_000,
        quota: 5_000_000,
        exposure: 0,
        payPasswordSet: false,
      })
      expect((await admin('POST', '/users/99999999/deposit', { amount: 100 })).statusCode).toBe(404)
      expect(
        (await admin('POST', `/users/${user.userId}/deposit`, { amount: -5 })).statusCode,
      ).toBe(400)
    })

    it('keeps …/quota as an alias of …/deposit', async () => {
      const user = await t.signIn()
      // The older path answers in its older shape too: `quota` was the deposit balance.
      const credit = await admin('POST', `/users/${user.userId}/quota`, { amount: 200_000 })
      expect(credit.json()).toEqual({ data: { deposit: 200_000, quota: 200_000 } })
      const again = await admin('POST', `/users/${user.userId}/deposit`, { amount: 100_000 })
      expect(again.json()).toEqual({ data: { deposit: 300_000 } })
      expect((await admin('POST', '/users/99999999/quota', { amount: 100 })).statusCode).toBe(404)
    })

    it('credits a deposit once for a double-submitted Idempotency-Key', async () => {
      const user = await t.signIn()
      const submit = (path: 'deposit' | 'quota') =>
        t.inject({
          method: 'POST',
          url: `/svc/main/admin/users/${user.userId}/${path}`,
          cookies: { staff_sid: cookie },
          headers: { 'idempotency-key': `deposit-${user.userId}-counter-1` },
          payload: { amount: 200_000 },
        })
      const results = await Promise.all([submit('deposit'), submit('deposit'), submit('quota')])
      for (const res of results) expect(res.json().data.deposit).toBe(200_000)
      const stats = await t.call({ method: 'GET', path: '/user/@statistics', as: user })
      expect(stats.json().data.deposit).toBe(200_000)
      const other = await t.inject({
        method: 'POST',
        url: `/svc/main/admin/users/${user.userId}/deposit`,
        cookies: { staff_sid: cookie },
        headers: { 'idempotency-key': `deposit-${user.userId}-counter-1` },
        payload: { amount: 300_000 },
      })
      expect(other.statusCode).toBe(422)
    })

    it('replays a result stored before the deposit was called deposit (`{ quota }`)', async () => {
      const user = await t.signIn()
      const staff = await t.database.db
        .selectFrom('staff_users')
        .select('id')
        .where('username', '=', 'admin')
        .executeTakeFirstOrThrow()
      const key = `legacy-${user.userId}-counter`
      await t.database.db
        .insertInto('idempotency_keys')
        .values({
          user_id: -staff.id,
          key,
          request_hash: requestHash({
            userId: Number(user.userId),
            amount: 200_000,
            memo: 'counter deposit',
          }),
          status: 200,
          body: JSON.stringify({ quota: 200_000 }),
          created_at: t.clock.now(),
        })
        .execute()
      const res = await t.inject({
        method: 'POST',
        url: `/svc/main/admin/users/${user.userId}/deposit`,
        cookies: { staff_sid: cookie },
        headers: { 'idempotency-key': key },
        payload: { amount: 200_000 },
      })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ data: { deposit: 200_000 } })
    })

    it('numbers 20 lots added at once 1..20, each closing stagger seconds after the last', async () => {
      const endsAt = t.clock.now() + 3_600_000
      const specialId = (
        await admin('POST', '/specials', {
          title: '并发专场',
          startsAt: new Date(t.clock.now()).toISOString(),
          endsAt: new Date(endsAt).toISOString(),
          staggerSeconds: 30,
        })
      ).json().data.id
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          admin('POST', '/lots', { specialId, title: `第${i + 1}件`, startPrice: 10_000 }),
        ),
      )
      for (const res of results) expect(res.statusCode, res.body).toBe(200)
      const created = results.map(
        (r) => r.json().data as { id: number; lotNo: number; endsAt: string },
      )
      expect(created.map((c) => c.lotNo).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 20 }, (_, i) => i + 1),
      )
      for (const c of created) expect(Date.parse(c.endsAt)).toBe(endsAt + (c.lotNo - 1) * 30_000)
      const rows = await t.database.db
        .selectFrom('lots')
        .select(['id', 'lot_no', 'ends_at'])
        .where('special_id', '=', specialId)
        .orderBy('lot_no')
        .execute()
      expect(rows.map((r) => r.lot_no)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
      expect(rows.map((r) => r.ends_at)).toEqual(rows.map((_, i) => endsAt + i * 30_000))
      expect(new Set(rows.map((r) => r.id))).toEqual(new Set(created.map((c) => c.id)))
    })

    it('gives 20 mall items added at once 20 distinct product numbers', async () => {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          admin('POST', '/mall-items', { title: `收藏册${i}`, price: 1_000, stock: 1 }),
        ),
      )
      for (const res of results) expect(res.statusCode, res.body).toBe(200)
      const created = results.map((r) => r.json().data as { id: number; productNo: string })
      expect(new Set(created.map((c) => c.productNo)).size).toBe(20)
      for (const c of created) {
        const row = await t.database.db
          .selectFrom('mall_items')
          .select(['id', 'product_no'])
          .where('product_no', '=', c.productNo)
          .executeTakeFirstOrThrow()
        expect(row.id).toBe(c.id)
        // Derived from the row id, so unique because the id is, never left to chance.
        expect(c.productNo).toBe(productNoOf(c.id))
      }
    })

    it('refuses an unknown category or an unbounded limit with 400 naming the field, adding nothing', async () => {
      const fieldsOf = (res: { statusCode: number; json: () => unknown }) => {
        expect(res.statusCode).toBe(400)
        const body = res.json() as { code: string; details: { fields: { field: string }[] } }
        expect(body.code).toBe('VALIDATION_FAILED')
        return body.details.fields.map((f) => f.field)
      }
      const count = async (table: 'lots' | 'mall_items') =>
        Number(
          (
            await t.database.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number | string>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        )
      const mallCategory = (
        await t.database.db
          .insertInto('mall_categories')
          .values({ parent_id: null, name: '钱币', name_en: 'Coins', sort: 1 })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id
      const category = (
        await t.database.db
          .insertInto('categories')
          .values({ name: '银元', name_en: 'Silver dollars', icon: '', sort: 1 })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id

      const items = await count('mall_items')
      const item = { title: '钱币收藏册', price: 8_800, stock: 10 }
      expect(
        fieldsOf(await admin('POST', '/mall-items', { ...item, categoryId: 999_999 })),
      ).toEqual(['body.categoryId'])
      expect(
        fieldsOf(await admin('POST', '/mall-items', { ...item, limitPerUser: 2 ** 31 })),
      ).toEqual(['body.limitPerUser'])
      expect(await count('mall_items')).toBe(items)
      const filed = await admin('POST', '/mall-items', {
        ...item,
        categoryId: mallCategory,
        limitPerUser: 10_000,
      })
      expect(filed.statusCode, filed.body).toBe(200)
      expect(
        await t.database.db
          .selectFrom('mall_items')
          .select(['category_id', 'limit_per_user'])
          .where('id', '=', filed.json().data.id)
          .executeTakeFirstOrThrow(),
      ).toEqual({ category_id: mallCategory, limit_per_user: 10_000 })

      const specialId = (
        await admin('POST', '/specials', {
          title: '分类专场',
          startsAt: new Date(t.clock.now()).toISOString(),
          endsAt: new Date(t.clock.now() + 3_600_000).toISOString(),
        })
      ).json().data.id
      const lots = await count('lots')
      const lot = { specialId, title: '民国三年袁世凯像壹圆', startPrice: 10_000 }
      expect(fieldsOf(await admin('POST', '/lots', { ...lot, categoryId: 999_999 }))).toEqual([
        'body.categoryId',
      ])
      expect(await count('lots')).toBe(lots)
      const added = await admin('POST', '/lots', { ...lot, categoryId: category })
      expect(added.statusCode, added.body).toBe(200)
    })

    it('refuses all of it without a staff session', async () => {
      const res = await t.inject({
        method: 'POST',
        url: '/svc/main/admin/mall-items',
        payload: { title: 'x', price: 100, stock: 1 },
      })
      expect(res.statusCode).toBe(401)
    })
  })
})
