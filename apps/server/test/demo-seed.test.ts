import { hasGrade } from '@numisma/contracts/grades'
import { isOnGrid } from '@numisma/domain/increments'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CatalogRepository } from '../src/modules/catalog/repository'
import { parseImages } from '../src/modules/catalog/mappers'
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

      await used.signIn()
      await seedDemo(used.database, used.clock, silent)
      expect((await new CatalogRepository(used.database.db).allLots()).length).toBe(0)
    } finally {
      await fresh.close()
      await used.close()
    }
  })
})
