import type { Database } from '../../platform/db'
import { transactor } from '../../platform/transactions'
import type { PriceStepTable } from '@numisma/contracts/staff-settings'
import { checkIncrementTable } from '@numisma/domain/increment-table'
import type { PriceStep } from '@numisma/domain/increments'
import { AppError } from '../../platform/errors'
import type { Transact, Tx } from '../../platform/transactions'
import { PriceStepsRepository } from './price-steps-repository'

export interface PriceStepsDeps {
  transact: Transact
  /** The database, for reads outside a write transaction. */
  db: Tx
  steps: Pick<PriceStepsRepository, keyof PriceStepsRepository>
}

/**
 * The increment table for staff (issue 12): replaced whole in one transaction, after the domain's
 * rule (`checkIncrementTable`) accepts it. Bids (BiddingService) and start prices (ListingService)
 * read the table from the database for every call, so the new one applies on every instance as
 * soon as this commits (no cache to invalidate).
 */
export class PriceStepsService {
  constructor(private readonly deps: PriceStepsDeps) {}

  static forDatabase(database: Database): PriceStepsService {
    return new PriceStepsService({
      transact: transactor(database),
      db: database.db,
      steps: new PriceStepsRepository(database.dialect),
    })
  }

  current(): Promise<PriceStep[]> {
    return this.deps.steps.read(this.deps.db)
  }

  async replace(input: PriceStepTable): Promise<{ before: PriceStep[]; after: PriceStep[] }> {
    const after = input.steps.map(({ from, step }) => ({ from, step }))
    const check = checkIncrementTable(after)
    if (!check.ok) {
      throw new AppError('INCREMENT_TABLE_INVALID', { problem: check.problem, row: check.row })
    }
    return this.deps.transact(async (tx) => {
      const before = await this.deps.steps.read(tx)
      await this.deps.steps.replace(tx, after)
      return { before, after }
    })
  }
}
