import type { LotCard, MallItemCard, SearchQuery } from '@numisma/contracts/catalog'
import { categoryDescendants } from '@numisma/domain/category-tree'
import type { Clock } from '../../platform/clock'
import { PreparedBody, ReadCache, type LotEvent } from '../../platform/read-cache'
import { lotStatusOf, toLotCard, toMallCard } from '../catalog/mappers'
import type { Selectable } from 'kysely'
import type { LotsTable, MallCategoriesTable, MallItemsTable } from '../../platform/schema'
import { SearchIndex } from './search-index'

type LotRow = Selectable<LotsTable>
type MallItemRow = Selectable<MallItemsTable>

/** Where the index comes from: every lot and mall item (app.ts passes the catalogue's reads). */
export interface SearchSource {
  allLots(): Promise<LotRow[]>
  allMallItems(): Promise<MallItemRow[]>
  listMallCategories(): Promise<Pick<Selectable<MallCategoriesTable>, 'id' | 'parent_id'>[]>
}

export interface SearchPage<T> {
  data: T[]
  page: number
  pageSize: number
  total: number
}

/**
 * How stale the index may get: new lots, staff edits and mall stock show up in lists within this
 * time. Bids do at once: their lot events patch the snapshot (see {@link SearchService.lotChanged}).
 */
export const INDEX_TTL_MS = 2_000

interface Snapshot {
  loadedAt: number
  lots: LotRow[]
  lotById: Map<number, LotRow>
  mall: MallItemRow[]
  lotIndex: SearchIndex
  mallIndex: SearchIndex
  /** A mall category and everything under it: a parent's "全部" lists its children's items. */
  mallSubtree: Map<number, Set<number>>
}

const itemBody = (row: LotRow | MallItemRow): string =>
  [
    row.subtitle,
    row.description,
    row.year,
    row.denomination,
    row.material,
    row.grading_service ?? '',
    row.cert_no ?? '',
  ].join(' ')

/**
 * The search role (`/svc/search`): the buying list and the mall list with keyword search,
 * filters, sorting and paging. Each instance keeps its own snapshot of the catalogue and reloads it
 * when older than INDEX_TTL_MS, so several instances need no coordination.
 */
export class SearchService {
  private snapshot: Snapshot | undefined
  private loading: Promise<Snapshot> | undefined
  /** Lot events of the last while, laid over a snapshot whose load may have read before them. */
  private readonly recent = new Map<number, { event: LotEvent; at: number }>()
  /** Answered pages, serialised, per snapshot and query (ADR 033). */
  private readonly pages: ReadCache<PreparedBody>

  constructor(
    private readonly repo: SearchSource,
    private readonly clock: Clock,
  ) {
    this.pages = new ReadCache({ clock, ttlMs: INDEX_TTL_MS, maxEntries: 1_000 })
  }

  async search(query: SearchQuery): Promise<SearchPage<LotCard> | SearchPage<MallItemCard>> {
    const snap = await this.fresh()
    return query.type === 'mall' ? this.searchMall(snap, query) : this.searchLots(snap, query)
  }

  /** {@link search}, serialised once per snapshot and query until a lot changes. */
  async searchPrepared(query: SearchQuery): Promise<PreparedBody> {
    const snap = await this.fresh()
    return this.pages.get(`${snap.loadedAt}|${JSON.stringify(query)}`, () => {
      const now = this.clock.now()
      const page =
        query.type === 'mall' ? this.searchMall(snap, query) : this.searchLots(snap, query)
      // A lot opening or closing moves it between the status filters.
      let validUntil = Infinity
      if (query.type !== 'mall') {
        for (const row of snap.lots) {
          if (row.starts_at > now && row.starts_at < validUntil) validUntil = row.starts_at
          if (row.ends_at > now && row.ends_at < validUntil) validUntil = row.ends_at
        }
      }
      return Promise.resolve({ value: PreparedBody.of(page), tags: ['lots'], validUntil })
    })
  }

  /**
   * A lot event (a bid, an extension, a close) from the bus: the snapshot takes its price, bid
   * count and end at once, so no list shows a price older than a push the page already had; the
   * next reload brings the rest. Bid counts only grow, so an older event never undoes a newer one.
   */
  lotChanged(event: LotEvent): void {
    const now = this.clock.now()
    this.recent.set(event.lotId, { event, at: now })
    for (const [id, r] of this.recent) if (now - r.at > 2 * INDEX_TTL_MS) this.recent.delete(id)
    if (this.snapshot) apply(this.snapshot, event)
    this.pages.invalidate('lots')
  }

