import type {
  LotCreate,
  LotCreated,
  MallItemCreate,
  MallItemCreated,
  SpecialCreate,
} from '@numisma/contracts/staff'
import { isOnGrid, nearestOnGrid, type PriceStep } from '@numisma/domain/increments'
import { staggeredEnd } from '@numisma/domain/soft-close'
import type { Clock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import type { Transact, Tx } from '../../platform/transactions'
import type { ListingRepository } from './listing-repository'

/**
 * A lot's prices, those given: on the increment grid (BID_OFF_GRID naming the field and the
 * nearest amounts), and a reserve not below the start price (RESERVE_BELOW_START).
 */
export function checkLotPrices(
  lot: { startPrice?: number; reservePrice?: number | null },
  steps: readonly PriceStep[],
): void {
  for (const [field, amount] of [
    ['startPrice', lot.startPrice],
    ['reservePrice', lot.reservePrice],
  ] as const) {
    if (amount !== undefined && amount !== null && !isOnGrid(amount, steps)) {
      throw new AppError('BID_OFF_GRID', { field, ...nearestOnGrid(amount, steps) })
    }
  }
  const { startPrice, reservePrice } = lot
  if (startPrice !== undefined && reservePrice != null && reservePrice < startPrice) {
    throw new AppError('RESERVE_BELOW_START', { startPrice, reservePrice })
  }
}

/**
 * A mall item's product number, from its row id: unique because the id is, and stable for as long
 * as the item exists. Numbers start at M100001, as the demo catalogue's do.
 */
export const productNoOf = (id: number): string => `M${100_000 + id}`

export interface ListingDeps {
  transact: Transact
  clock: Clock
  /** The repository's public methods, so a spec can pass an in-memory fake. */
  listings: Pick<ListingRepository, keyof ListingRepository>
  /**
   * The increment table bids are judged by (the bidding module's, which an operator may change),
   * so a start price is on the same grid as the bids that follow it.
   */
  priceSteps: () => Promise<PriceStep[]>
}

/** Putting things up for sale (the operator calls of DESIGN §9): specials, lots and mall items. */
export class ListingService {
  constructor(private readonly deps: ListingDeps) {}

  /**
   * A new special may start a moment ago (it opens at once), but must end later than now: one
   * ending in the past would close all its lots unsold as soon as they are added
   * (SPECIAL_TIMES_PAST).
   */
  async createSpecial(input: SpecialCreate): Promise<{ id: number }> {
    const { listings, clock } = this.deps
    const now = clock.now()
    if (Date.parse(input.endsAt) <= now) {
      throw new AppError('SPECIAL_TIMES_PAST', {
        fields: ['endsAt'],
        now: new Date(now).toISOString(),
      })
    }
    const id = await this.deps.transact((tx) =>
      listings.insertSpecial(tx, {
        title: input.title,
        subtitle: input.subtitle,
        description: input.description,
        cover: input.cover,
        starts_at: Date.parse(input.startsAt),
        ends_at: Date.parse(input.endsAt),
        stagger_seconds: input.staggerSeconds,
        soft_close_window_seconds: input.softCloseWindowSeconds,
        soft_close_extend_seconds: input.softCloseExtendSeconds,
        created_at: now,
      }),
    )
    return { id }
  }

  /**
   * Adds a lot as the special's next one. Its number and so its staggered end (DESIGN §4) are
   * taken while the special is locked, so concurrent adds get 1, 2, 3 … in turn.
   */
  async addLot(input: LotCreate): Promise<LotCreated> {
    const { specialId, ...draft } = input
    const [created] = await this.addLots(specialId, [draft])
    return created!
  }

  /**
   * Adds lots as the special's next ones, in their order, in one transaction: all or none (the
   * bulk import, lot-import.ts). Prices are checked on the grid first (BID_OFF_GRID with the
   * nearest amounts) and a reserve below the start is refused (RESERVE_BELOW_START).
   */
  async addLots(specialId: number, drafts: Omit<LotCreate, 'specialId'>[]): Promise<LotCreated[]> {
    const steps = await this.deps.priceSteps()
    for (const draft of drafts) checkLotPrices(draft, steps)
    const { listings, clock } = this.deps
    return this.deps.transact(async (tx) => {
      const special = await listings.lockSpecial(tx, specialId)
      if (!special) throw new AppError('NOT_FOUND', { specialId })
      // A special whose first lot has closed takes no more: a lot added now would open already
      // past its end, or close minutes after the sale the buyers followed.
      if (clock.now() >= special.ends_at) throw new AppError('SPECIAL_CLOSED', { specialId })
      for (const draft of drafts) await this.requireCategory(tx, 'categories', draft.categoryId)
      let lotNo = await listings.lastLotNo(tx, special.id)
      const created: LotCreated[] = []
      for (const input of drafts) {
        lotNo++
        const endsAt = staggeredEnd(special.ends_at, lotNo, special.stagger_seconds)
        const id = await listings.insertLot(tx, {
          special_id: special.id,
          lot_no: lotNo,
          category_id: input.categoryId ?? null,
          title: input.title,
          subtitle: input.subtitle,
          description: input.description,
          images: JSON.stringify(input.images),
          grade_code: input.gradeCode,
          grading_service: input.gradingService ?? null,
          cert_no: input.certNo ?? null,
          year: '',
          denomination: '',
          material: '',
          start_price: input.startPrice,
          reserve_price: input.reservePrice ?? null,
          starts_at: special.starts_at,
          ends_at: endsAt,
          export_banned: input.exportBanned ? 1 : 0,
          status: 'open',
          price: null,
          bid_count: 0,
          leader_id: null,
          created_at: clock.now(),
        })
        created.push({ id, lotNo, endsAt: new Date(endsAt).toISOString() })
      }
      return created
    })
  }

  async addMallItem(input: MallItemCreate): Promise<MallItemCreated> {
    const { listings, clock } = this.deps
    return this.deps.transact(async (tx) => {
      await this.requireCategory(tx, 'mall_categories', input.categoryId)
      const id = await listings.reserveMallItemId(tx)
      const productNo = productNoOf(id)
      await listings.insertMallItem(tx, {
        id,
        product_no: productNo,
        category_id: input.categoryId ?? null,
        title: input.title,
        subtitle: '',
        description: '',
        images: '[]',
        grade_code: 0,
        grading_service: null,
        cert_no: null,
        year: '',
        denomination: '',
        material: '',
        price: input.price,
        stock: input.stock,
        sold: 0,
        limit_per_user: input.limitPerUser ?? null,
        on_sale: 1,
        export_banned: 0,
        created_at: clock.now(),
      })
      return { id, productNo }
    })
  }

  /** A named category must exist in its tree: 400 naming `body.categoryId`, not a foreign-key 500. */
  private async requireCategory(
    tx: Tx,
    tree: 'categories' | 'mall_categories',
    categoryId: number | undefined,
  ): Promise<void> {
    if (categoryId === undefined) return
    if (await this.deps.listings.categoryExists(tx, tree, categoryId)) return
    throw new AppError('VALIDATION_FAILED', {
      fields: [{ field: 'body.categoryId', message: `unknown: ${categoryId}` }],
    })
  }
}
