import type { Kysely } from 'kysely'
import type { Dialect } from '../../platform/db'
import type { DB } from '../../platform/schema'
import type { Tx } from '../../platform/transactions'

/** A won lot's order as forfeiting judges it, read under its row lock. */
export interface LockedAuctionOrder {
  id: number
  userId: number
  kind: string
  status: string
  /** The hammer price (the order's goods; the handling fee is apart). */
  hammer: number
}

/** Where a due order sits in the job's order (due time, then id). */
export interface DueOrder {
  id: number
  dueAt: number
}

/**
 * The SQL of overdue winners (DESIGN §4): won lots unpaid past their due time, and the staff call
 * that takes the deposit for one. Methods run in the caller's write transaction.
 */
export class OverdueRepository {
  constructor(
    readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Unpaid auction orders past their due time, oldest first (after `after`, the last one a page
   * before this ended on), locked; on PostgreSQL rows another instance (or a payer) holds are
   * skipped rather than waited for. Served by the partial index `orders_auction_due` (migration
   * 0009).
   */
  async lockDue(tx: Tx, now: number, limit: number, after?: DueOrder): Promise<DueOrder[]> {
    let query = tx
      .selectFrom('orders')
      .select(['id', 'due_at'])
      .where('kind', '=', 'auction')
      .where('status', '=', 'pending_payment')
      .where('due_at', '<=', now)
      .orderBy('due_at')
      .orderBy('id')
      .limit(limit)
    if (after) {
      query = query.where((eb) =>
        eb.or([
          eb('due_at', '>', after.dueAt),
          eb.and([eb('due_at', '=', after.dueAt), eb('id', '>', after.id)]),
        ]),
      )
    }
    if (this.dialect === 'postgres') query = query.forUpdate().skipLocked()
    return (await query.execute()).map((r) => ({ id: r.id, dueAt: r.due_at ?? now }))
  }

  /**
   * Marks the orders overdue, each only if it is still unpaid and due: the conditional update is
   * what makes it happen once. Returns the orders it changed, with their winners and lots' titles
   * (the winner is told which lot).
   */
  async markOverdue(
    tx: Tx,
    ids: readonly number[],
    now: number,
  ): Promise<{ id: number; userId: number; title: string }[]> {
    if (ids.length === 0) return []
    const rows = await tx
      .updateTable('orders')
      .set({ status: 'overdue' })
      .where('id', 'in', [...ids])
      .where('kind', '=', 'auction')
      .where('status', '=', 'pending_payment')
      .where('due_at', '<=', now)
      .returning(['id', 'user_id', 'lot_id'])
      .execute()
    const lotIds = rows.flatMap((r) => (r.lot_id === null ? [] : [r.lot_id]))
    const titles = new Map(
      lotIds.length === 0
        ? []
        : (
            await tx.selectFrom('lots').select(['id', 'title']).where('id', 'in', lotIds).execute()
          ).map((l) => [l.id, l.title] as const),
    )
    return rows
      .map((r) => ({
        id: r.id,
        userId: r.user_id,
        title: (r.lot_id !== null ? titles.get(r.lot_id) : undefined) ?? '',
      }))
      .sort((a, b) => a.id - b.id)
  }

  async lockOrder(tx: Tx, orderId: number): Promise<LockedAuctionOrder | undefined> {
    let query = tx
      .selectFrom('orders')
      .select(['id', 'user_id', 'kind', 'status', 'amount'])
      .where('id', '=', orderId)
    if (this.dialect === 'postgres') query = query.forUpdate()
    const row = await query.executeTakeFirst()
    return (
      row && {
        id: row.id,
        userId: row.user_id,
        kind: row.kind,
        status: row.status,
        hammer: row.amount,
      }
    )
  }

  /** Closes a forfeited order; false, and nothing changed, when it was no longer overdue. */
  async markForfeited(tx: Tx, orderId: number, now: number): Promise<boolean> {
    const updated = await tx
      .updateTable('orders')
      .set({ status: 'cancelled', cancelled_at: now })
      .where('id', '=', orderId)
      .where('status', '=', 'overdue')
      .executeTakeFirst()
    return updated.numUpdatedRows === 1n
  }
}
