import type { Clock } from '../../platform/clock'
import type { Database } from '../../platform/db'
import { IdempotencyStore, requestHash } from '../../platform/idempotency'
import { writeTransaction } from '../../platform/transactions'
import { LedgerRepository, PLATFORM } from './repository'

/** Idempotency keys are per owner: a user's id, or a negative id for staff (DESIGN §2). */
export interface IdempotencyClaim {
  owner: number
  key: string
}

/**
 * Money movements that are whole use cases (more arrive with payment and orders). A user's
 * *deposit* (保证金) is a ledger account; the bidding *quota* is derived from it elsewhere.
 */
export class LedgerService {
  private readonly idempotency = new IdempotencyStore()

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly repo: LedgerRepository = new LedgerRepository(database.dialect),
  ) {}

  /** Money paid in from outside (at the counter, or the demo's gift) onto the user's deposit. */
  async creditDeposit(
    userId: number,
    amount: number,
    memo: string,
    idempotency?: IdempotencyClaim,
  ): Promise<{ deposit: number }> {
    return writeTransaction(this.database, async (tx) => {
      if (idempotency) {
        const hash = requestHash({ userId, amount, memo })
        // Results stored before the deposit/quota renaming say `quota` for the deposit balance.
        const claim = await this.idempotency.claim<{ deposit?: number; quota?: number }>(
          tx,
          idempotency.owner,
          idempotency.key,
          hash,
          this.clock.now(),
        )
        if (claim.kind === 'replay') {
          return { deposit: claim.result.deposit ?? claim.result.quota ?? 0 }
        }
      }
      const clearing = await this.repo.account(tx, PLATFORM, 'platform_clearing')
      const deposit = await this.repo.account(tx, userId, 'deposit')
      await this.repo.transfer(tx, { kind: 'deposit', memo, now: this.clock.now() }, [
        { accountId: clearing.id, kind: 'platform_clearing', amount: -amount },
        { accountId: deposit.id, kind: 'deposit', amount },
      ])
      const result = { deposit: await this.repo.balanceOf(tx, userId, 'deposit') }
      if (idempotency)
        await this.idempotency.complete(tx, idempotency.owner, idempotency.key, result)
      return result
    })
  }

  async balances(userId: number): Promise<{ balance: number; deposit: number }> {
    const db = this.database.db
    return {
      balance: await this.repo.balanceOf(db, userId, 'balance'),
      deposit: await this.repo.balanceOf(db, userId, 'deposit'),
    }
  }
}
