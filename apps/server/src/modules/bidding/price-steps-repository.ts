import { sql } from 'kysely'
import type { Dialect } from '../../platform/db'
import type { Tx } from '../../platform/transactions'
import type { PriceStep } from '@numisma/domain/increments'

/** The increment table's SQL for staff: read it and replace it whole. */
export class PriceStepsRepository {
  constructor(private readonly dialect: Dialect) {}

  async read(tx: Tx): Promise<PriceStep[]> {
    const rows = await tx.selectFrom('price_steps').selectAll().orderBy('from_amount').execute()
    return rows.map((r) => ({ from: r.from_amount, step: r.step }))
  }

  /**
   * Replaces every row in the caller's transaction. On PostgreSQL the table is locked against
   * other writers first (EXCLUSIVE still lets bids read the old table until this commits), so two
   * replacements take turns; SQLite's write transaction already holds the single write lock.
   */
  async replace(tx: Tx, steps: readonly PriceStep[]): Promise<void> {
    if (this.dialect === 'postgres') await sql`lock table price_steps in exclusive mode`.execute(tx)
    await tx.deleteFrom('price_steps').execute()
    await tx
      .insertInto('price_steps')
      .values(steps.map((s) => ({ from_amount: s.from, step: s.step })))
      .execute()
  }
}