  private searchLots(snap: Snapshot, q: SearchQuery): SearchPage<LotCard> {
    const now = this.clock.now()
    const relevance = q.keyword ? snap.lotIndex.search(q.keyword) : undefined
    const rows = snap.lots.filter((row) => {
      if (relevance && !relevance.has(row.id)) return false
      if (q.categoryId !== undefined && row.category_id !== q.categoryId) return false
      if (q.specialId !== undefined && row.special_id !== q.specialId) return false
      if (q.grade !== undefined && row.grade_code !== q.grade) return false
      if (q.gradingService !== undefined && row.grading_service !== q.gradingService) return false
      const price = row.price ?? row.start_price
      if (q.minPrice !== undefined && price < q.minPrice) return false
      if (q.maxPrice !== undefined && price > q.maxPrice) return false
      const status = lotStatusOf(row, now)
      switch (q.status) {
        case 'live':
          return status === 'live'
        case 'preview':
          return status === 'preview'
        case 'ended':
          return status === 'sold' || status === 'unsold'
        case 'all':
          return true
      }
    })
    const price = (r: LotRow) => r.price ?? r.start_price
    const sort = q.sort ?? (relevance ? undefined : 'ending')
    rows.sort((a, b) => {
      switch (sort) {
        case 'ending':
          return a.ends_at - b.ends_at || a.id - b.id
        case 'price_asc':
          return price(a) - price(b) || a.id - b.id
        case 'price_desc':
          return price(b) - price(a) || a.id - b.id
        case 'newest':
          return b.created_at - a.created_at || b.id - a.id
        case 'bids':
          return b.bid_count - a.bid_count || a.ends_at - b.ends_at
        case undefined:
          return relevance!.get(b.id)! - relevance!.get(a.id)! || a.ends_at - b.ends_at
      }
    })
    return paginate(rows, q, (row) => toLotCard(row, now))
  }

  private searchMall(snap: Snapshot, q: SearchQuery): SearchPage<MallItemCard> {
    const relevance = q.keyword ? snap.mallIndex.search(q.keyword) : undefined
    const categories =
      q.categoryId === undefined
        ? undefined
        : (snap.mallSubtree.get(q.categoryId) ?? new Set([q.categoryId]))
    const rows = snap.mall.filter((row) => {
      if (row.on_sale !== 1) return false
      if (relevance && !relevance.has(row.id)) return false
      if (categories && (row.category_id === null || !categories.has(row.category_id))) {
        return false
      }
      if (q.grade !== undefined && row.grade_code !== q.grade) return false
      if (q.gradingService !== undefined && row.grading_service !== q.gradingService) return false
      if (q.minPrice !== undefined && row.price < q.minPrice) return false
      if (q.maxPrice !== undefined && row.price > q.maxPrice) return false
      return true
    })
    const sort = q.sort ?? (relevance ? undefined : 'newest')
    rows.sort((a, b) => {
      switch (sort) {
        case 'price_asc':
          return a.price - b.price || a.id - b.id
        case 'price_desc':
          return b.price - a.price || a.id - b.id
        case 'bids':
          return b.sold - a.sold || a.id - b.id
        case 'ending':
        case 'newest':
          return b.created_at - a.created_at || b.id - a.id
        case undefined:
          return relevance!.get(b.id)! - relevance!.get(a.id)! || b.id - a.id
      }
    })
    return paginate(rows, q, toMallCard)
  }

  private async fresh(): Promise<Snapshot> {
    const now = this.clock.now()
    if (this.snapshot && now - this.snapshot.loadedAt < INDEX_TTL_MS) return this.snapshot
    this.loading ??= this.load(now).then(
      (snap) => {
        // Events heard since the load began may postdate what it read.
        for (const r of this.recent.values()) if (r.at >= now) apply(snap, r.event)
        this.loading = undefined
        return snap
      },
      (error: unknown) => {
        this.loading = undefined
        throw error
      },
    )
    this.snapshot = await this.loading
    return this.snapshot
  }

  private async load(now: number): Promise<Snapshot> {
    const [lots, mall, mallCategories] = await Promise.all([
      this.repo.allLots(),
      this.repo.allMallItems(),
      this.repo.listMallCategories(),
    ])
    return {
      loadedAt: now,
      lots,
      lotById: new Map(lots.map((r) => [r.id, r])),
      mall,
      mallSubtree: categoryDescendants(
        mallCategories.map((c) => ({ id: c.id, parentId: c.parent_id })),
      ),
      lotIndex: new SearchIndex(lots.map((r) => ({ id: r.id, title: r.title, body: itemBody(r) }))),
      mallIndex: new SearchIndex(
        mall.map((r) => ({ id: r.id, title: r.title, body: itemBody(r) })),
      ),
    }
  }
}

function apply(snap: Snapshot, event: LotEvent): void {
  const row = snap.lotById.get(event.lotId)
  if (!row || event.bidCount < row.bid_count) return
  row.price = event.price
  row.bid_count = event.bidCount
  row.ends_at = Date.parse(event.endsAt)
  if (event.status === 'sold' || event.status === 'unsold') row.status = event.status
}

function paginate<R, T>(rows: R[], q: SearchQuery, map: (row: R) => T): SearchPage<T> {
  const start = (q.page - 1) * q.pageSize
  return {
    data: rows.slice(start, start + q.pageSize).map(map),
    page: q.page,
    pageSize: q.pageSize,
    total: rows.length,
  }
}
