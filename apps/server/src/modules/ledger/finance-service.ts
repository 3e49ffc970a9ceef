import type { Balances } from '@numisma/contracts/account'
import { moveToDeposit } from '@numisma/domain/postings'
import { depositInUse, freeDeposit, type OverdueClaim } from '@numisma/domain/quota'
import type { Clock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import { type IdempotencyStore, requestHash } from '../../platform/idempotency'
import type { Transact, Tx } from '../../platform/transactions'
import type { LedgerService } from './service'

/**
 * What moving deposit needs from bidding (BiddingService.heldDeposit satisfies it): the deposit,
 * exposure and what overdue won lots claim, read under the lock a bid takes on the user's
 * exposure, in the caller's transaction.
 */
export interface DepositHolds {
  heldDeposit(
    tx: Tx,
    userId: number,
  ): Promise<{ deposit: number; exposure: number; multiplier: number; overdue: OverdueClaim }>
}

export interface FinanceDeps {
  transact: Transact
  clock: Clock
  ledger: Pick<LedgerService, 'lock' | 'balanceIn' | 'post'>
  holds: DepositHolds
  idempotency: Pick<IdempotencyStore, 'claim' | 'complete'>
}

/**
 * The user's own money between balance and deposit (spec §7 `PATCH /user/{userId}/@finance`,
 * DESIGN §4): balance → deposit as far as the balance goes, deposit → balance only as far as the
 * exposure and overdue won lots (whose forfeits take their hammers from it) leave it free —
 * judged under the same lock bids take, so a bid and a move back cannot both count on the same
 * deposit, and an overdue winner cannot empty the deposit before staff take what the lot is owed.
 */
export class FinanceService {
  constructor(private readonly deps: FinanceDeps) {}

  /** Positive `amount` moves balance → deposit, negative deposit → balance (fen). */
  async move(
    callerId: number,
    userId: number,
    amount: number,
    idempotencyKey?: string,
  ): Promise<Balances> {
    // Another user's money is not there to see (DESIGN §9).
    if (callerId !== userId) throw new AppError('NOT_FOUND')
    const { transact, clock, ledger, holds, idempotency } = this.deps
    const hash = requestHash({ userId, amount })
    return transact(async (tx) => {
      // The balance and deposit accounts first (in id order, as transfers take them), then the
      // exposure under the bids' lock; nothing else can change either until this commits.
      await ledger.lock(tx, userId, ['balance', 'deposit'])
      const held = await holds.heldDeposit(tx, userId)
      const now = clock.now()
      // After the locks, so a concurrent retry with the same key waits and then replays.
      if (idempotencyKey) {
        const claim = await idempotency.claim<Balances>(tx, userId, idempotencyKey, hash, now)
        if (claim.kind === 'replay') return claim.result
      }
      const balance = await ledger.balanceIn(tx, userId, 'balance')
      if (amount > 0 && amount > balance) throw new AppError('BALANCE_LOW', { balance })
      const inUse = amount < 0 ? depositInUse(held, -amount) : null
      if (inUse) throw new AppError('DEPOSIT_IN_USE', { ...inUse })
      await ledger.post(
        tx,
        userId,
        {
          kind: amount > 0 ? 'move_to_deposit' : 'move_to_balance',
          memo: amount > 0 ? 'balance to deposit' : 'deposit to balance',
          now,
        },
        moveToDeposit(amount),
      )
      const deposit = await ledger.balanceIn(tx, userId, 'deposit')
      const result: Balances = {
        balance: await ledger.balanceIn(tx, userId, 'balance'),
        deposit,
        freeDeposit: freeDeposit({ ...held, deposit }),
      }
      if (idempotencyKey) await idempotency.complete(tx, userId, idempotencyKey, result)
      return result
    })
  }
}
