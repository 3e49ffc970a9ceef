import type { Insertable } from 'kysely'
import { describe, expect, it } from 'vitest'
import type { LotCreate, MallItemCreate } from '@numisma/contracts/staff'
import { DEFAULT_PRICE_STEPS, type PriceStep } from '@numisma/domain/increments'
import { FakeClock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import type { LotsTable, MallItemsTable } from '../../platform/schema'
import type { Transact, Tx } from '../../platform/transactions'
import type { ListingRepository } from './listing-repository'
import { ListingService, productNoOf } from './listing-service'
import type { SpecialRow } from './repository'

/** ListingService with an in-memory repository (the Immich pattern): no database. */
const NOW = Date.UTC(2026, 10, 23, 2, 0, 0)
const HOUR = 3_600_000

const buildSpecial = (overrides: Partial<SpecialRow> = {}): SpecialRow => ({
  id: 3,
  title: '袁大头专场',
  subtitle: '',
  description: '',
  cover: '',
  starts_at: NOW,
  ends_at: NOW + HOUR,
  stagger_seconds: 30,
  soft_close_window_seconds: 300,
  soft_close_extend_seconds: 300,
  created_at: NOW,
  ...overrides,
})

const buildLot = (overrides: Partial<LotCreate> = {}): LotCreate => ({
  specialId: 3,
  title: '民国三年袁世凯像壹圆',
  subtitle: '',
  description: '',
  startPrice: 100_000,
  gradeCode: 0,
  images: [],
  exportBanned: false,
  ...overrides,
})

const buildMallItem = (overrides: Partial<MallItemCreate> = {}): MallItemCreate => ({
  title: '钱币收藏册',
  price: 8_800,
  stock: 10,
  ...overrides,
})

class FakeListings implements Pick<ListingRepository, keyof ListingRepository> {
  readonly calls: string[] = []
  readonly lots: Insertable<LotsTable>[] = []
  readonly mallItems: (Insertable<MallItemsTable> & { id: number })[] = []
  private nextMallItemId = 41

  constructor(private readonly specials: SpecialRow[]) {}

  insertSpecial(): Promise<number> {
    return Promise.resolve(this.specials.length + 1)
  }
  lockSpecial(_tx: Tx, id: number) {
    this.calls.push(`lock ${id}`)
    return Promise.resolve(this.specials.find((s) => s.id === id))
  }
  lastLotNo(_tx: Tx, specialId: number) {
    this.calls.push(`lastLotNo ${specialId}`)
    const nos = this.lots.filter((l) => l.special_id === specialId).map((l) => l.lot_no)
    return Promise.resolve(Math.max(0, ...nos))
  }
  insertLot(_tx: Tx, row: Insertable<LotsTable>) {
    this.lots.push(row)
    return Promise.resolve(100 + this.lots.length)
  }
  /** Category ids that exist, by tree. */
  readonly categories = { categories: [7], mall_categories: [12] }
  categoryExists(_tx: Tx, tree: 'categories' | 'mall_categories', id: number) {
    this.calls.push(`category ${tree} ${id}`)
    return Promise.resolve(this.categories[tree].includes(id))
  }
  reserveMallItemId() {
    return Promise.resolve(this.nextMallItemId++)
  }
  insertMallItem(_tx: Tx, row: Insertable<MallItemsTable> & { id: number }) {
    this.mallItems.push(row)
    return Promise.resolve()
  }
}

function setup(
  specials: SpecialRow[] = [buildSpecial()],
  steps: PriceStep[] = [...DEFAULT_PRICE_STEPS],
) {
  const listings = new FakeListings(specials)
  const transactions = { count: 0 }
  const transact: Transact = (work) => {
    transactions.count++
    return work({} as Tx)
  }
  const service = new ListingService({
    transact,
    clock: new FakeClock(NOW),
    listings,
    priceSteps: () => Promise.resolve(steps),
  })
  return { service, listings, transactions }
}

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(AppError)
  return error as AppError
}

