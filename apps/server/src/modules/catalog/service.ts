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
import {
  parseImages,
  toLotCard,
  toLotDetail,
  toMallDetail,
  toSpecialSummary,
  type LotViewer,
} from './mappers'
import type { CatalogRepository, SpecialRow } from './repository'

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
    const now = this.clock.now()
    const rows = await this.repo.listCurrentSpecials(now, ENDED_SPECIAL_GRACE_MS)
    const summaries = await this.summarise(rows, now)
    const rank = { live: 0, preview: 1, ended: 2 } as const
    return summaries.sort(
      (a, b) => rank[a.status] - rank[b.status] || Date.parse(a.endsAt) - Date.parse(b.endsAt),
    )
  }

  async special(id: number): Promise<SpecialDetail> {
    const now = this.clock.now()
    const row = await this.repo.findSpecial(id)
    if (!row) throw new AppError('NOT_FOUND', { specialId: id })
    const [summary] = await this.summarise([row], now)
    const lots = await this.repo.lotsOfSpecial(id)
    return {
      ...summary!,
      description: row.description,
      staggerSeconds: row.stagger_seconds,
      softCloseWindowSeconds: row.soft_close_window_seconds,
      softCloseExtendSeconds: row.soft_close_extend_seconds,
      lots: lots.map((lot) => toLotCard(lot, now)),
    }
  }

  async lot(id: number, viewer: LotViewer): Promise<LotDetail> {
    const row = await this.repo.findLot(id)
    if (!row) throw new AppError('NOT_FOUND', { lotId: id })
    return toLotDetail(row, this.clock.now(), viewer)
  }

  async mallItem(
    productNo: string,
    viewer: { watched: boolean; boughtByMe: number },
  ): Promise<MallItemDetail> {
    const row = await this.repo.findMallItem(productNo)
    if (!row) throw new AppError('NOT_FOUND', { productNo })
    return toMallDetail(row, viewer)
  }

  private async summarise(rows: SpecialRow[], now: number): Promise<SpecialSummary[]> {
    const ids = rows.map((r) => r.id)
    const [aggregates, previews] = await Promise.all([
      this.repo.specialAggregates(ids),
      this.repo.previewImages(ids, 3),
    ])
    return rows.map((row) => {
      const agg = aggregates.find((a) => a.special_id === row.id)
      const images = previews
        .filter((p) => p.special_id === row.id)
        .map((p) => parseImages(p.images)[0])
        .filter((img): img is string => img !== undefined)
      return toSpecialSummary(
        row,
        now,
        {
          lotCount: Number(agg?.lot_count ?? 0),
          bidCount: Number(agg?.bid_count ?? 0),
          lastEndsAt:
            agg?.last_ends_at === null || agg === undefined ? null : Number(agg.last_ends_at),
        },
        images,
      )
    })
  }
}
