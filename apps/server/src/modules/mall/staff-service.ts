import type { Database } from '../../platform/db'
import { transactor } from '../../platform/transactions'
import type { MallItemCreate, MallItemCreated } from '@numisma/contracts/staff'
import type {
  MallItemNew,
  MallItemUpdate,
  StaffMallItem,
  StaffMallItemPage,
  StaffMallItemQuery,
  StockAdjust,
} from '@numisma/contracts/staff-settings'
import { GradingServiceSchema } from '@numisma/contracts/staff-settings'
import type { Updateable } from 'kysely'
import { AppError } from '../../platform/errors'
import type { MallItemsTable } from '../../platform/schema'
import type { Transact, Tx } from '../../platform/transactions'
import { parseImages } from '../catalog/mappers'
import { type StaffMallItemRow, StaffMallRepository } from './staff-repository'

export interface StaffMallDeps {
  transact: Transact
  /** The database, for reads outside a write transaction. */
  db: Tx
  items: Pick<StaffMallRepository, keyof StaffMallRepository>
  /**
   * The catalogue's mall-item insert (its product number and category check) run inside the
   * caller's transaction: app wiring passes ListingService.addMallItem bound to `tx`.
   */
  addMallItemIn: (tx: Tx, input: MallItemCreate) => Promise<MallItemCreated>
}

/** What an edit changed, for the audit log. */
export interface Change<T> {
  before: T
  after: T
}

/** The columns an edit (or a new item's description) sets. */
function describedRow(input: MallItemUpdate): Updateable<MallItemsTable> {
  return {
    title: input.title,
    subtitle: input.subtitle,
    description: input.description,
    images: JSON.stringify(input.images),
    price: input.price,
    category_id: input.categoryId,
    limit_per_user: input.limitPerUser,
    grade_code: input.gradeCode,
    grading_service: input.gradingService,
    cert_no: input.certNo || null,
    year: input.year,
    denomination: input.denomination,
    material: input.material,
    export_banned: input.exportBanned ? 1 : 0,
  }
}

function toStaffItem(row: StaffMallItemRow): StaffMallItem {
  const grading = GradingServiceSchema.safeParse(row.grading_service)
  return {
    id: row.id,
    productNo: row.product_no,
    title: row.title,
    subtitle: row.subtitle,
    description: row.description,
    images: parseImages(row.images),
    price: row.price,
    stock: row.stock,
    reserved: row.reserved,
    sold: row.sold,
    onSale: row.on_sale === 1,
    limitPerUser: row.limit_per_user,
    categoryId: row.category_id,
    categoryName: row.category_name,
    gradeCode: row.grade_code,
    gradingService: grading.success ? grading.data : null,
    certNo: row.cert_no,
    year: row.year,
    denomination: row.denomination,
    material: row.material,
    exportBanned: row.export_banned === 1,
    createdAt: new Date(row.created_at).toISOString(),
  }
}

/**
 * Staff's side of the mall (issue 12): the items with their shelf, reserved and sold units;
 * editing an item's description and price; moving its stock; putting it on or off sale. Every
 * change runs under the item's row lock, the one a purchase takes.
 */
export class StaffMallService {
  constructor(private readonly deps: StaffMallDeps) {}

  static forDatabase(
    database: Database,
    addMallItemIn: StaffMallDeps['addMallItemIn'],
  ): StaffMallService {
    return new StaffMallService({
      transact: transactor(database),
      db: database.db,
      items: new StaffMallRepository(database.dialect),
      addMallItemIn,
    })
  }

  async list(query: StaffMallItemQuery): Promise<StaffMallItemPage> {
    const { rows, total } = await this.deps.items.list(this.deps.db, {
      keyword: query.keyword?.trim() || undefined,
      onSale: query.onSale === undefined ? undefined : query.onSale === 'true',
      offset: (query.page - 1) * query.pageSize,
      limit: query.pageSize,
    })
    return { items: rows.map(toStaffItem), total }
  }

  async get(id: number): Promise<StaffMallItem> {
    return this.read(this.deps.db, id)
  }

  /**
   * A new item with its photos, description, grade and the rest, in one transaction: the
   * catalogue's insert (product number, category check, on sale) and then the description, so the
   * shop never shows it half-described and a refusal leaves nothing behind.
   */
  async create(input: MallItemNew): Promise<StaffMallItem> {
    const { stock, ...described } = input
    return this.deps.transact(async (tx) => {
      const { id } = await this.deps.addMallItemIn(tx, {
        title: described.title,
        price: described.price,
        stock,
        categoryId: described.categoryId ?? undefined,
        limitPerUser: described.limitPerUser ?? undefined,
      })
      await this.deps.items.update(tx, id, describedRow(described))
      return this.read(tx, id)
    })
  }

  async update(id: number, input: MallItemUpdate): Promise<Change<StaffMallItem>> {
    const { items } = this.deps
    return this.deps.transact(async (tx) => {
      if (!(await items.lock(tx, id))) throw new AppError('NOT_FOUND', { id })
      const before = await this.read(tx, id)
      if (input.categoryId !== null && !(await items.mallCategoryExists(tx, input.categoryId))) {
        throw new AppError('VALIDATION_FAILED', {
          fields: [{ field: 'body.categoryId', message: `unknown: ${input.categoryId}` }],
        })
      }
      await items.update(tx, id, describedRow(input))
      return { before, after: await this.read(tx, id) }
    })
  }

  /**
   * Puts units on the shelf or takes them off. Ordered units (reserved or sold) have already left
   * the shelf, so taking off more than is on it would take ordered units back: STOCK_HELD.
   */
  async adjustStock(id: number, input: StockAdjust): Promise<Change<StaffMallItem>> {
    const { items } = this.deps
    return this.deps.transact(async (tx) => {
      const locked = await items.lock(tx, id)
      if (!locked) throw new AppError('NOT_FOUND', { id })
      const before = await this.read(tx, id)
      if (!(await items.adjustStock(tx, id, input.delta))) {
        throw new AppError('STOCK_HELD', {
          stock: before.stock,
          reserved: before.reserved,
          sold: before.sold,
          delta: input.delta,
        })
      }
      return { before, after: await this.read(tx, id) }
    })
  }

  async setOnSale(id: number, onSale: boolean): Promise<Change<StaffMallItem>> {
    const { items } = this.deps
    return this.deps.transact(async (tx) => {
      if (!(await items.lock(tx, id))) throw new AppError('NOT_FOUND', { id })
      const before = await this.read(tx, id)
      await items.update(tx, id, { on_sale: onSale ? 1 : 0 })
      return { before, after: await this.read(tx, id) }
    })
  }

  private async read(tx: Tx, id: number): Promise<StaffMallItem> {
    const row = await this.deps.items.find(tx, id)
    if (!row) throw new AppError('NOT_FOUND', { id })
    return toStaffItem(row)
  }
}