describe('ListingService.addLot', () => {
  it("numbers a lot after the special's highest and staggers its end by that number", async () => {
    const s = setup([buildSpecial({ stagger_seconds: 20 })])
    const first = await s.service.addLot(buildLot())
    const second = await s.service.addLot(buildLot())
    expect([first.lotNo, second.lotNo]).toEqual([1, 2])
    expect(Date.parse(first.endsAt)).toBe(NOW + HOUR)
    expect(Date.parse(second.endsAt)).toBe(NOW + HOUR + 20_000)
    expect(s.listings.lots[1]).toMatchObject({ lot_no: 2, ends_at: NOW + HOUR + 20_000 })
  })

  it('reads the last lot number only after locking the special, in the same transaction', async () => {
    const s = setup()
    await s.service.addLot(buildLot())
    expect(s.listings.calls).toEqual(['lock 3', 'lastLotNo 3'])
    expect(s.transactions.count).toBe(1)
  })

  it('continues after a gap rather than reusing a number', async () => {
    const s = setup()
    await s.service.addLot(buildLot())
    // Lot 1 was renumbered 7 (say, after others were withdrawn).
    s.listings.lots[0]!.lot_no = 7
    expect((await s.service.addLot(buildLot())).lotNo).toBe(8)
  })

  it('refuses an off-grid price with the nearest valid amounts before any transaction', async () => {
    const s = setup()
    const error = await refusal(s.service.addLot(buildLot({ reservePrice: 10_500 })))
    expect(error.code).toBe('BID_OFF_GRID')
    expect(error.details).toEqual({ field: 'reservePrice', below: 10_000, above: 11_000 })
    expect(s.transactions.count).toBe(0)
  })

  it('checks prices against the increment table in force, which an operator may change', async () => {
    // Steps of 500 yuan from the start: 10,200 yuan is off that grid, though on the default one.
    const s = setup(undefined, [{ from: 0, step: 50_000 }])
    const error = await refusal(s.service.addLot(buildLot({ startPrice: 1_020_000 })))
    expect(error.details).toEqual({ field: 'startPrice', below: 1_000_000, above: 1_050_000 })
    expect((await s.service.addLot(buildLot({ startPrice: 1_000_000 }))).lotNo).toBe(1)
  })

  it('refuses an unknown special and inserts nothing', async () => {
    const s = setup()
    const error = await refusal(s.service.addLot(buildLot({ specialId: 99 })))
    expect(error.code).toBe('NOT_FOUND')
    expect(s.listings.lots).toEqual([])
  })

  it('files a lot under an auction category that exists, and refuses one that does not', async () => {
    const s = setup()
    await s.service.addLot(buildLot({ categoryId: 7 }))
    expect(s.listings.lots[0]).toMatchObject({ category_id: 7 })
    // 12 is a mall category, not an auction one.
    const error = await refusal(s.service.addLot(buildLot({ categoryId: 12 })))
    expect(error.code).toBe('VALIDATION_FAILED')
    expect(error.details).toEqual({
      fields: [{ field: 'body.categoryId', message: 'unknown: 12' }],
    })
    expect(s.listings.lots).toHaveLength(1)
  })
})

describe('ListingService.addMallItem', () => {
  it('derives the product number from the id the database reserved', async () => {
    const s = setup()
    const a = await s.service.addMallItem(buildMallItem())
    const b = await s.service.addMallItem(buildMallItem({ title: '另一件' }))
    expect(a).toEqual({ id: 41, productNo: productNoOf(41) })
    expect(b).toEqual({ id: 42, productNo: productNoOf(42) })
    expect(productNoOf(41)).toBe('M100041')
    expect(s.listings.mallItems.map((i) => [i.id, i.product_no])).toEqual([
      [41, 'M100041'],
      [42, 'M100042'],
    ])
  })

  it('files an item under a mall category that exists, and refuses one that does not', async () => {
    const s = setup()
    await s.service.addMallItem(buildMallItem({ categoryId: 12 }))
    expect(s.listings.mallItems[0]).toMatchObject({ category_id: 12 })
    const error = await refusal(s.service.addMallItem(buildMallItem({ categoryId: 7 })))
    expect(error.code).toBe('VALIDATION_FAILED')
    expect(error.details).toEqual({ fields: [{ field: 'body.categoryId', message: 'unknown: 7' }] })
    expect(s.listings.mallItems).toHaveLength(1)
  })
})
