import type { Clock } from '../../platform/clock'
import type { Database } from '../../platform/db'
import { writeTransaction } from '../../platform/transactions'
import { LedgerRepository, PLATFORM } from './repository'

/** Money movements that are whole use cases (more arrive with payment and orders). */
export class LedgerService {
  private readonly repo: LedgerRepository

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
  ) {
    this.repo = new LedgerRepository(database.dialect)
  }

  /** An operator records a deposit paid at the counter: money from outside into the user's quota. */
  async creditDeposit(userId: number, amount: number, memo: string): Promise<{ quota: number }> {
    return writeTransaction(this.database, async (tx) => {
      const clearing = await this.repo.account(tx, PLATFORM, 'platform_clearing')
      const quota = await this.repo.account(tx, userId, 'quota')
      await this.repo.transfer(tx, { kind: 'deposit', memo, now: this.clock.now() }, [
        { accountId: clearing.id, kind: 'platform_clearing', amount: -amount },
        { accountId: quota.id, kind: 'quota', amount },
      ])
      return { quota: await this.repo.balanceOf(tx, userId, 'quota') }
    })
  }

  async balances(userId: number): Promise<{ balance: number; quota: number }> {
    const db = this.database.db
    return {
      balance: await this.repo.balanceOf(db, userId, 'balance'),
      quota: await this.repo.balanceOf(db, userId, 'quota'),
    }
  }
}
