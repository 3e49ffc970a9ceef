import type { Database } from '../../platform/db'
import { transactor } from '../../platform/transactions'
import type {
  BannerInput,
  CategoryInput,
  MallCategoryInput,
  MallCategoryOrder,
  MallCategoryRename,
  StaffBanner,
  StaffCategory,
  StaffMallCategory,
} from '@numisma/contracts/staff-settings'
import type { Clock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import type { Transact } from '../../platform/transactions'
import { type BannerRow, type CategoryRow, SettingsRepository } from './settings-repository'

export interface CatalogSettingsDeps {
  transact: Transact
  clock: Clock
  repo: Pick<SettingsRepository, keyof SettingsRepository>
}

/** What an edit changed, for the audit log. */
export interface Change<T> {
  before: T
  after: T
}

const iso = (ms: number): string => new Date(ms).toISOString()

function toBanner(row: BannerRow, now: number): StaffBanner {
  return {
    id: row.id,
    position: row.position,
    title: row.title,
    titleEn: row.title_en,
    image: row.image,
    link: row.link,
    sort: row.sort,
    activeFrom: iso(row.active_from),
    activeUntil: row.active_until === null ? null : iso(row.active_until),
    // The same rule as the shop's list (CatalogRepository.listBanners).
    live: row.active_from <= now && (row.active_until === null || row.active_until > now),
  }
}

function bannerRow(input: BannerInput) {
  return {
    position: input.position,
    title: input.title,
    title_en: input.titleEn,
    image: input.image,
    link: input.link,
    sort: input.sort,
    active_from: Date.parse(input.activeFrom),
    active_until: input.activeUntil === null ? null : Date.parse(input.activeUntil),
  }
}

function toCategory(row: CategoryRow): StaffCategory {
  return {
    id: row.id,
    name: row.name,
    nameEn: row.name_en,
    icon: row.icon,
    sort: row.sort,
    lots: Number(row.lots),
  }
}

/** The ids of a list must be exactly the ones there are, each once, or someone changed them. */
function requireSameSet(given: readonly number[], existing: readonly number[]): void {
  const wanted = new Set(given)
  if (
    wanted.size !== given.length ||
    wanted.size !== existing.length ||
    existing.some((id) => !wanted.has(id))
  ) {
    throw new AppError('CATEGORY_ORDER_STALE', { given, existing })
  }
}

/**
 * The catalogue's settings (issue 12, cataloguers): auction categories, the mall's category tree
 * and the home banners. A category is deleted only while nothing is filed under it.
 */
export class CatalogSettingsService {
  constructor(private readonly deps: CatalogSettingsDeps) {}

  static forDatabase(database: Database, clock: Clock): CatalogSettingsService {
    return new CatalogSettingsService({
      transact: transactor(database),
      clock,
      repo: new SettingsRepository(database.db, database.dialect),
    })
  }

  // Auction categories.

  async categories(): Promise<StaffCategory[]> {
    return (await this.deps.repo.categories()).map(toCategory)
  }

  async createCategory(input: CategoryInput): Promise<{ id: number }> {
    const { repo } = this.deps
    const id = await this.deps.transact(async (tx) => {
      await repo.lockCategories(tx)
      const rows = await repo.categories(tx)
      const sort = Math.max(0, ...rows.map((r) => r.sort)) + 1
      return repo.insertCategory(tx, {
        name: input.name,
        name_en: input.nameEn,
        icon: input.icon,
        sort,
      })
    })
    return { id }
  }

  async updateCategory(id: number, input: CategoryInput): Promise<Change<StaffCategory>> {
    const { repo } = this.deps
    return this.deps.transact(async (tx) => {
      const row = await repo.lockCategory(tx, id)
      if (!row) throw new AppError('NOT_FOUND', { id })
      await repo.updateCategory(tx, id, {
        name: input.name,
        name_en: input.nameEn,
        icon: input.icon,
      })
      const before = toCategory(row)
      return {
        before,
        after: { ...before, name: input.name, nameEn: input.nameEn, icon: input.icon },
      }
    })
  }

  async orderCategories(ids: readonly number[]): Promise<Change<number[]>> {
    const { repo } = this.deps
    return this.deps.transact(async (tx) => {
      await repo.lockCategories(tx)
      const before = (await repo.categories(tx)).map((r) => r.id)
      requireSameSet(ids, before)
      for (const [index, id] of ids.entries())
        await repo.updateCategory(tx, id, { sort: index + 1 })
      return { before, after: [...ids] }
    })
  }

  /** Only while no lot is filed under it: CATEGORY_IN_USE otherwise. */
  async deleteCategory(id: number): Promise<StaffCategory> {
    const { repo } = this.deps
    return this.deps.transact(async (tx) => {
      const row = await repo.lockCategory(tx, id)
      if (!row) throw new AppError('NOT_FOUND', { id })
      const lots = Number(row.lots)
      if (lots > 0) throw new AppError('CATEGORY_IN_USE', { lots })
      await repo.deleteCategory(tx, id)
      return toCategory(row)
    })
  }

  // Mall categories.

  async mallCategories(): Promise<StaffMallCategory[]> {
    return (await this.deps.repo.mallCategories()).map((r) => ({
      id: r.id,
      parentId: r.parent_id,
      name: r.name,
      nameEn: r.name_en,
      sort: r.sort,
      items: Number(r.items),
    }))
  }

  async createMallCategory(input: MallCategoryInput): Promise<{ id: number }> {
    const { repo } = this.deps
    const id = await this.deps.transact(async (tx) => {
      await repo.lockMallCategories(tx)
      const rows = await repo.mallCategories(tx)
      if (input.parentId !== null && !rows.some((r) => r.id === input.parentId)) {
        throw new AppError('VALIDATION_FAILED', {
          fields: [{ field: 'body.parentId', message: `unknown: ${input.parentId}` }],
        })
      }
      const siblings = rows.filter((r) => r.parent_id === input.parentId)
      return repo.insertMallCategory(tx, {
        parent_id: input.parentId,
        name: input.name,
        name_en: input.nameEn,
        sort: Math.max(0, ...siblings.map((r) => r.sort)) + 1,
      })
    })
    return { id }
  }

  async renameMallCategory(
    id: number,
    input: MallCategoryRename,
  ): Promise<Change<StaffMallCategory>> {
    const { repo } = this.deps
    return this.deps.transact(async (tx) => {
      const row = await repo.lockMallCategory(tx, id)
      if (!row) throw new AppError('NOT_FOUND', { id })
      await repo.updateMallCategory(tx, id, { name: input.name, name_en: input.nameEn })
      const before: StaffMallCategory = {
        id,
        parentId: row.parent_id,
        name: row.name,
        nameEn: row.name_en,
        sort: row.sort,
        items: Number(row.items),
      }
      return { before, after: { ...before, name: input.name, nameEn: input.nameEn } }
    })
  }

  async orderMallCategories(input: MallCategoryOrder): Promise<Change<number[]>> {
    const { repo } = this.deps
    return this.deps.transact(async (tx) => {
      await repo.lockMallCategories(tx)
      const siblings = (await repo.mallCategories(tx)).filter((r) => r.parent_id === input.parentId)
      const before = siblings.map((r) => r.id)
      requireSameSet(input.ids, before)
      for (const [index, id] of input.ids.entries()) {
        await repo.updateMallCategory(tx, id, { sort: index + 1 })
      }
      return { before, after: [...input.ids] }
    })
  }

  /**
   * Only while no item, sub-category or coupon names it (a coupon for a category that is gone
   * would quietly cover nothing): CATEGORY_IN_USE with the counts otherwise.
   */
  async deleteMallCategory(id: number): Promise<StaffMallCategory> {
    const { repo } = this.deps
    return this.deps.transact(async (tx) => {
      const row = await repo.lockMallCategory(tx, id)
      if (!row) throw new AppError('NOT_FOUND', { id })
      const coupons = (await repo.couponCategoryLists(tx)).filter((c) =>
        parseIds(c.category_ids).includes(id),
      ).length
      const items = Number(row.items)
      const children = Number(row.children)
      if (items + children + coupons > 0) {
        throw new AppError('CATEGORY_IN_USE', { items, children, coupons })
      }
      await repo.deleteMallCategory(tx, id)
      return {
        id,
        parentId: row.parent_id,
        name: row.name,
        nameEn: row.name_en,
        sort: row.sort,
        items,
      }
    })
  }

  // Banners.

  async banners(): Promise<StaffBanner[]> {
    const now = this.deps.clock.now()
    return (await this.deps.repo.banners()).map((r) => toBanner(r, now))
  }

  async createBanner(input: BannerInput): Promise<{ id: number }> {
    const id = await this.deps.transact((tx) => this.deps.repo.insertBanner(tx, bannerRow(input)))
    return { id }
  }

  async updateBanner(id: number, input: BannerInput): Promise<Change<StaffBanner>> {
    const { repo } = this.deps
    return this.deps.transact(async (tx) => {
      const row = await repo.findBanner(tx, id)
      if (!row) throw new AppError('NOT_FOUND', { id })
      await repo.updateBanner(tx, id, bannerRow(input))
      const after = await repo.findBanner(tx, id)
      const now = this.deps.clock.now()
      return { before: toBanner(row, now), after: toBanner(after!, now) }
    })
  }

  async deleteBanner(id: number): Promise<StaffBanner> {
    const { repo } = this.deps
    return this.deps.transact(async (tx) => {
      const row = await repo.findBanner(tx, id)
      if (!row) throw new AppError('NOT_FOUND', { id })
      await repo.deleteBanner(tx, id)
      return toBanner(row, this.deps.clock.now())
    })
  }
}

function parseIds(json: string): number[] {
  try {
    const value: unknown = JSON.parse(json)
    return Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number') : []
  } catch {
    return []
  }
}
