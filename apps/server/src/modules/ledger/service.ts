import type { Clock } from '../../platform/clock'
import type { Database } from '../../platform/db'
import { IdempotencyStore, requestHash } from '../../platform/idempotency'
import { writeTransaction } from '../../platform/transactions'
import { LedgerRepository, PLATFORM } from './repository'

/** Money movements that are whole use cases (more arrive with payment and orders). */
export class LedgerService {
  private readonly repo: LedgerRepository
  private readonly idempotency = new IdempotencyStore()

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
  ) {
    this.repo = new LedgerRepository(database.dialect)
  }

  /** An operator records a deposit paid at the counter: money from outside into the user's quota. */
  async creditDeposit(
    userId: number,
    amount: number,
    memo: string,
    idempotency?: { owner: number; key: string },
  ): Promise<{ quota: number }> {
    return writeTransaction(this.database, async (tx) => {
      if (idempotency) {
        const hash = requestHash({ userId, amount, memo })
        const claim = await this.idempotency.claim<{ quota: number }>(
          tx,
          idempotency.owner,
          idempotency.key,
          hash,
          this.clock.now(),
        )
        if (claim.kind === 'replay') return claim.result
      }
      const clearing = await this.repo.account(tx, PLATFORM, 'platform_clearing')
      const quota = await this.repo.account(tx, userId, 'quota')
      await this.repo.transfer(tx, { kind: 'deposit', memo, now: this.clock.now() }, [
        { accountId: clearing.id, kind: 'platform_clearing', amount: -amount },
        { accountId: quota.id, kind: 'quota', amount },
      ])
      const result = { quota: await this.repo.balanceOf(tx, userId, 'quota') }
      if (idempotency)
        await this.idempotency.complete(tx, idempotency.owner, idempotency.key, result)
      return result
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
