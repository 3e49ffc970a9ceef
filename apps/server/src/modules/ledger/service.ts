import type { AccountKind } from '@numisma/domain/ledger'
import { creditBalance, creditDeposit, type Leg } from '@numisma/domain/postings'
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

/** What a credit stored for its idempotency key (`quota`: the deposit, before the renaming). */
interface StoredCredit {
  balance?: number
  deposit?: number
  quota?: number
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
    const deposit = await this.creditFromOutside(
      { userId, amount, memo, account: 'deposit', transfer: 'deposit' },
      creditDeposit(amount),
      idempotency,
    )
    return { deposit }
  }

  /** Money paid in from outside (cash at the counter) onto the user's balance. */
  async creditBalance(
    userId: number,
    amount: number,
    memo: string,
    idempotency?: IdempotencyClaim,
  ): Promise<{ balance: number }> {
    const balance = await this.creditFromOutside(
      { userId, amount, memo, account: 'balance', transfer: 'balance_credit' },
      creditBalance(amount),
      idempotency,
    )
    return { balance }
  }

  /**
   * One credit from outside as its own transaction: the idempotency key claimed first (a credit
   * is never refused, so there is nothing to lock before it), the rule posted, and the credited
   * account's balance returned and stored for a retry to replay.
   */
  private creditFromOutside(
    credit: {
      userId: number
      amount: number
      memo: string
      account: 'balance' | 'deposit'
      transfer: string
    },
    rule: readonly Leg[],
    idempotency: IdempotencyClaim | undefined,
  ): Promise<number> {
    const { userId, amount, memo, account } = credit
    return writeTransaction(this.database, async (tx) => {
      if (idempotency) {
        // A deposit credit hashes as it always did, so keys stored before the balance credit
        // existed still replay; a balance credit's hash names its account.
        const hash = requestHash(
          account === 'deposit' ? { userId, amount, memo } : { userId, amount, memo, account },
        )
        const claim = await this.idempotency.claim<StoredCredit>(
          tx,
          idempotency.owner,
          idempotency.key,
          hash,
          this.clock.now(),
        )
        if (claim.kind === 'replay') {
          // Results stored before the deposit/quota renaming say `quota` for the deposit.
          const stored = claim.result
          return (account === 'deposit' ? (stored.deposit ?? stored.quota) : stored.balance) ?? 0
        }
      }
      await this.post(tx, userId, { kind: credit.transfer, memo, now: this.clock.now() }, rule)
      const result = await this.repo.balanceOf(tx, userId, account)
      if (idempotency) {
        await this.idempotency.complete(tx, idempotency.owner, idempotency.key, {
          [account]: result,
        })
      }
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

  /**
   * Locks the user's accounts of these kinds (opening them if need be) for the rest of the
   * caller's transaction, so `balanceIn` afterwards reads a balance nobody else can change first.
   */
  lock(tx: Tx, userId: number, kinds: readonly AccountKind[]): Promise<void> {
    return this.repo.lock(tx, userId, kinds)
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
