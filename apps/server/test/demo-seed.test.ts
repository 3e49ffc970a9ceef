import { hasGrade } from '@numisma/contracts/grades'
import { isOnGrid } from '@numisma/domain/increments'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CatalogRepository } from '../src/modules/catalog/repository'
import { parseImages } from '../src/modules/catalog/mappers'
import { parseArtwork } from '../src/modules/media/routes'
import { MALL_TEMPLATES } from '../src/seed/catalogue'
import { MALL_CATEGORIES, SUPPLIES } from '../src/seed/catalogue-data'
import { rollDemo, seedCatalogue } from '../src/seed/catalogue'
import { createTestApp, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'

const [sqlite] = await testDatabases()

describe('demo catalogue (DESIGN §8)', () => {
  let t: TestApp
  let repo: CatalogRepository

  beforeAll(async () => {
    t = await createTestApp(sqlite!)
    repo = new CatalogRepository(t.database.db)
    await seedCatalogue(repo, t.clock.now())
  })
  afterAll(() => t.close())

  it('has a few hundred lots and a hundred mall items', async () => {
    expect((await repo.allLots()).length).toBe(290)
    expect((await repo.allMallItems()).length).toBe(100)
  })

  it('uses grades of the spec table, grading services and on-grid start prices', async () => {
    const lots = await repo.allLots()
    for (const lot of lots) {
      expect(hasGrade(lot.grade_code), lot.title).toBe(true)
      expect(isOnGrid(lot.start_price), `${lot.title} ${lot.start_price}`).toBe(true)
      if (lot.reserve_price !== null) expect(isOnGrid(lot.reserve_price)).toBe(true)
      if (lot.grading_service) expect(['PCGS', 'NGC', 'PMG', 'GBCA']).toContain(lot.grading_service)
    }
    expect(new Set(lots.map((l) => l.grading_service)).size).toBe(5) // four services and raw
  })

  it('gives every item its own pictures', async () => {
    const images = [...(await repo.allLots()), ...(await repo.allMallItems())].flatMap((r) =>
      parseImages(r.images),
    )
    expect(new Set(images).size).toBe(images.length)
  })

  describe('mall shelves (issue 8 item 5)', () => {
    const shelves = async () => {
      const categories = await repo.listMallCategories()
      const nameOf = new Map(categories.map((c) => [c.id, c.name]))
      const parentOf = new Map(categories.map((c) => [c.id, c.parent_id]))
      const leaves = categories.filter((c) => !categories.some((o) => o.parent_id === c.id))
      const items = (await repo.allMallItems()).map((row) => ({
        ...row,
        leaf: nameOf.get(row.category_id ?? -1),
        parent: nameOf.get(parentOf.get(row.category_id ?? -1) ?? -1),
      }))
      return { items, leaves, inLeaf: (name: string) => items.filter((i) => i.leaf === name) }
    }

    it('stocks every leaf category, and files every item under a leaf', async () => {
      const { items, leaves, inLeaf } = await shelves()
      expect(leaves.map((l) => l.name).sort()).toEqual(
        MALL_CATEGORIES.flatMap((c) => c.children.map((child) => child.name)).sort(),
      )
      expect(leaves).toHaveLength(12)
      for (const leaf of leaves) expect(inLeaf(leaf.name).length, leaf.name).toBeGreaterThan(4)
      for (const item of items) expect(item.leaf, item.title).toBeDefined()
      // A shelf shows its variety: no leaf is one title repeated.
      for (const leaf of leaves) {
        expect(new Set(inLeaf(leaf.name).map((i) => i.title)).size, leaf.name).toBeGreaterThan(2)
      }
    })

    it('files every item by what it is', async () => {
      const { items } = await shelves()
      expect(misfiled(items)).toEqual([])
      // The shelves hold what the rules are about: a 民国 note, a nickel coin, pandas, zodiacs.
      expect(items.some((i) => i.leaf === '民国纸币')).toBe(true)
      expect(items.some((i) => i.material === '镍')).toBe(true)
      expect(items.some((i) => i.material === '铜镍')).toBe(true)
    })

    it('files every template by the same rules, on a shelf yet or not', () => {
      const parentOf = (leaf: string) =>
        MALL_CATEGORIES.find((c) => c.children.some((x) => x.name === leaf))?.name
      const templates = [...MALL_TEMPLATES, ...SUPPLIES].map((t) => ({
        title: t.title,
        material: t.material,
        leaf: t.mall,
        parent: parentOf(t.mall),
      }))
      expect(misfiled(templates)).toEqual([])
      // And the rules do catch a misfiling.
      expect(
        misfiled([
          { title: '民国十九年中国银行伍圆', material: '纸', leaf: '人民币', parent: '纸币' },
          {
            title: '民国二十五年孙中山像壹角镍币',
            material: '镍',
            leaf: '纪念金银币',
            parent: '金银币',
          },
          { title: '熊猫银币30克', material: '银', leaf: '纪念金银币', parent: '金银币' },
        ]),
      ).toHaveLength(6)
    })

    it('sells supplies ungraded, with generated pictures of the thing itself', async () => {
      const { inLeaf } = await shelves()
      const tools = { 评级盒: 'slab', 钱币册: 'album', 放大镜: 'loupe' } as const
      for (const [leaf, tool] of Object.entries(tools)) {
        for (const item of inLeaf(leaf)) {
          expect(item.grade_code, item.title).toBe(0)
          expect(item.grading_service).toBeNull()
          const images = parseImages(item.images)
          expect(images).toHaveLength(2)
          for (const url of images) {
            const token = /\/svc\/media\/art\/([\w-]+)\.svg$/.exec(url)?.[1]
            expect(parseArtwork(token ?? ''), url).toMatchObject({ kind: 'supply', tool })
            const res = await t.inject({ method: 'GET', url })
            expect(res.statusCode).toBe(200)
            expect(res.headers['content-type']).toContain('image/svg+xml')
            expect(res.body).toMatch(/^<svg[\s\S]*<\/svg>$/)
          }
        }
      }
    })
  })

  it('has lots closing within minutes of start-up', async () => {
    expect(await repo.countLotsEndingWithin(t.clock.now(), 10 * 60_000)).toBeGreaterThan(5)
  })

  it('is the same catalogue for the same seed', async () => {
    const other = await createTestApp(sqlite!)
    try {
      const otherRepo = new CatalogRepository(other.database.db)
      await seedCatalogue(otherRepo, t.clock.now())
      const titles = (rows: { title: string }[]) => rows.map((r) => r.title)
      expect(titles(await otherRepo.allLots())).toEqual(titles(await repo.allLots()))
      const shelf = (
        rows: { product_no: string; title: string; price: number; images: string }[],
      ) => rows.map((r) => [r.product_no, r.title, r.price, r.images])
      expect(shelf(await otherRepo.allMallItems())).toEqual(shelf(await repo.allMallItems()))
    } finally {
      await other.close()
    }
  })

  it('rolls a new quick-sale special in when closing lots run low, and only then', async () => {
    const before = (await repo.allLots()).length
    expect(await rollDemo(repo, t.clock.now())).toBe(false)
    const later = t.clock.now() + 5 * 24 * 60 * 60_000
    expect(await rollDemo(repo, later)).toBe(true)
    expect((await repo.allLots()).length).toBe(before + 20)
    expect(await rollDemo(repo, later)).toBe(false)
  })

  it('seeds only an empty database, and only once', async () => {
    const { seedDemo } = await import('../src/seed/demo')
    const fresh = await createTestApp(sqlite!)
    const used = await createTestApp(sqlite!)
    try {
      const silent = { info: () => undefined } as unknown as Parameters<typeof seedDemo>[2]
      await seedDemo(fresh.database, fresh.clock, silent)
      await seedDemo(fresh.database, fresh.clock, silent)
      expect((await new CatalogRepository(fresh.database.db).allLots()).length).toBe(290)
      // Coupons a visitor can receive (DESIGN §8), made once: a coin gets the whole-mall ones and
      // the coins one, never a supplies-only coupon.
      const coins = await fresh.database.db
        .selectFrom('mall_items')
        .innerJoin('mall_categories as leaf', 'leaf.id', 'mall_items.category_id')
        .innerJoin('mall_categories as parent', 'parent.id', 'leaf.parent_id')
        .select('mall_items.product_no')
        .where('parent.name', '=', '钱币')
        .executeTakeFirstOrThrow()
      const offered = (
        await fresh.call({ method: 'GET', path: `/mallproduct/getMallCoupons/${coins.product_no}` })
      ).json<{ data: { title: string; receivable: boolean }[] }>().data
      expect(offered.map((c) => c.title).sort()).toEqual(
        ['全场满200减20', '新人无门槛5元券', '钱币专享9折（最高减100元）'].sort(),
      )
      expect(offered.every((c) => c.receivable)).toBe(true)

      await used.signIn()
      await seedDemo(used.database, used.clock, silent)
      expect((await new CatalogRepository(used.database.db).allLots()).length).toBe(0)
    } finally {
      await fresh.close()
      await used.close()
    }
  })
})

interface Filed {
  title: string
  material: string
  leaf: string | undefined
  parent: string | undefined
}

const GOLD_SILVER = ['金', '银']
const NOTE = ['纸', '聚合物']

/** What a collector would call misfiled (issue 8 item 5), one line per broken rule. */
function misfiled(entries: Filed[]): string[] {
  const rules: [string, (e: Filed) => boolean][] = [
    [
      '人民币 holds Renminbi only',
      (e) => e.leaf !== '人民币' || /^(?!.*民国).*人民币/.test(e.title),
    ],
    ['民国纸币 holds Republic notes', (e) => e.leaf !== '民国纸币' || e.title.includes('民国')],
    [
      'a note is filed under 纸币, a 民国 note under 民国纸币',
      (e) =>
        !NOTE.includes(e.material) ||
        (e.title.includes('民国')
          ? e.leaf === '民国纸币'
          : ['人民币', '外国纸币'].includes(e.leaf ?? '')),
    ],
    [
      '外国纸币 holds foreign notes',
      (e) => e.leaf !== '外国纸币' || (NOTE.includes(e.material) && !/人民币|民国/.test(e.title)),
    ],
    [
      '金银币 holds gold and silver only',
      (e) => e.parent !== '金银币' || GOLD_SILVER.includes(e.material),
    ],
    [
      'a base-metal coin is filed under 钱币',
      (e) => !/镍|铜/.test(e.material) || e.parent === '钱币',
    ],
    [
      'a gold or silver panda is in 熊猫币',
      (e) => !(GOLD_SILVER.includes(e.material) && e.title.includes('熊猫')) || e.leaf === '熊猫币',
    ],
    [
      'a gold or silver zodiac coin is in 生肖币',
      (e) => !(GOLD_SILVER.includes(e.material) && e.title.includes('生肖')) || e.leaf === '生肖币',
    ],
    ['熊猫币 holds pandas', (e) => e.leaf !== '熊猫币' || e.title.includes('熊猫')],
    ['生肖币 holds zodiac coins', (e) => e.leaf !== '生肖币' || e.title.includes('生肖')],
    ['纪念金银币 holds neither', (e) => e.leaf !== '纪念金银币' || !/熊猫|生肖/.test(e.title)],
    [
      '纪念币 holds base-metal commemoratives',
      (e) =>
        e.leaf !== '纪念币' || (e.title.includes('纪念币') && !GOLD_SILVER.includes(e.material)),
    ],
    ['古钱币 holds cast copper coins', (e) => e.leaf !== '古钱币' || e.material === '铜'],
    [
      'supplies are neither coins nor notes',
      (e) =>
        e.parent !== '收藏工具' || !(GOLD_SILVER.includes(e.material) || NOTE.includes(e.material)),
    ],
  ]
  return entries.flatMap((e) =>
    rules.filter(([, holds]) => !holds(e)).map(([rule]) => `${e.title} (${e.leaf}): ${rule}`),
  )
}
