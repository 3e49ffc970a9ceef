import { ADDRESS_LIMIT, type Address, type AddressInput } from '@numisma/contracts/address'
import { errorText } from '@numisma/contracts/errors'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Session, TestApp } from './helpers/app'
import { createTestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'

/** Issue 10, "Addresses": spec §7 address calls and DESIGN §9 region pickers on both databases. */
const databases = await testDatabases()

/** 北京市 → 朝阳区 and 广东省 → 深圳市, codes of GB/T 2260. */
const BEIJING = { provinceId: '110000', cityId: '110105' }
const SHENZHEN = { provinceId: '440000', cityId: '440300' }

const addressInput = (overrides: Partial<AddressInput> = {}): AddressInput => ({
  name: '张三',
  mobile: '13800138000',
  countryId: 'CN',
  ...BEIJING,
  detail: '建国路88号SOHO现代城',
  ...overrides,
})

describe.each(databases)('addresses on $name', (kind) => {
  let t: TestApp

  beforeAll(async () => {
    t = await createTestApp(kind)
  })
  afterAll(() => t.close())

  const create = (as: Session, body: unknown) =>
    t.call({ method: 'POST', path: '/user/address', as, body })
  const created = async (as: Session, overrides: Partial<AddressInput> = {}): Promise<Address> => {
    const res = await create(as, addressInput(overrides))
    expect(res.statusCode, res.body).toBe(200)
    return res.json<{ data: Address }>().data
  }
  const list = async (as: Session): Promise<Address[]> => {
    const res = await t.call({ method: 'GET', path: '/user/address', as })
    expect(res.statusCode, res.body).toBe(200)
    return res.json<{ data: Address[] }>().data
  }
  const one = (as: Session, id: number) =>
    t.call({ method: 'GET', path: `/user/address/@getaddress/${id}`, as })
  const update = (as: Session, id: number, body: unknown) =>
    t.call({ method: 'POST', path: `/user/address/${id}`, as, body })
  const remove = (as: Session, id: number) =>
    t.call({ method: 'DELETE', path: `/user/address/${id}`, as })
  const setDefault = (as: Session, id: number) =>
    t.call({ method: 'POST', path: `/user/address/@defaddress/${id}`, as })
  const defaults = async (as: Session) =>
    (await list(as)).filter((a) => a.isDefault).map((a) => a.id)
  const regions = async (path: string, headers?: Record<string, string>) => {
    const res = await t.call({ method: 'GET', path, headers })
    expect(res.statusCode, res.body).toBe(200)
    return res.json<{ data: { id: string; name: string }[] }>().data
  }

  describe('region pickers', () => {
    it('lists countries with China (CN) first, in the caller’s language', async () => {
      const zh = await regions('/pub/@country')
      expect(zh[0]).toEqual({ id: 'CN', name: '中国' })
      expect(zh.length).toBeGreaterThan(200)
      expect(zh.find((c) => c.id === 'US')?.name).toBe('美国')
      // Taiwan, Hong Kong and Macao are provinces of CN in the divisions, not countries again.
      expect(zh.map((c) => c.id)).not.toContain('HK')
      const en = await regions('/pub/@country', { 'accept-language': 'en' })
      expect(en[0]?.id).toBe('CN')
      expect(en.find((c) => c.id === 'US')?.name).toBe('United States of America')
      expect(new Set(en.map((c) => c.id)).size).toBe(en.length)
    })

    it('lists China’s provinces and a province’s cities, none for other countries', async () => {
      const provinces = await regions('/pub/@province?countryId=CN')
      expect(provinces.length).toBe(34)
      expect(provinces).toContainEqual({ id: '440000', name: '广东省' })
      expect(await regions('/pub/@province?countryId=US')).toEqual([])
      const cities = await regions('/pub/@city?provinceId=440000')
      expect(cities).toContainEqual({ id: '440300', name: '深圳市' })
      expect(cities.every((c) => c.id.startsWith('44'))).toBe(true)
    })

    it('gives the municipalities their districts as the city level', async () => {
      for (const [provinceId, district] of [
        ['110000', '朝阳区'],
        ['310000', '浦东新区'],
        ['120000', '和平区'],
        ['500000', '渝中区'],
      ] as const) {
        const cities = await regions(`/pub/@city?provinceId=${provinceId}`)
        expect(cities.map((c) => c.name)).toContain(district)
        expect(cities.map((c) => c.name)).not.toContain('市辖区')
      }
    })

    it('puts county-level cities under their province, not a pseudo-prefecture', async () => {
      const hubei = (await regions('/pub/@city?provinceId=420000')).map((c) => c.name)
      expect(hubei).toContain('仙桃市')
      expect(hubei.some((name) => name.includes('直辖'))).toBe(false)
    })

    it('answers an unknown country or province with NOT_FOUND and a malformed id with 400', async () => {
      expect(
        (await t.call({ method: 'GET', path: '/pub/@province?countryId=ZZ' })).statusCode,
      ).toBe(404)
      expect(
        (await t.call({ method: 'GET', path: '/pub/@city?provinceId=990000' })).statusCode,
      ).toBe(404)
      const bad = await t.call({ method: 'GET', path: '/pub/@city?provinceId=beijing' })
      expect(bad.statusCode).toBe(400)
      expect(bad.json()).toMatchObject({ code: 'ADDRESS_REGION_INVALID' })
    })
  })

  describe('CRUD and the default', () => {
    it('makes the first address the default and returns the same fields it took', async () => {
      const user = await t.signIn()
      const first = await created(user, { name: '  张三 ' })
      expect(first).toMatchObject({
        name: '张三',
        mobile: '13800138000',
        countryId: 'CN',
        countryName: '中国',
        provinceId: '110000',
        provinceName: '北京市',
        cityId: '110105',
        cityName: '朝阳区',
        detail: '建国路88号SOHO现代城',
        isDefault: true,
      })
      const second = await created(user, { ...SHENZHEN, name: '李四' })
      expect(second.isDefault).toBe(false)
      const res = await one(user, second.id)
      expect(res.statusCode).toBe(200)
      expect(res.json<{ data: Address }>().data).toEqual(second)
      expect((await list(user)).map((a) => a.id)).toEqual([first.id, second.id])
    })

    it('moves the default when asked on create, update or set-default, keeping exactly one', async () => {
      const user = await t.signIn()
      const a = await created(user)
      const b = await created(user, { isDefault: true })
      expect(await defaults(user)).toEqual([b.id])
      const c = await created(user)
      const updated = await update(
        user,
        c.id,
        addressInput({ detail: '新的详细地址 1 号', isDefault: true }),
      )
      expect(updated.statusCode, updated.body).toBe(200)
      expect(updated.json<{ data: Address }>().data).toMatchObject({
        detail: '新的详细地址 1 号',
        isDefault: true,
      })
      expect(await defaults(user)).toEqual([c.id])
      // false cannot leave the user without a default.
      await update(user, c.id, addressInput({ isDefault: false }))
      expect(await defaults(user)).toEqual([c.id])
      const set = await setDefault(user, a.id)
      expect(set.statusCode, set.body).toBe(200)
      expect(await defaults(user)).toEqual([a.id])
      expect((await list(user))[0]?.id).toBe(a.id)
    })

    it('promotes the newest remaining address when the default is deleted', async () => {
      const user = await t.signIn()
      const a = await created(user)
      const b = await created(user)
      const c = await created(user)
      await setDefault(user, b.id)
      const res = await remove(user, b.id)
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json()).toEqual({ data: { id: b.id } })
      expect(await defaults(user)).toEqual([c.id])
      expect((await remove(user, a.id)).statusCode).toBe(200)
      expect(await defaults(user)).toEqual([c.id])
      expect((await remove(user, c.id)).statusCode).toBe(200)
      expect(await list(user)).toEqual([])
      expect((await one(user, c.id)).statusCode).toBe(404)
    })

    it('takes an overseas address without province or city and any phone format', async () => {
      const user = await t.signIn()
      const res = await create(user, {
        name: 'John Smith',
        mobile: '+14155550123',
        countryId: 'us',
        detail: '1 Market Street, San Francisco, CA 94105',
      })
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json<{ data: Address }>().data).toMatchObject({
        countryId: 'US',
        countryName: '美国',
        provinceId: null,
        cityId: null,
      })
    })

    it('stops at the address limit with ADDRESS_LIMIT', async () => {
      const user = await t.signIn()
      for (let i = 0; i < ADDRESS_LIMIT; i++) await created(user)
      const res = await create(user, addressInput())
      expect(res.statusCode).toBe(409)
      expect(res.json()).toMatchObject({ code: 'ADDRESS_LIMIT' })
      expect(await list(user)).toHaveLength(ADDRESS_LIMIT)
    })
  })

  describe('another user’s address', () => {
    it('is NOT_FOUND on read, update, delete and set-default, and stays as it was', async () => {
      const [owner, other] = [await t.signIn(), await t.signIn()]
      const address = await created(owner)
      const own = await created(other)
      expect((await one(other, address.id)).statusCode).toBe(404)
      expect((await update(other, address.id, addressInput({ name: '王五' }))).statusCode).toBe(404)
      expect((await remove(other, address.id)).statusCode).toBe(404)
      expect((await setDefault(other, address.id)).statusCode).toBe(404)
      expect(await list(owner)).toEqual([address])
      expect(await defaults(other)).toEqual([own.id])
    })

    it('needs a signed-in user', async () => {
      const res = await t.call({ method: 'GET', path: '/user/address' })
      expect(res.statusCode).toBe(401)
    })
  })

  describe('validation', () => {
    const refused = async (body: unknown, code: string, field?: string) => {
      const user = await t.signIn()
      const res = await create(user, body)
      expect(res.statusCode, res.body).toBe(400)
      const error = res.json<{
        code: string
        message: string
        details: { fields: { field: string }[] }
      }>()
      expect(error.code).toBe(code)
      expect(error.message).toBe(errorText(code as 'MOBILE_INVALID'))
      if (field) expect(error.details.fields.map((f) => f.field)).toContain(field)
      expect(await list(user)).toEqual([])
    }

    it('refuses a mainland address with a number that is not a mainland mobile', async () => {
      await refused(addressInput({ mobile: '12800138000' }), 'MOBILE_INVALID', 'body.mobile')
      await refused(addressInput({ mobile: '1380013800' }), 'MOBILE_INVALID', 'body.mobile')
    })

    it('refuses an overseas number that is not 6–20 digits', async () => {
      const overseas = { countryId: 'JP', provinceId: null, cityId: null }
      await refused(addressInput({ ...overseas, mobile: '03-1234' }), 'MOBILE_INVALID')
      await refused(addressInput({ ...overseas, mobile: '12345' }), 'MOBILE_INVALID')
    })

    it('refuses a name or detail out of bounds or with control characters', async () => {
      await refused(addressInput({ name: '   ' }), 'ADDRESS_NAME_INVALID', 'body.name')
      await refused(addressInput({ name: 'x'.repeat(26) }), 'ADDRESS_NAME_INVALID')
      await refused(addressInput({ name: '张\u0000三' }), 'ADDRESS_NAME_INVALID')
      await refused(addressInput({ detail: '四个字啊' }), 'ADDRESS_DETAIL_INVALID', 'body.detail')
      await refused(addressInput({ detail: 'x'.repeat(121) }), 'ADDRESS_DETAIL_INVALID')
      // PostgreSQL refuses NUL in text: it must be a 400 here, not a 500 there.
      await refused(addressInput({ detail: '建国路\u000088号院' }), 'ADDRESS_DETAIL_INVALID')
    })

    it('refuses a region that does not exist or does not belong together', async () => {
      await refused(
        addressInput({ cityId: SHENZHEN.cityId }),
        'ADDRESS_REGION_INVALID',
        'body.cityId',
      )
      await refused(addressInput({ provinceId: null }), 'ADDRESS_REGION_INVALID', 'body.provinceId')
      await refused(addressInput({ cityId: null }), 'ADDRESS_REGION_INVALID', 'body.cityId')
      await refused(addressInput({ provinceId: '990000' }), 'ADDRESS_REGION_INVALID')
      await refused(addressInput({ countryId: 'ZZ' }), 'ADDRESS_REGION_INVALID', 'body.countryId')
      await refused(addressInput({ countryId: 'US' }), 'ADDRESS_REGION_INVALID', 'body.provinceId')
    })

    it('refuses a bad update the same way and leaves the address unchanged', async () => {
      const user = await t.signIn()
      const address = await created(user)
      const res = await update(user, address.id, addressInput({ mobile: '110' }))
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({ code: 'MOBILE_INVALID' })
      expect(await list(user)).toEqual([address])
    })
  })

  describe('concurrency', () => {
    it('leaves exactly one default after parallel set-defaults', async () => {
      const user = await t.signIn()
      const ids: number[] = []
      for (let i = 0; i < 6; i++) ids.push((await created(user)).id)
      for (let round = 0; round < 3; round++) {
        const results = await Promise.all(ids.map((id) => setDefault(user, id)))
        expect(results.map((r) => r.statusCode)).toEqual(ids.map(() => 200))
        expect(await defaults(user)).toHaveLength(1)
      }
    })

    it('makes exactly one of parallel first addresses the default', async () => {
      const user = await t.signIn()
      const results = await Promise.all(
        Array.from({ length: 5 }, () => create(user, addressInput())),
      )
      expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200])
      expect(await defaults(user)).toHaveLength(1)
    })

    it('never passes the limit under parallel creates', async () => {
      const user = await t.signIn()
      for (let i = 0; i < ADDRESS_LIMIT - 2; i++) await created(user)
      const results = await Promise.all(
        Array.from({ length: 5 }, () => create(user, addressInput())),
      )
      expect(results.filter((r) => r.statusCode === 200)).toHaveLength(2)
      expect(results.filter((r) => r.statusCode === 409)).toHaveLength(3)
      expect(await list(user)).toHaveLength(ADDRESS_LIMIT)
    })

    it('keeps one default when deletes and set-defaults race', async () => {
      const user = await t.signIn()
      const ids: number[] = []
      for (let i = 0; i < 6; i++) ids.push((await created(user)).id)
      await Promise.all([
        ...ids.slice(0, 3).map((id) => remove(user, id)),
        ...ids.slice(2).map((id) => setDefault(user, id)),
      ])
      const left = await list(user)
      expect(left).toHaveLength(3)
      expect(left.filter((a) => a.isDefault)).toHaveLength(1)
    })
  })
})
