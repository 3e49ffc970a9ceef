import type { Banner, MallCategoryNode } from '@numisma/contracts/catalog'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Kysely } from 'kysely'
import { CatalogRepository } from '../src/modules/catalog/repository'
import { englishNames } from '../src/platform/migrations/0007-english-names'
import { seedCatalogue } from '../src/seed/catalogue'
import { createTestApp, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'

const databases = await testDatabases()

/** An English name: no Han characters, not blank. */
const LATIN_ONLY = /^[^\p{Script=Han}]*\p{L}[^\p{Script=Han}]*$/u

describe.each(databases)('catalogue calls on $name', (kind) => {
  let t: TestApp
  const get = (path: string) => t.call({ method: 'GET', path })

  beforeAll(async () => {
    t = await createTestApp(kind)
    await seedCatalogue(new CatalogRepository(t.database.db), t.clock.now())
  })
  afterAll(() => t.close())

  it('lists auction categories', async () => {
    const res = await get('/meta/@category')
    expect(res.statusCode).toBe(200)
    const { data } = res.json()
    expect(data.map((c: { name: string }) => c.name)).toEqual(
      expect.arrayContaining(['古钱币', '机制币', '纸币', '金银纪念币', '评级币']),
    )
    expect(data[0]).toEqual({
      id: expect.any(Number),
      name: '古钱币',
      nameEn: 'Ancient coins',
      icon: '古',
    })
  })

  it('returns the mall category tree nested, every node named in both languages', async () => {
    const { data } = (await get('/mall/categoryTree')).json()
    expect(data).toHaveLength(4)
    expect(data[0]).toMatchObject({
      name: '钱币',
      nameEn: 'Coins',
      children: [{ name: '古钱币', nameEn: 'Ancient coins', children: [] }, {}, {}],
    })
    const nodes = data.flatMap((n: MallCategoryNode) => [n, ...n.children])
    expect(nodes).toHaveLength(16)
    for (const node of nodes) expect(node.nameEn).toMatch(LATIN_ONLY)
    expect(nodes.map((n: MallCategoryNode) => n.nameEn)).toEqual(
      expect.arrayContaining([
        'Banknotes',
        'Renminbi',
        'Gold & silver coins',
        'Machine-struck coins',
      ]),
    )
  })

  it('returns home and category banners, refusing other positions', async () => {
    const home = (await get('/mall/advertis/0')).json().data
    const category = (await get('/mall/advertis/1')).json().data
    expect(home).toHaveLength(3)
    expect(category).toHaveLength(2)
    expect(home[0].link).toMatch(/^\/specialDetail\?id=\d+$/)
    expect(home[0]).toMatchObject({
      title: '民国机制币精品 · 袁大头船洋龙洋',
      titleEn: 'Republic-era struck coins · Yuan Shikai, Junk & Dragon dollars',
    })
    for (const banner of [...home, ...category]) {
      expect(banner.titleEn).toMatch(LATIN_ONLY)
      expect(banner.title).not.toMatch(LATIN_ONLY)
    }
    const bad = await get('/mall/advertis/7')
    expect(bad.statusCode).toBe(400)
    expect(bad.json().code).toBe('VALIDATION_FAILED')
  })

  it('lists live specials before upcoming ones, with counts and previews', async () => {
    const { data } = (await get('/special/V1')).json()
    expect(data).toHaveLength(5)
    const statuses = data.map((s: { status: string }) => s.status)
    expect(statuses).toEqual(['live', 'live', 'live', 'live', 'preview'])
    const ends = data.slice(0, 4).map((s: { endsAt: string }) => Date.parse(s.endsAt))
    expect([...ends].sort((a, b) => a - b)).toEqual(ends)
    expect(data[0]).toMatchObject({ lotCount: 40, bidCount: 0 })
    expect(data[0].previewImages).toHaveLength(3)
  })

  it('returns one special with its lots in order, closing 30 s apart', async () => {
    const [first] = (await get('/special/V1')).json().data
    const res = await get(`/special/${first.id}`)
    const { data } = res.json()
    expect(data.lots).toHaveLength(40)
    expect(data.lots.map((l: { lotNo: number }) => l.lotNo)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    )
    const gap = Date.parse(data.lots[1].endsAt) - Date.parse(data.lots[0].endsAt)
    expect(gap).toBe(30_000)
    expect(data).toMatchObject({ staggerSeconds: 30, softCloseWindowSeconds: 300 })
  })

  it.each([
    ['/special/999999', 404, 'NOT_FOUND'],
    ['/special/abc', 400, 'VALIDATION_FAILED'],
    ['/special/-1', 400, 'VALIDATION_FAILED'],
    ['/auction/999999', 404, 'NOT_FOUND'],
    ['/auction/1.5', 400, 'VALIDATION_FAILED'],
    ['/mallproduct/getMallByProductNo/NOPE', 404, 'NOT_FOUND'],
    ['/mallproduct/getMallByProductNo/bad%20id', 400, 'VALIDATION_FAILED'],
    ['/bidding/999999', 404, 'NOT_FOUND'],
    ['/bidding/x', 400, 'VALIDATION_FAILED'],
  ])('%s → %i %s', async (path, status, code) => {
    const res = await get(path)
    expect(res.statusCode).toBe(status)
    expect(res.json().code).toBe(code)
  })

  it('returns a lot with its item facts and live state for an anonymous caller', async () => {
    const res = await get('/auction/1')
    const { data } = res.json()
    expect(data).toMatchObject({
      id: 1,
      lotNo: 1,
      status: 'live',
      price: null,
      bidCount: 0,
      leading: false,
      myMax: null,
      softCloseWindowSeconds: 300,
    })
    expect(data.images).toHaveLength(2)
    expect(data.startPrice % 500).toBe(0)
    expect(typeof data.reserveMet).toBe('boolean')
  })

  it('shows the closing outcome once a lot is past its end', async () => {
    t.clock.advance(2 * 60 * 60 * 1000)
    try {
      const { data } = (await get('/auction/1')).json()
      expect(data.status).toBe('unsold')
    } finally {
      t.clock.advance(-2 * 60 * 60 * 1000)
    }
  })

  it('returns a mall item by product number', async () => {
    const { data } = (await get('/mallproduct/getMallByProductNo/M100001')).json()
    expect(data).toMatchObject({ productNo: 'M100001', onSale: true })
    expect(data.price).toBeGreaterThan(0)
    expect(data.stock).toBeGreaterThanOrEqual(1)
  })

  it('returns server time from the injected clock', async () => {
    const { data } = (await get('/pub/@time')).json()
    expect(data.timestamp).toBe(t.clock.now())
    expect(data.now).toBe(new Date(t.clock.now()).toISOString())
  })

  it('returns the increment table from the database', async () => {
    const { data } = (await get('/bidding/price-step')).json()
    expect(data[0]).toEqual({ from: 0, step: 500 })
    expect(data.at(-1)).toEqual({ from: 100_000_000, step: 1_000_000 })
  })

  it('returns an empty bid history for a lot without bids', async () => {
    const res = await get('/bidding/1')
    expect(res.json()).toEqual({ data: [], page: 1, pageSize: 50, total: 0 })
  })

  it('serves generated pictures unsigned, and refuses forged ones', async () => {
    const { data } = (await get('/auction/1')).json()
    const picture = await t.inject({ method: 'GET', url: data.images[0] })
    expect(picture.statusCode).toBe(200)
    expect(picture.headers['content-type']).toContain('image/svg+xml')
    expect(picture.body).toContain('<svg')
    const forged = await t.inject({ method: 'GET', url: '/svc/media/art/bm90LWpzb24.svg' })
    expect(forged.statusCode).toBe(404)
    const tooLong = await t.inject({ method: 'GET', url: `/svc/media/art/${'a'.repeat(2000)}.svg` })
    expect(tooLong.statusCode).toBe(414)
    expect(tooLong.json().code).toBe('VALIDATION_FAILED')
  })
})

describe.each(databases)('English names on $name', (kind) => {
  let t: TestApp
  const get = (path: string, headers: Record<string, string> = {}) =>
    t.call({ method: 'GET', path, headers })

  beforeAll(async () => {
    t = await createTestApp(kind)
  })
  afterAll(() => t.close())

  it('0007 fills the English names of rows an older seed wrote, others show their Chinese', async () => {
    // Back to the schema before 0007, with rows as the seed wrote them then (Chinese only).
    const db = t.database.db as unknown as Kysely<unknown>
    const migration = englishNames()
    await migration.down(db)
    const old = db as Kysely<{
      mall_categories: { id?: number; parent_id: number | null; name: string; sort: number }
      banners: {
        position: number
        title: string
        image: string
        link: string
        sort: number
        active_from: number
      }
    }>
    const { id: parent } = await old
      .insertInto('mall_categories')
      .values({ parent_id: null, name: '纸币', sort: 0 })
      .returning('id')
      .executeTakeFirstOrThrow()
    await old
      .insertInto('mall_categories')
      .values([
        { parent_id: parent!, name: '民国纸币', sort: 0 },
        { parent_id: parent!, name: '侨批', sort: 1 },
      ])
      .execute()
    const banner = { image: '/a.svg', link: '/special', sort: 0, active_from: 0 }
    await old
      .insertInto('banners')
      .values([
        { ...banner, position: 0, title: '纸韵流金 · 一版至五版人民币' },
        { ...banner, position: 0, title: '店庆特卖', sort: 1 },
      ])
      .execute()

    await migration.up(db)

    const { data: tree } = (await get('/mall/categoryTree')).json()
    expect(tree).toEqual([
      {
        id: parent,
        name: '纸币',
        nameEn: 'Banknotes',
        children: [
          {
            id: expect.any(Number),
            name: '民国纸币',
            nameEn: 'Republic of China notes',
            children: [],
          },
          { id: expect.any(Number), name: '侨批', nameEn: '侨批', children: [] },
        ],
      },
    ])
    const { data: banners } = (await get('/mall/advertis/0')).json()
    expect(banners.map((b: Banner) => [b.title, b.titleEn])).toEqual([
      ['纸韵流金 · 一版至五版人民币', 'Golden paper · Renminbi, first to fifth series'],
      ['店庆特卖', '店庆特卖'],
    ])
  })

  it('answers errors in the language the web app chose (lang cookie first, then Accept-Language)', async () => {
    const english = await get('/special/999999', { cookie: 'lang=en' })
    expect(english.statusCode).toBe(404)
    expect(english.json().message).toMatch(LATIN_ONLY)
    const chinese = await get('/special/999999', {
      cookie: 'lang=zh-CN',
      'accept-language': 'en-US,en;q=0.9',
    })
    expect(chinese.json().message).not.toMatch(LATIN_ONLY)
    const header = await get('/special/999999', { 'accept-language': 'en' })
    expect(header.json().message).toBe(english.json().message)
  })
})
