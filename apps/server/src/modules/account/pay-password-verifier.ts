import { PAY_LOCK_HOURS, PAY_PASSWORD_MAX_TRIES } from '@numisma/contracts/account'
import type { Clock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import type { Transact } from '../../platform/transactions'
import type { PayPasswordCheck } from '../payments/ports'
import type { PayPasswordHasher } from './pay-password-hasher'
import type { AccountRepository, StoredPayPassword } from './repository'

export interface PayPasswordVerifierDeps {
  transact: Transact
  clock: Clock
  passwords: Pick<AccountRepository, 'find' | 'lock' | 'saveTries'>
  hasher: PayPasswordHasher
}

const LOCK_MS = PAY_LOCK_HOURS * 60 * 60 * 1000
/** A password changed between the hash check and the row lock is checked again, this often. */
const MAX_ROUNDS = 3

type Outcome =
  | { kind: 'right'; hash: string }
  | { kind: 'wrong'; triesLeft: number }
  | { kind: 'locked'; until: number }
  | { kind: 'changed' }

const lockedError = (until: number) =>
  new AppError('PAY_LOCKED', { until: new Date(until).toISOString() })

const isLocked = (stored: StoredPayPassword, now: number): boolean =>
  stored.lockedUntil !== null && stored.lockedUntil > now

/**
 * The payment password check of DESIGN §3 (PayPasswordCheck, which payments use before money leaves
 * a balance; changing the password uses it for the old one). The slow argon2 check runs outside any
 * transaction; its verdict is then applied under the row lock, where the lock and the count are
 * judged again — so twenty concurrent wrong tries lock payment after exactly five, and a right
 * password that arrives once the lock is set is still refused.
 */
export class PayPasswordVerifier implements PayPasswordCheck {
  constructor(private readonly deps: PayPasswordVerifierDeps) {}

  async verify(userId: number, password: string | undefined): Promise<void> {
    await this.check(userId, password)
  }

  /** As `verify`, returning the hash that matched (a change replaces only that one). */
  async check(userId: number, password: string | undefined): Promise<string> {
    const { passwords, hasher, clock } = this.deps
    for (let round = 1; ; round++) {
      const stored = await passwords.find(userId)
      if (!stored) throw new AppError('PAY_PASSWORD_NOT_SET')
      // Checked before hashing too: a locked account costs no 19 MiB hash per try.
      if (isLocked(stored, clock.now())) throw lockedError(stored.lockedUntil!)
      // No password is no guess: refused, not counted.
      if (password === undefined) throw new AppError('PAY_PASSWORD_WRONG', { missing: true })
      const right = await hasher.verify(stored.hash, password)
      const outcome = await this.record(userId, stored.hash, right)
      switch (outcome.kind) {
        case 'right':
          return outcome.hash
        case 'wrong':
          throw new AppError('PAY_PASSWORD_WRONG', { triesLeft: outcome.triesLeft })
        case 'locked':
          throw lockedError(outcome.until)
        case 'changed':
          if (round >= MAX_ROUNDS) throw new AppError('PAY_PASSWORD_WRONG')
      }
    }
  }

  /** Applies a verdict about `checkedHash` under the row lock; commits before any refusal. */
  private record(userId: number, checkedHash: string, right: boolean): Promise<Outcome> {
    const { transact, passwords, clock } = this.deps
    return transact(async (tx): Promise<Outcome> => {
      const row = await passwords.lock(tx, userId)
      if (!row || row.hash !== checkedHash) return { kind: 'changed' }
      const now = clock.now()
      if (isLocked(row, now)) return { kind: 'locked', until: row.lockedUntil! }
      if (right) {
        if (row.failedTries !== 0 || row.lockedUntil !== null) {
          await passwords.saveTries(tx, userId, { failedTries: 0, lockedUntil: null }, now)
        }
        return { kind: 'right', hash: row.hash }
      }
      // A lock that has run out starts a fresh count.
      const failedTries = (row.lockedUntil === null ? row.failedTries : 0) + 1
      if (failedTries >= PAY_PASSWORD_MAX_TRIES) {
        const until = now + LOCK_MS
        await passwords.saveTries(tx, userId, { failedTries, lockedUntil: until }, now)
        return { kind: 'locked', until }
      }
      await passwords.saveTries(tx, userId, { failedTries, lockedUntil: null }, now)
      return { kind: 'wrong', triesLeft: PAY_PASSWORD_MAX_TRIES - failedTries }
    })
  }
}
