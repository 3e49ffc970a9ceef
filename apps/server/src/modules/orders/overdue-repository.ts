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
   * Unpaid auction orders past their due time, oldest first, locked; on PostgreSQL rows another
   * instance (or a payer) holds are skipped rather than waited for. Served by the partial index
   * `orders_auction_due` (migration 0009).
   */
  async lockDue(tx: Tx, now: number, limit: number): Promise<number[]> {
    let query = tx
      .selectFrom('orders')
      .select('id')
      .where('kind', '=', 'auction')
      .where('status', '=', 'pending_payment')
      .where('due_at', '<=', now)
      .orderBy('due_at')
      .orderBy('id')
      .limit(limit)
    if (this.dialect === 'postgres') query = query.forUpdate().skipLocked()
    return (await query.execute()).map((r) => r.id)
  }

  /**
   * Marks the orders overdue, each only if it is still unpaid and due: the conditional update is
   * what makes it happen once. Returns the ids it changed.
   */
  async markOverdue(tx: Tx, ids: readonly number[], now: number): Promise<number[]> {
    if (ids.length === 0) return []
    const rows = await tx
      .updateTable('orders')
      .set({ status: 'overdue' })
      .where('id', 'in', [...ids])
      .where('kind', '=', 'auction')
      .where('status', '=', 'pending_payment')
      .where('due_at', '<=', now)
      .returning('id')
      .execute()
    return rows.map((r) => r.id).sort((a, b) => a - b)
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
