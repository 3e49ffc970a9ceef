import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CatalogRepository } from '../src/modules/catalog/repository'
import { seedCatalogue } from '../src/seed/catalogue'
import { createTestApp, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'

const databases = await testDatabases()

interface Card {
  id: number
  title: string
  price: number | null
  startPrice: number
  endsAt: string
  gradeCode: number
  gradingService: string | null
  status: string
  bidCount: number
}

describe.each(databases)('search service on $name', (kind) => {
  let t: TestApp

  beforeAll(async () => {
    t = await createTestApp(kind)
    await seedCatalogue(new CatalogRepository(t.database.db), t.clock.now())
  })
  afterAll(() => t.close())

  const search = async (query: Record<string, string | number>) => {
    const qs = new URLSearchParams(
      Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
    )
    const res = await t.call({
      method: 'GET',
      service: 'search',
      path: `/api/search/wechat?${qs.toString()}`,
    })
    return res
  }
  const cards = async (query: Record<string, string | number>) => {
    const res = await search(query)
    expect(res.statusCode).toBe(200)
    return res.json<{ data: Card[]; page: number; pageSize: number; total: number }>()
  }

  it('finds 袁世凯像 lots by the nickname 袁大头', async () => {
    const { data, total } = await cards({ keyword: '袁大头', status: 'all', pageSize: 50 })
    expect(total).toBeGreaterThan(0)
    for (const card of data) expect(card.title).toContain('袁世凯像')
    expect(data.some((c) => c.title.includes('民国三年袁世凯像壹圆'))).toBe(true)
  })

  it('narrows by a qualified nickname: 三年袁大头', async () => {
    const { data } = await cards({ keyword: '三年袁大头', status: 'all', pageSize: 50 })
    expect(data.length).toBeGreaterThan(0)
    for (const card of data) expect(card.title).toContain('三年袁世凯像')
  })

  it('knows other collector nicknames', async () => {
    for (const [keyword, expected] of [
      ['船洋', '帆船'],
      ['龙洋', '光绪元宝'],
      ['大团结', '拾圆大团结'],
    ] as const) {
      const { data } = await cards({ keyword, status: 'all', pageSize: 50 })
      expect(data.length, keyword).toBeGreaterThan(0)
      expect(
        data.some((c) => c.title.includes(expected)),
        keyword,
      ).toBe(true)
    }
  })

  it('ranks title matches above description matches', async () => {
    const { data } = await cards({ keyword: '帆船', status: 'all', pageSize: 50 })
    expect(data[0]!.title).toContain('帆船')
  })

  it('matches all whitespace-separated terms, case-insensitively', async () => {
    const { data } = await cards({ keyword: 'pcgs 袁大头', status: 'all', pageSize: 50 })
    expect(data.length).toBeGreaterThan(0)
    for (const card of data) {
      expect(card.title).toContain('PCGS')
      expect(card.title).toContain('袁世凯像')
    }
  })

  it('tolerates a near miss through bigrams (孙中山开国纪念币)', async () => {
    const { data } = await cards({ keyword: '孙中山开国纪念币', status: 'all', pageSize: 50 })
    expect(data.some((c) => c.title.includes('孙中山像开国纪念币'))).toBe(true)
  })

  it('finds nothing for unrelated text', async () => {
    const { data, total } = await cards({ keyword: '比特币', status: 'all' })
    expect(total).toBe(0)
    expect(data).toEqual([])
  })

  it('filters by category, grade, grading service and price range', async () => {
    const categories = (await t.call({ method: 'GET', path: '/meta/@category' })).json().data
    const graded = categories.find((c: { name: string }) => c.name === '评级币').id
    const byCategory = await cards({ categoryId: graded, status: 'all', pageSize: 50 })
    for (const card of byCategory.data) expect(card.gradingService).not.toBeNull()

    const byService = await cards({ gradingService: 'PMG', status: 'all', pageSize: 50 })
    expect(byService.total).toBeGreaterThan(0)
    for (const card of byService.data) expect(card.gradingService).toBe('PMG')

    const byGrade = await cards({ grade: 51, status: 'all', pageSize: 50 })
    for (const card of byGrade.data) expect(card.gradeCode).toBe(51)

    const byPrice = await cards({
      minPrice: 100_000,
      maxPrice: 500_000,
      status: 'all',
      pageSize: 50,
    })
    for (const card of byPrice.data) {
      const price = card.price ?? card.startPrice
      expect(price).toBeGreaterThanOrEqual(100_000)
      expect(price).toBeLessThanOrEqual(500_000)
    }
  })

  it('lists live lots ending soonest first by default, and pages without overlap', async () => {
    const first = await cards({ pageSize: 10 })
    const second = await cards({ pageSize: 10, page: 2 })
    expect(first.total).toBeGreaterThan(100)
    for (const card of [...first.data, ...second.data]) expect(card.status).toBe('live')
    const ends = [...first.data, ...second.data].map((c) => Date.parse(c.endsAt))
    expect([...ends].sort((a, b) => a - b)).toEqual(ends)
    const ids = new Set([...first.data, ...second.data].map((c) => c.id))
    expect(ids.size).toBe(20)
  })

  it('sorts by price both ways and by newest', async () => {
    const price = (c: Card) => c.price ?? c.startPrice
    const up = (await cards({ sort: 'price_asc', pageSize: 30 })).data.map(price)
    expect([...up].sort((a, b) => a - b)).toEqual(up)
    const down = (await cards({ sort: 'price_desc', pageSize: 30 })).data.map(price)
    expect([...down].sort((a, b) => b - a)).toEqual(down)
  })

  it('shows upcoming lots under status=preview', async () => {
    const { data, total } = await cards({ status: 'preview', pageSize: 5 })
    expect(total).toBe(40)
    for (const card of data) expect(card.status).toBe('preview')
  })

  it('searches the mall with productNo on every card', async () => {
    const res = await cards({ type: 'mall', pageSize: 20 })
    expect(res.total).toBe(100)
    expect(res.data[0]).toMatchObject({ productNo: expect.stringMatching(/^M\d+$/) })
    const kw = await cards({ type: 'mall', keyword: '熊猫', pageSize: 50 })
    for (const card of kw.data) expect(card.title).toContain('熊猫')
  })

  it("lists a parent mall category's children's items under the parent (its 全部 link)", async () => {
    const { data: tree } = (await t.call({ method: 'GET', path: '/mall/categoryTree' })).json<{
      data: { id: number; name: string; children: { id: number }[] }[]
    }>()
    const idsIn = async (categoryId: number) => {
      const page = await cards({ type: 'mall', categoryId, pageSize: 50 })
      expect(page.total).toBeLessThanOrEqual(50)
      return page.data.map((c) => c.id).sort((a, b) => a - b)
    }
    expect(tree.length).toBeGreaterThan(0)
    for (const parent of tree) {
      expect(parent.children.length, parent.name).toBeGreaterThan(0)
      const children: number[] = []
      for (const child of parent.children) {
        const own = await idsIn(child.id)
        expect(own.length, `${parent.name} › ${child.id}`).toBeGreaterThan(0)
        children.push(...own)
      }
      expect(await idsIn(parent.id), parent.name).toEqual(children.sort((a, b) => a - b))
    }
    expect((await cards({ type: 'mall', categoryId: 999_999 })).total).toBe(0)
  })

  it.each([
    [{ type: 'stamps' }],
    [{ page: 0 }],
    [{ pageSize: 500 }],
    [{ minPrice: 500, maxPrice: 100 }],
    [{ gradingService: 'ACME' }],
    [{ sort: 'random' }],
    [{ keyword: 'x'.repeat(51) }],
  ])('refuses %j with a coded 400', async (query) => {
    const res = await search(query)
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('VALIDATION_FAILED')
  })

  it('is signed with the search pair and refuses the main pair', async () => {
    const res = await t.call({
      method: 'GET',
      service: 'search',
      path: '/api/search/wechat',
      as: { id: t.apps.h5.id, key: t.apps.h5.key, userId: '', sid: '', mobile: '', deviceId: 'd' },
    })
    expect(res.statusCode).toBe(401)
  })
})
