import type {
  Banner,
  Category,
  LotDetail,
  MallCategoryNode,
  MallItemDetail,
  SpecialDetail,
  SpecialSummary,
} from '@numisma/contracts/catalog'
import { categoryAncestry } from '@numisma/domain/category-tree'
import type { Clock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import { onCatalogueEdit } from '../../platform/read-cache'
import {
  parseImages,
  toLotCard,
  toLotDetail,
  toMallDetail,
  toSpecialSummary,
  type LotViewer,
} from './mappers'
import type { CatalogRepository, LotDetailRow, SpecialRow } from './repository'

/** A row without an English name yet (staff left it blank) is shown under its Chinese one. */
function englishOr(english: string, chinese: string): string {
  return english.trim() === '' ? chinese : english
}

/** Ended specials stay on the home list this long, so a collector sees what just sold. */
export const ENDED_SPECIAL_GRACE_MS = 60 * 60 * 1000

export class CatalogService {
  constructor(
    private readonly repo: CatalogRepository,
    private readonly clock: Clock,
  ) {}

  /** Staff edits of this database on this instance (read-cache.ts); returns the unsubscribe. */
  onEdit(listener: () => void): () => void {
    return onCatalogueEdit(this.repo.db, listener)
  }

  async categories(): Promise<Category[]> {
    const rows = await this.repo.listCategories()
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      nameEn: englishOr(r.name_en, r.name),
      icon: r.icon,
    }))
  }

  async mallCategoryTree(): Promise<MallCategoryNode[]> {
    const rows = await this.repo.listMallCategories()
    const nodes = new Map<number, MallCategoryNode>()
    for (const r of rows) {
      nodes.set(r.id, {
        id: r.id,
        name: r.name,
        nameEn: englishOr(r.name_en, r.name),
        children: [],
      })
    }
    const roots: MallCategoryNode[] = []
    for (const r of rows) {
      const node = nodes.get(r.id)!
      const parent = r.parent_id === null ? undefined : nodes.get(r.parent_id)
      if (parent) parent.children.push(node)
      else roots.push(node)
    }
    return roots
  }

  /**
   * A mall category and every category above it, nearest first (a coupon for 钱币 covers 古钱币):
   * one read of the small category table. Other modules get it passed in by app.ts.
   */
  async mallCategoryChain(categoryId: number | null): Promise<number[]> {
    if (categoryId === null) return []
    const rows = await this.repo.listMallCategories()
    return categoryAncestry(
      rows.map((r) => ({ id: r.id, parentId: r.parent_id })),
      categoryId,
    )
  }

  async banners(position: number): Promise<Banner[]> {
    const rows = await this.repo.listBanners(position, this.clock.now())
    return rows.map((r) => ({
      id: r.id,
      title: r.title,
      titleEn: englishOr(r.title_en, r.title),
      image: r.image,
      link: r.link,
    }))
  }

  async specials(): Promise<SpecialSummary[]> {
    return (await this.specialsView()).value
  }

  /** The home list and when it next changes by the clock alone (read-cache `validUntil`). */
  async specialsView(): Promise<Timed<SpecialSummary[]>> {
    const now = this.clock.now()
    const rows = await this.repo.listCurrentSpecials(now, ENDED_SPECIAL_GRACE_MS)
    const { summaries, changes } = await this.summarise(rows, now)
    const rank = { live: 0, preview: 1, ended: 2 } as const
    summaries.sort(
      (a, b) => rank[a.status] - rank[b.status] || Date.parse(a.endsAt) - Date.parse(b.endsAt),
    )
    // An ended special leaves the list when its grace is over.
    const leaves = rows.map((r) => r.ends_at + ENDED_SPECIAL_GRACE_MS)
    return { value: summaries, validUntil: nextAfter(now, [...changes, ...leaves]) }
  }

  async special(id: number): Promise<SpecialDetail> {
    return (await this.specialView(id)).value
  }

  async specialView(id: number): Promise<Timed<SpecialDetail>> {
    const now = this.clock.now()
    const row = await this.repo.findSpecial(id)
    if (!row) throw new AppError('NOT_FOUND', { specialId: id })
    const { summaries, changes } = await this.summarise([row], now)
    const lots = await this.repo.lotsOfSpecial(id)
    return {
      value: {
        ...summaries[0]!,
        description: row.description,
        staggerSeconds: row.stagger_seconds,
        softCloseWindowSeconds: row.soft_close_window_seconds,
        softCloseExtendSeconds: row.soft_close_extend_seconds,
        lots: lots.map((lot) => toLotCard(lot, now)),
      },
      validUntil: nextAfter(now, [...changes, ...lots.flatMap((l) => [l.starts_at, l.ends_at])]),
    }
  }

  async lot(id: number, viewer: LotViewer): Promise<LotDetail> {
    return toLotDetail(await this.lotRow(id), this.clock.now(), viewer)
  }

  /** A lot's row with its special's fields, for {@link toLotDetail}. */
  async lotRow(id: number): Promise<LotDetailRow> {
    const row = await this.repo.findLot(id)
    if (!row) throw new AppError('NOT_FOUND', { lotId: id })
    return row
  }

  async mallItem(
    productNo: string,
    viewer: { watched: boolean; boughtByMe: number },
  ): Promise<MallItemDetail> {
    const row = await this.repo.findMallItem(productNo)
    if (!row) throw new AppError('NOT_FOUND', { productNo })
    return toMallDetail(row, viewer)
  }

  /** Summaries, and the moments their statuses change (a special opening, its last lot closing). */
  private async summarise(
    rows: SpecialRow[],
    now: number,
  ): Promise<{ summaries: SpecialSummary[]; changes: number[] }> {
    const ids = rows.map((r) => r.id)
    const [aggregates, previews] = await Promise.all([
      this.repo.specialAggregates(ids),
      this.repo.previewImages(ids, 3),
    ])
    const changes: number[] = []
    const summaries = rows.map((row) => {
      const agg = aggregates.find((a) => a.special_id === row.id)
      const images = previews
        .filter((p) => p.special_id === row.id)
        .map((p) => parseImages(p.images)[0])
        .filter((img): img is string => img !== undefined)
      const lastEndsAt =
        agg?.last_ends_at === null || agg === undefined ? null : Number(agg.last_ends_at)
      changes.push(row.starts_at, Math.max(row.ends_at, lastEndsAt ?? 0))
      return toSpecialSummary(
        row,
        now,
        {
          lotCount: Number(agg?.lot_count ?? 0),
          bidCount: Number(agg?.bid_count ?? 0),
          lastEndsAt,
        },
        images,
      )
    })
    return { summaries, changes }
  }
}

/** A read with the moment it stops being right by the clock alone. */
export interface Timed<T> {
  value: T
  validUntil: number
}

/** The first of `moments` after `now` (Infinity when none is). */
export function nextAfter(now: number, moments: number[]): number {
  let next = Infinity
  for (const m of moments) if (m > now && m < next) next = m
  return next
}
