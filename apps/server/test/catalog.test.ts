import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CatalogRepository } from '../src/modules/catalog/repository'
import { seedCatalogue } from '../src/seed/catalogue'
import { createTestApp, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'

const databases = await testDatabases()

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

  it('returns the mall category tree nested', async () => {
    const { data } = (await get('/mall/categoryTree')).json()
    expect(data).toHaveLength(4)
    expect(data[0]).toMatchObject({
      name: '钱币',
      children: [{ name: '古钱币', children: [] }, {}, {}],
    })
  })

  it('returns home and category banners, refusing other positions', async () => {
    const home = (await get('/mall/advertis/0')).json().data
    const category = (await get('/mall/advertis/1')).json().data
    expect(home).toHaveLength(3)
    expect(category).toHaveLength(2)
    expect(home[0].link).toMatch(/^\/specialDetail\?id=\d+$/)
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
    expect(res.json()).toEqual({ data: [] })
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
