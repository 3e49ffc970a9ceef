import { describe, expect, it, vi } from 'vitest'
import { FakeClock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import type { Selectable } from 'kysely'
import type { MallItemsTable } from '../../platform/schema'
import type { MallReads } from './reads-repository'
import { MallService } from './service'
import type { MallWatchRepository } from './watch-repository'

/** MallService with fake repositories: the watch use cases run without a database. */
const NOW = Date.UTC(2026, 10, 24, 2, 0, 0)

type MallItemRow = Selectable<MallItemsTable>

const buildItemRow = (overrides: Partial<MallItemRow> = {}): MallItemRow => ({
  id: 7,
  product_no: 'M100007',
  category_id: 3,
  title: '熊猫银币1盎司',
  subtitle: '',
  description: '',
  images: '["/svc/media/art/a.svg","/svc/media/art/b.svg"]',
  grade_code: 0,
  grading_service: null,
  cert_no: null,
  year: '2015',
  denomination: '10元',
  material: '银',
  export_banned: 0,
  price: 30_000,
  stock: 4,
  sold: 2,
  limit_per_user: null,
  on_sale: 1,
  created_at: NOW - 86_400_000,
  ...overrides,
})

function setup(items: Record<string, number> = { M100007: 7 }) {
  const watches = {
    watch: vi.fn(() => Promise.resolve()),
    unwatch: vi.fn(() => Promise.resolve()),
    watchedItems: vi.fn(() => Promise.resolve([] as (MallItemRow & { watched_at: number })[])),
  }
  const reads = {
    itemIdOf: vi.fn((productNo: string) => Promise.resolve(items[productNo])),
    watched: vi.fn(() => Promise.resolve(true)),
  }
  const unitsHeld = vi.fn(() => Promise.resolve(3))
  const service = new MallService({
    clock: new FakeClock(NOW),
    watches: watches as unknown as MallWatchRepository,
    reads: reads as unknown as MallReads,
    unitsHeld,
  })
  return { service, watches, reads, unitsHeld }
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (error instanceof AppError ? error.code : 'other'),
  )

describe('MallService', () => {
  it('watches an item by its product number at the clock’s time', async () => {
    const { service, watches } = setup()
    expect(await service.watch(42, 'M100007')).toEqual({ productNo: 'M100007', watched: true })
    expect(watches.watch).toHaveBeenCalledWith(42, 7, NOW)
  })

  it('refuses an unknown product number with NOT_FOUND and writes nothing', async () => {
    const { service, watches } = setup()
    expect(await codeOf(service.watch(42, 'M999999'))).toBe('NOT_FOUND')
    expect(await codeOf(service.unwatch(42, 'M999999'))).toBe('NOT_FOUND')
    expect(watches.watch).not.toHaveBeenCalled()
    expect(watches.unwatch).not.toHaveBeenCalled()
  })

  it('unwatches and says so', async () => {
    const { service, watches } = setup()
    expect(await service.unwatch(42, 'M100007')).toEqual({ productNo: 'M100007', watched: false })
    expect(watches.unwatch).toHaveBeenCalledWith(42, 7)
  })

  it('lists watched items as cards with their sale state and watch time', async () => {
    const { service, watches } = setup()
    watches.watchedItems.mockResolvedValue([
      { ...buildItemRow({ id: 8, product_no: 'M100008', on_sale: 0 }), watched_at: NOW - 1_000 },
      { ...buildItemRow(), watched_at: NOW - 60_000 },
    ])
    const list = await service.watchedItems(42)
    expect(watches.watchedItems).toHaveBeenCalledWith(42)
    expect(list.map((i) => [i.productNo, i.onSale, i.watchedAt])).toEqual([
      ['M100008', false, new Date(NOW - 1_000).toISOString()],
      ['M100007', true, new Date(NOW - 60_000).toISOString()],
    ])
    expect(list[1]).toMatchObject({
      title: '熊猫银币1盎司',
      image: '/svc/media/art/a.svg',
      price: 30_000,
      stock: 4,
      sold: 2,
    })
  })

  it('gives an item page its viewer: the watch, and the units held as the orders module counts them', async () => {
    const { service, reads, unitsHeld } = setup()
    expect(await service.viewerOf('M100007', 42)).toEqual({ watched: true, boughtByMe: 3 })
    expect(reads.watched).toHaveBeenCalledWith('M100007', 42)
    expect(unitsHeld).toHaveBeenCalledWith('M100007', 42)
  })
})
