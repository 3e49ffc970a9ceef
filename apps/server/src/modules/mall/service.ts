import type { MallWatchState, WatchedMallItem } from '@numisma/contracts/mall'
import type { Clock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import { toMallCard } from '../catalog/mappers'
import type { MallReads } from './reads-repository'
import type { MallWatchRepository } from './watch-repository'

export interface MallServiceDeps {
  clock: Clock
  watches: MallWatchRepository
  reads: MallReads
  /**
   * The units of an item the user holds in orders not cancelled: the orders module's figure, the
   * one its per-user limit counts (app.ts passes it in), so the page and the limit agree.
   */
  unitsHeld: (productNo: string, userId: number) => Promise<number>
}

/** A caller's own view of a mall item: their watch and the units they hold in its orders. */
export interface MallViewer {
  watched: boolean
  boughtByMe: number
}

/** Watching mall items (DESIGN §5) and what an item page shows its signed-in viewer. */
export class MallService {
  constructor(private readonly deps: MallServiceDeps) {}

  async watch(userId: number, productNo: string): Promise<MallWatchState> {
    const itemId = await this.requireItem(productNo)
    await this.deps.watches.watch(userId, itemId, this.deps.clock.now())
    return { productNo, watched: true }
  }

  async unwatch(userId: number, productNo: string): Promise<MallWatchState> {
    const itemId = await this.requireItem(productNo)
    await this.deps.watches.unwatch(userId, itemId)
    return { productNo, watched: false }
  }

  /** Newest watch first; items since taken off sale stay listed, marked so. */
  async watchedItems(userId: number): Promise<WatchedMallItem[]> {
    const rows = await this.deps.watches.watchedItems(userId)
    return rows.map((row) => ({
      ...toMallCard(row),
      onSale: row.on_sale === 1,
      watchedAt: new Date(row.watched_at).toISOString(),
    }))
  }

  /** How many mall items the user watches (the user centre adds it to the lots watched). */
  watchCount(userId: number): Promise<number> {
    return this.deps.watches.count(userId)
  }

  async viewerOf(productNo: string, userId: number): Promise<MallViewer> {
    const [watched, boughtByMe] = await Promise.all([
      this.deps.reads.watched(productNo, userId),
      this.deps.unitsHeld(productNo, userId),
    ])
    return { watched, boughtByMe }
  }

  private async requireItem(productNo: string): Promise<number> {
    const id = await this.deps.reads.itemIdOf(productNo)
    if (id === undefined) throw new AppError('NOT_FOUND', { productNo })
    return id
  }
}
