import type { AccountKind } from '@numisma/domain/ledger'
import { creditDeposit, type Leg } from '@numisma/domain/postings'
import type { Clock } from '../../platform/clock'
import type { Database } from '../../platform/db'
import { IdempotencyStore, requestHash } from '../../platform/idempotency'
import { type Tx, writeTransaction } from '../../platform/transactions'
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
      await this.post(
        tx,
        userId,
        { kind: 'deposit', memo, now: this.clock.now() },
        creditDeposit(amount),
      )
      const result = { deposit: await this.repo.balanceOf(tx, userId, 'deposit') }
      if (idempotency)
        await this.idempotency.complete(tx, idempotency.owner, idempotency.key, result)
      return result
    })
  }

  /**
   * Posts one transfer of a posting rule's legs (packages/domain/src/postings.ts) inside the
   * caller's transaction: a user's legs go to that user's accounts, a platform's to the platform's.
   * Refuses (VALIDATION_FAILED with the ledger's reason), writing nothing, if a rule would be
   * broken — an overdrawn user account above all; callers check the balance first to answer with
   * their own code (BALANCE_LOW, DEPOSIT_IN_USE). Returns the transfer's id.
   */
  async post(
    tx: Tx,
    userId: number,
    transfer: { kind: string; memo: string; now: number },
    legs: readonly Leg[],
  ): Promise<number> {
    const postings = []
    for (const leg of legs) {
      const account = await this.repo.account(
        tx,
        leg.owner === 'user' ? userId : PLATFORM,
        leg.kind,
      )
      postings.push({ accountId: account.id, kind: leg.kind, amount: leg.amount })
    }
    return this.repo.transfer(tx, transfer, postings)
  }

  /** One of the user's account balances, read in the caller's transaction. */
  balanceIn(tx: Tx, userId: number, kind: AccountKind): Promise<number> {
    return this.repo.balanceOf(tx, userId, kind)
  }

  async balances(userId: number): Promise<{ balance: number; deposit: number }> {
    const db = this.database.db
    return {
      balance: await this.repo.balanceOf(db, userId, 'balance'),
      deposit: await this.repo.balanceOf(db, userId, 'deposit'),
    }
  }
}
