import type { Kysely, Selectable } from 'kysely'
import type { Dialect } from '../../platform/db'
import type { DB, LotsTable, SpecialsTable } from '../../platform/schema'
import type { Tx } from '../../platform/transactions'

/** PostgreSQL returns counts and sums of bigints as strings. */
const num = (value: number | string | bigint | null | undefined): number => Number(value ?? 0)

export type SalesLotRow = Selectable<LotsTable>

export interface SpecialSummaryRow extends Selectable<SpecialsTable> {
  lot_count: number
  open_lots: number
  last_lot_ends_at: number | null
}

export interface LiveLotRow extends SalesLotRow {
  watchers: number
  leader_mobile: string | null
  leader_display: string | null
}

export interface ResultLotRow extends SalesLotRow {
  order_id: number | null
  order_status: string | null
  buyer_id: number | null
  buyer_mobile: string | null
  buyer_display: string | null
  leader_mobile: string | null
  leader_display: string | null
  relisted_as: number | null
  relisted_into: number | null
}

export interface OverdueOrderRow {
  order_id: number
  status: string
  amount: number
  total: number
  due_at: number | null
  user_id: number
  mobile: string
  display: string
  lot_id: number
  lot_no: number
  title: string
  start_price: number
  reserve_price: number | null
  special_id: number
  special_title: string
  relisted_as: number | null
  relisted_into: number | null
}

/** The most recent specials the picker offers (running and upcoming ones always come first). */
const SPECIALS_LIMIT = 200
const OVERDUE_LIMIT = 500

/**
 * The SQL of the console's sales area: reads over specials, lots, watches and auction orders for
 * staff, and the relist record. Relist methods run in the caller's write transaction.
 */
