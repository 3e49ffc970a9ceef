import type { LotCreate, LotCreated } from '@numisma/contracts/staff'
import {
  type LotImport,
  type LotImportResult,
  type LotUpdate,
  SPECIAL_TIME_FIELDS,
  type SpecialUpdate,
  type StaffLot,
  type StaffSpecial,
  type StaffSpecialDetail,
  type StaffSpecialPage,
  type StaffSpecialsQuery,
} from '@numisma/contracts/staff-catalogue'
import type { PriceStep } from '@numisma/domain/increments'
import type { Updateable } from 'kysely'
import { announceCatalogueEdit } from '../../platform/read-cache'
import type { Clock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import type { LotsTable, SpecialsTable } from '../../platform/schema'
import type { Database } from '../../platform/db'
import { type Transact, transactor } from '../../platform/transactions'
import { checkLotPrices, ListingService } from './listing-service'
import { ListingRepository } from './listing-repository'
import { checkLotImport } from './lot-import'
import { lotStatusOf, parseImages } from './mappers'
import type { LotRow } from './repository'
import { type SpecialWithTotals, StaffCatalogueRepository } from './staff-catalogue-repository'

const iso = (ms: number): string => new Date(ms).toISOString()

export function toStaffSpecial(row: SpecialWithTotals, now: number): StaffSpecial {
  return {
    id: row.id,
    title: row.title,
    subtitle: row.subtitle,
    description: row.description,
    cover: row.cover,
    startsAt: iso(row.starts_at),
    endsAt: iso(row.ends_at),
    lastEndsAt: iso(row.over_at),
    staggerSeconds: row.stagger_seconds,
    softCloseWindowSeconds: row.soft_close_window_seconds,
    softCloseExtendSeconds: row.soft_close_extend_seconds,
    status: now < row.starts_at ? 'preview' : now < row.over_at ? 'live' : 'ended',
    acceptsLots: now < row.ends_at,
    lotCount: row.lot_count,
    bidCount: row.bid_count,
    createdAt: iso(row.created_at),
  }
}

/** Whether the console may still change a lot: nobody has bid, and it has not closed. */
export function lotEditable(row: LotRow, now: number): boolean {
  const status = lotStatusOf(row, now)
  return row.status === 'open' && row.bid_count === 0 && (status === 'preview' || status === 'live')
}

export function toStaffLot(row: LotRow, now: number): StaffLot {
  return {
    id: row.id,
    specialId: row.special_id,
    lotNo: row.lot_no,
    title: row.title,
    subtitle: row.subtitle,
    description: row.description,
    images: parseImages(row.images),
    categoryId: row.category_id,
    gradeCode: row.grade_code,
    gradingService: row.grading_service,
    certNo: row.cert_no,
    startPrice: row.start_price,
    reservePrice: row.reserve_price,
    exportBanned: row.export_banned === 1,
    status: lotStatusOf(row, now),
    price: row.price,
    bidCount: row.bid_count,
    startsAt: iso(row.starts_at),
    endsAt: iso(row.ends_at),
    editable: lotEditable(row, now),
  }
}

export interface StaffCatalogueDeps {
  transact: Transact
  clock: Clock
  repo: Pick<StaffCatalogueRepository, keyof StaffCatalogueRepository>
  listings: Pick<ListingRepository, 'lockSpecial' | 'categoryExists'>
  /** The increment table (bidding's), as for a new lot. */
  priceSteps: () => Promise<PriceStep[]>
  /** ListingService.addLots: the special's next lots, numbered and staggered, all or none. */
  addLots: (specialId: number, drafts: Omit<LotCreate, 'specialId'>[]) => Promise<LotCreated[]>
  /** Hosts whose https pictures an import may name besides our own media (IMAGE_URL_HOSTS). */
  imageHosts?: readonly string[]
}

/** A change and what it changed, for the audit log. */
export interface Changed<T> {
  before: T
  after: T
}

const isForeignKeyError = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  (('code' in error && (error.code === '23503' || error.code === 'SQLITE_CONSTRAINT_FOREIGNKEY')) ||
    (error instanceof Error && /FOREIGN KEY constraint failed/.test(error.message)))

/**
 * The console's catalogue (issue 12, role cataloguer): specials and lots as staff see them, their
 * edits while the sale has not moved past them, withdrawals before a special starts, and the bulk
 * lot import.
 */
export class StaffCatalogueService {
  /** Tells the shop's read caches over the same database of an edit (ADR 033); set by forDatabase. */
  announceEdit: () => void = () => undefined

  constructor(private readonly deps: StaffCatalogueDeps) {}

  /** The service over the database, judging prices by `priceSteps` (bidding's table). */
  static forDatabase(
    database: Database,
    clock: Clock,
    priceSteps: () => Promise<PriceStep[]>,
    imageHosts: readonly string[] = [],
  ): StaffCatalogueService {
    const listings = new ListingRepository(database.dialect)
    const listing = new ListingService({
      transact: transactor(database),
      clock,
      listings,
      priceSteps,
    })
    const service = new StaffCatalogueService({
      transact: transactor(database),
      clock,
      repo: new StaffCatalogueRepository(database.db, database.dialect),
      listings,
      priceSteps,
      addLots: (specialId, drafts) => listing.addLots(specialId, drafts),
      imageHosts,
    })
    service.announceEdit = () => announceCatalogueEdit(database.db)
    return service
  }

  async specials(query: StaffSpecialsQuery): Promise<StaffSpecialPage> {
    const now = this.deps.clock.now()
    const { rows, total } = await this.deps.repo.listSpecials(query, now)
    return {
      items: rows.map((row) => toStaffSpecial(row, now)),
      total,
      page: query.page,
      pageSize: query.pageSize,
    }
  }

  async special(id: number): Promise<StaffSpecialDetail> {
    const now = this.deps.clock.now()
    const row = await this.deps.repo.findSpecial(id)
    if (!row) throw new AppError('NOT_FOUND', { specialId: id })
    const lots = await this.deps.repo.lotsOfSpecial(row.id)
    return { ...toStaffSpecial(row, now), lots: lots.map((lot) => toStaffLot(lot, now)) }
  }

  /**
   * Changes a special. Texts and the cover change any time; its times (start, end, stagger, soft
   * close) only before it starts (SPECIAL_STARTED), never into the past (SPECIAL_TIMES_PAST), and
   * then its lots start with it and end on their staggered places again.
   */
  updateSpecial(id: number, patch: SpecialUpdate): Promise<Changed<StaffSpecial>> {
    const { repo, listings, clock } = this.deps
    return this.deps.transact(async (tx) => {
      const locked = await listings.lockSpecial(tx, id)
      const current = locked && (await repo.findSpecial(id, tx))
      if (!current) throw new AppError('NOT_FOUND', { specialId: id })
      const now = clock.now()
      const next = {
        startsAt: patch.startsAt === undefined ? current.starts_at : Date.parse(patch.startsAt),
        endsAt: patch.endsAt === undefined ? current.ends_at : Date.parse(patch.endsAt),
        staggerSeconds: patch.staggerSeconds ?? current.stagger_seconds,
        softCloseWindowSeconds: patch.softCloseWindowSeconds ?? current.soft_close_window_seconds,
        softCloseExtendSeconds: patch.softCloseExtendSeconds ?? current.soft_close_extend_seconds,
      }
      const was = {
        startsAt: current.starts_at,
        endsAt: current.ends_at,
        staggerSeconds: current.stagger_seconds,
        softCloseWindowSeconds: current.soft_close_window_seconds,
        softCloseExtendSeconds: current.soft_close_extend_seconds,
      }
      const moved = SPECIAL_TIME_FIELDS.filter((field) => next[field] !== was[field])
      if (moved.length > 0 && now >= current.starts_at) {
        throw new AppError('SPECIAL_STARTED', { fields: moved, startsAt: iso(current.starts_at) })
      }
      // Not yet started (else refused above): moving it into the past would close every lot unsold
      // at once. A new end, and so every lot's, must be later than now; a new start not earlier.
      const pastStart = next.startsAt !== was.startsAt && next.startsAt < now
      const pastEnd = next.endsAt !== was.endsAt && next.endsAt <= now
      if (pastStart || pastEnd) {
        throw new AppError('SPECIAL_TIMES_PAST', {
          fields: [...(pastStart ? ['startsAt'] : []), ...(pastEnd ? ['endsAt'] : [])],
          now: iso(now),
        })
      }
      if (next.startsAt >= next.endsAt) {
        throw new AppError('VALIDATION_FAILED', {
          fields: [{ field: 'body.endsAt', message: 'startsAt must be before endsAt' }],
        })
      }
      const row: Updateable<SpecialsTable> = {
        title: patch.title,
        subtitle: patch.subtitle,
        description: patch.description,
        cover: patch.cover,
        starts_at: next.startsAt,
        ends_at: next.endsAt,
        stagger_seconds: next.staggerSeconds,
        soft_close_window_seconds: next.softCloseWindowSeconds,
        soft_close_extend_seconds: next.softCloseExtendSeconds,
      }
      await repo.updateSpecial(tx, id, row)
      if (
        next.startsAt !== was.startsAt ||
        next.endsAt !== was.endsAt ||
        next.staggerSeconds !== was.staggerSeconds
      ) {
        await repo.retimeLots(tx, id, next)
      }
      const after = await repo.findSpecial(id, tx)
      return { before: toStaffSpecial(current, now), after: toStaffSpecial(after!, now) }
    })
  }

  /**
   * Changes a lot while nobody has bid on it and it has not closed (LOT_HAS_BIDS); the lock is
   * the one a bid takes, so a bid and an edit never cross. Changed prices must be on the grid
   * (BID_OFF_GRID) and the reserve not below the start (RESERVE_BELOW_START).
   */
  async updateLot(id: number, patch: LotUpdate): Promise<Changed<StaffLot>> {
    const steps = await this.deps.priceSteps()
    const { repo, listings, clock } = this.deps
    return this.deps.transact(async (tx) => {
      const lot = await repo.lockLot(tx, id)
      if (!lot) throw new AppError('NOT_FOUND', { lotId: id })
      const now = clock.now()
      if (!lotEditable(lot, now)) {
        throw new AppError('LOT_HAS_BIDS', {
          bidCount: lot.bid_count,
          status: lotStatusOf(lot, now),
        })
      }
      const startPrice = patch.startPrice ?? lot.start_price
      const reservePrice = patch.reservePrice === undefined ? lot.reserve_price : patch.reservePrice
      // Only the prices this edit sets are judged by today's grid; an unchanged one stays.
      checkLotPrices({ startPrice: patch.startPrice, reservePrice: patch.reservePrice }, steps)
      if (reservePrice !== null && reservePrice < startPrice) {
        throw new AppError('RESERVE_BELOW_START', { startPrice, reservePrice })
      }
      if (
        patch.categoryId !== undefined &&
        patch.categoryId !== null &&
        !(await listings.categoryExists(tx, 'categories', patch.categoryId))
      ) {
        throw new AppError('VALIDATION_FAILED', {
          fields: [{ field: 'body.categoryId', message: `unknown: ${patch.categoryId}` }],
        })
      }
      const row: Updateable<LotsTable> = {
        title: patch.title,
        subtitle: patch.subtitle,
        description: patch.description,
        start_price: patch.startPrice,
        reserve_price: patch.reservePrice,
        category_id: patch.categoryId,
        grade_code: patch.gradeCode,
        grading_service: patch.gradingService,
        cert_no: patch.certNo,
        images: patch.images === undefined ? undefined : JSON.stringify(patch.images),
        export_banned: patch.exportBanned === undefined ? undefined : patch.exportBanned ? 1 : 0,
      }
      await repo.updateLot(tx, id, row)
      const after = await repo.lockLot(tx, id)
      return { before: toStaffLot(lot, now), after: toStaffLot(after!, now) }
    })
  }

  /**
   * Withdraws a lot before its special starts (SPECIAL_STARTED after): it is deleted with its
   * watches, and the lots after it move up a number, ending on their new staggered places.
   */
  withdrawLot(id: number): Promise<StaffLot> {
    const { repo, listings, clock } = this.deps
    return this.deps.transact(async (tx) => {
      const found = await repo.lockLot(tx, id)
      if (!found) throw new AppError('NOT_FOUND', { lotId: id })
      // The special first (as adding lots and retiming take it), then the lot.
      const special = await listings.lockSpecial(tx, found.special_id)
      const lot = await repo.lockLot(tx, id)
      if (!special || !lot) throw new AppError('NOT_FOUND', { lotId: id })
      const now = clock.now()
      if (now >= special.starts_at) {
        throw new AppError('SPECIAL_STARTED', { startsAt: iso(special.starts_at) })
      }
      try {
        await repo.deleteLot(tx, id)
      } catch (error) {
        if (isForeignKeyError(error)) throw new AppError('LOT_REFERENCED', { lotId: id })
        throw error
      }
      await repo.closeGap(tx, special.id, lot.lot_no, {
        endsAt: special.ends_at,
        staggerSeconds: special.stagger_seconds,
      })
      return toStaffLot(lot, now)
    })
  }

  /**
   * The bulk lot import: every row checked first (lot-import.ts); with any refusal nothing is
   * written (a dry run answers the refusals, an import LOT_IMPORT_INVALID with them); otherwise the
   * rows become the special's next lots in file order, in one transaction.
   */
  async importLots(specialId: number, input: LotImport): Promise<LotImportResult> {
    const special = await this.deps.repo.findSpecial(specialId)
    if (!special) throw new AppError('NOT_FOUND', { specialId })
    // The check too: a file that passes it must not then fail for the special (addLots' rule).
    if (this.deps.clock.now() >= special.ends_at)
      throw new AppError('SPECIAL_CLOSED', { specialId })
    const [steps, categories] = await Promise.all([
      this.deps.priceSteps(),
      this.deps.repo.listCategories(),
    ])
    const checked = checkLotImport(input.csv, {
      steps,
      categories: categories.map((c) => ({ id: c.id, name: c.name, nameEn: c.name_en })),
      imageHosts: this.deps.imageHosts,
    })
    const result = { dryRun: input.dryRun, rowCount: checked.rowCount, errors: checked.errors }
    if (checked.errors.length > 0) {
      if (input.dryRun) return { ...result, lots: [] }
      throw new AppError('LOT_IMPORT_INVALID', {
        rowCount: checked.rowCount,
        errors: checked.errors,
      })
    }
    if (input.dryRun) return { ...result, lots: [] }
    return { ...result, lots: await this.deps.addLots(specialId, checked.drafts) }
  }
}
