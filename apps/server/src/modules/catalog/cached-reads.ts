import type { Clock } from '../../platform/clock'
import {
  ANY_LOT_TAG,
  lotTag,
  PreparedBody,
  ReadCache,
  type Filled,
} from '../../platform/read-cache'
import { nextAfter, type CatalogService } from './service'
import { toLotDetail, type LotViewer } from './mappers'
import type { LotDetailRow } from './repository'

/**
 * How long a cached lot, special or home list may stand without a lot event (ADR 033). Bids and
 * closes invalidate at once on every instance through the bus, and this instance's staff edits
 * clear it at once; this bounds what nothing announces — another instance's staff edit, a relist, a
 * photo. Long enough that a lot read a few times a second is mostly served from memory.
 */
export const CATALOGUE_TTL_MS = 5_000
/** Categories, the category tree and banners: staff-set, read on every home page. */
export const SETTINGS_TTL_MS = 10_000

const ANONYMOUS: LotViewer = { userId: null, myMax: null, orderId: null }

interface CachedLot {
  row: LotDetailRow
  /** The anonymous caller's page, serialised once. */
  body: PreparedBody
}

/**
 * The catalogue's public reads, serialised once and kept (issue 14 item 6). The route decides who
 * gets the shared body: a signed-in caller's lot page adds their own fields to the cached row.
 */
export class CatalogReads {
  private readonly live: ReadCache<PreparedBody>
  private readonly settings: ReadCache<PreparedBody>
  private readonly lots: ReadCache<CachedLot>

  constructor(
    private readonly service: CatalogService,
    private readonly clock: Clock,
  ) {
    this.live = new ReadCache({ clock, ttlMs: CATALOGUE_TTL_MS })
    this.settings = new ReadCache({ clock, ttlMs: SETTINGS_TTL_MS })
    this.lots = new ReadCache({ clock, ttlMs: CATALOGUE_TTL_MS, maxEntries: 10_000 })
  }

  /** A lot's state changed (a bid, a soft-close extension, a close): drop all that shows it. */
  lotChanged(lotId: number): void {
    for (const tag of [lotTag(lotId), ANY_LOT_TAG]) {
      this.live.invalidate(tag)
      this.lots.invalidate(tag)
    }
  }

  /** Everything, at once (this instance's staff edits; tests). */
  clear(): void {
    this.live.clear()
    this.settings.clear()
    this.lots.clear()
  }

  categories(): Promise<PreparedBody> {
    return this.settings.get('categories', async () => untimed(await this.service.categories()))
  }

  mallCategoryTree(): Promise<PreparedBody> {
    return this.settings.get('mall-tree', async () =>
      untimed(await this.service.mallCategoryTree()),
    )
  }

  banners(position: number): Promise<PreparedBody> {
    return this.settings.get(`banners:${position}`, async () =>
      untimed(await this.service.banners(position)),
    )
  }

  specials(): Promise<PreparedBody> {
    return this.live.get('specials', async () => {
      const { value, validUntil } = await this.service.specialsView()
      // Bid counts add up over every lot.
      return { value: PreparedBody.of({ data: value }), tags: [ANY_LOT_TAG], validUntil }
    })
  }

  special(id: number): Promise<PreparedBody> {
    return this.live.get(`special:${id}`, async () => {
      const { value, validUntil } = await this.service.specialView(id)
      return {
        value: PreparedBody.of({ data: value }),
        tags: value.lots.map((l) => lotTag(l.id)),
        validUntil,
      }
    })
  }

  /** The anonymous page of a lot. */
  async lot(id: number): Promise<PreparedBody> {
    return (await this.cachedLot(id)).body
  }

  /** A signed-in caller's page of a lot: the cached row with their stake. */
  async lotFor(id: number, viewer: LotViewer) {
    return toLotDetail((await this.cachedLot(id)).row, this.clock.now(), viewer)
  }

  private cachedLot(id: number): Promise<CachedLot> {
    return this.lots.get(`lot:${id}`, async (): Promise<Filled<CachedLot>> => {
      const row = await this.service.lotRow(id)
      const now = this.clock.now()
      return {
        value: { row, body: PreparedBody.of({ data: toLotDetail(row, now, ANONYMOUS) }) },
        tags: [lotTag(id)],
        validUntil: nextAfter(now, [row.starts_at, row.ends_at]),
      }
    })
  }
}

function untimed(data: unknown): Filled<PreparedBody> {
  return { value: PreparedBody.of({ data }), tags: [] }
}