export class SalesRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  async specials(): Promise<SpecialSummaryRow[]> {
    const rows = await this.db
      .selectFrom('specials')
      .leftJoin('lots', 'lots.special_id', 'specials.id')
      .selectAll('specials')
      .select((eb) => [
        eb.fn.count<number | string>('lots.id').as('lot_count'),
        eb.fn
          .sum<number | string | null>(
            eb.case().when('lots.status', '=', 'open').then(1).else(0).end(),
          )
          .as('open_lots'),
        eb.fn.max<number | string | null>('lots.ends_at').as('last_lot_ends_at'),
      ])
      .groupBy('specials.id')
      .orderBy('specials.ends_at', 'desc')
      .limit(SPECIALS_LIMIT)
      .execute()
    return rows.map((r) => ({
      ...r,
      lot_count: num(r.lot_count),
      open_lots: num(r.open_lots),
      last_lot_ends_at: r.last_lot_ends_at === null ? null : num(r.last_lot_ends_at),
    }))
  }

  async special(id: number): Promise<SpecialSummaryRow | undefined> {
    const row = await this.db
      .selectFrom('specials')
      .leftJoin('lots', 'lots.special_id', 'specials.id')
      .selectAll('specials')
      .select((eb) => [
        eb.fn.count<number | string>('lots.id').as('lot_count'),
        eb.fn
          .sum<number | string | null>(
            eb.case().when('lots.status', '=', 'open').then(1).else(0).end(),
          )
          .as('open_lots'),
        eb.fn.max<number | string | null>('lots.ends_at').as('last_lot_ends_at'),
      ])
      .where('specials.id', '=', id)
      .groupBy('specials.id')
      .executeTakeFirst()
    return (
      row && {
        ...row,
        lot_count: num(row.lot_count),
        open_lots: num(row.open_lots),
        last_lot_ends_at: row.last_lot_ends_at === null ? null : num(row.last_lot_ends_at),
      }
    )
  }

  /** The special's lots by lot number, with their watch counts and leaders. */
  async liveLots(specialId: number): Promise<LiveLotRow[]> {
    const rows = await this.db
      .selectFrom('lots')
      .leftJoin(
        (eb) =>
          eb
            .selectFrom('watches')
            .select((w) => ['watches.lot_id', w.fn.countAll<number | string>().as('n')])
            .groupBy('watches.lot_id')
            .as('w'),
        (join) => join.onRef('w.lot_id', '=', 'lots.id'),
      )
      .leftJoin('users as leader', 'leader.id', 'lots.leader_id')
      .selectAll('lots')
      .select(['w.n', 'leader.mobile as leader_mobile', 'leader.display as leader_display'])
      .where('lots.special_id', '=', specialId)
      .orderBy('lots.lot_no')
      .execute()
    return rows.map(({ n, ...r }) => ({ ...r, watchers: num(n) }))
  }

  /** The special's lots by lot number, with their auction orders, buyers, leaders and relists. */
  resultLots(specialId: number): Promise<ResultLotRow[]> {
    return this.db
      .selectFrom('lots')
      .leftJoin('orders', (join) =>
        join.onRef('orders.lot_id', '=', 'lots.id').on('orders.kind', '=', 'auction'),
      )
      .leftJoin('users as buyer', 'buyer.id', 'orders.user_id')
      .leftJoin('users as leader', 'leader.id', 'lots.leader_id')
      .leftJoin('lot_relists', 'lot_relists.lot_id', 'lots.id')
      .selectAll('lots')
      .select([
        'orders.id as order_id',
        'orders.status as order_status',
        'buyer.id as buyer_id',
        'buyer.mobile as buyer_mobile',
        'buyer.display as buyer_display',
        'leader.mobile as leader_mobile',
        'leader.display as leader_display',
        'lot_relists.new_lot_id as relisted_as',
        'lot_relists.special_id as relisted_into',
      ])
      .where('lots.special_id', '=', specialId)
      .orderBy('lots.lot_no')
      .execute()
  }

  /**
   * Overdue auction orders, and forfeited ones (closed as cancelled) whose lot waits to be
   * relisted; oldest due first.
   */
  overdueOrders(): Promise<OverdueOrderRow[]> {
    return this.db
      .selectFrom('orders')
      .innerJoin('lots', 'lots.id', 'orders.lot_id')
      .innerJoin('specials', 'specials.id', 'lots.special_id')
      .innerJoin('users', 'users.id', 'orders.user_id')
      .leftJoin('lot_relists', 'lot_relists.lot_id', 'lots.id')
      .select([
        'orders.id as order_id',
        'orders.status',
        'orders.amount',
        'orders.total',
        'orders.due_at',
        'users.id as user_id',
        'users.mobile',
        'users.display',
        'lots.id as lot_id',
        'lots.lot_no',
        'lots.title',
        'lots.start_price',
        'lots.reserve_price',
        'specials.id as special_id',
        'specials.title as special_title',
        'lot_relists.new_lot_id as relisted_as',
        'lot_relists.special_id as relisted_into',
      ])
      .where('orders.kind', '=', 'auction')
      .where((eb) =>
        eb.or([
          eb('orders.status', '=', 'overdue'),
          eb.and([eb('orders.status', '=', 'cancelled'), eb('lot_relists.lot_id', 'is', null)]),
        ]),
      )
      .orderBy('orders.due_at')
      .orderBy('orders.id')
      .limit(OVERDUE_LIMIT)
      .execute()
  }

  /** The lot, locked until the transaction ends (PostgreSQL; SQLite's write lock is held). */
  lockLot(tx: Tx, id: number): Promise<SalesLotRow | undefined> {
    let query = tx.selectFrom('lots').selectAll().where('id', '=', id)
    if (this.dialect === 'postgres') query = query.forUpdate()
    return query.executeTakeFirst()
  }

  /** The lot's auction order's status, when it has one. */
  async orderStatusOfLot(tx: Tx, lotId: number): Promise<string | undefined> {
    const row = await tx
      .selectFrom('orders')
      .select('status')
      .where('lot_id', '=', lotId)
      .where('kind', '=', 'auction')
      .executeTakeFirst()
    return row?.status
  }

  relistOf(tx: Tx, lotId: number) {
    return tx.selectFrom('lot_relists').selectAll().where('lot_id', '=', lotId).executeTakeFirst()
  }

  specialById(tx: Tx, id: number) {
    return tx.selectFrom('specials').selectAll().where('id', '=', id).executeTakeFirst()
  }

  async recordRelist(
    tx: Tx,
    row: { lotId: number; newLotId: number; specialId: number; staffId: number; now: number },
  ): Promise<void> {
    await tx
      .insertInto('lot_relists')
      .values({
        lot_id: row.lotId,
        new_lot_id: row.newLotId,
        special_id: row.specialId,
        staff_id: row.staffId,
        created_at: row.now,
      })
      .execute()
  }
}
