import type { AccountSettings, SetPayPassword } from '@numisma/contracts/account'
import type { Clock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import type { PayPasswordHasher } from './pay-password-hasher'
import type { PayPasswordVerifier } from './pay-password-verifier'
import type { AccountRepository } from './repository'

export interface AccountServiceDeps {
  clock: Clock
  accounts: Pick<AccountRepository, 'find' | 'insertIfMissing' | 'replaceHash' | 'mobileOf'>
  hasher: PayPasswordHasher
  verifier: Pick<PayPasswordVerifier, 'check'>
  /**
   * Checks an SMS code sent to the mobile through `POST /passport/sms` and uses it up (the passport
   * service); throws SMS_CODE_INVALID.
   */
  consumeSmsCode: (mobile: string, code: string) => Promise<void>
}

/** The user's account settings: the payment password (DESIGN §3). */
export class AccountService {
  constructor(private readonly deps: AccountServiceDeps) {}

  async settings(userId: number): Promise<AccountSettings> {
    const stored = await this.deps.accounts.find(userId)
    const lockedUntil = stored?.lockedUntil ?? null
    return {
      payPasswordSet: stored !== undefined,
      payLockedUntil:
        lockedUntil !== null && lockedUntil > this.deps.clock.now()
          ? new Date(lockedUntil).toISOString()
          : null,
    }
  }

  /**
   * A first password is simply set. Changing it needs proof: the old password (checked like a
   * payment, so a wrong one counts towards the lock) or an SMS code sent to the user's own mobile.
   * A new password starts a fresh count of wrong tries, but a running lock stays until it ends.
   */
  async setPayPassword(userId: number, input: SetPayPassword): Promise<{ payPasswordSet: true }> {
    const { accounts, hasher, clock } = this.deps
    if (!(await accounts.find(userId))) {
      const hash = await hasher.hash(input.password)
      if (await accounts.insertIfMissing(userId, hash, clock.now())) return { payPasswordSet: true }
      // A concurrent first set won: from here on this is a change, which needs proof.
    }

    if (input.oldPassword !== undefined) {
      const verified = await this.deps.verifier.check(userId, input.oldPassword)
      const hash = await hasher.hash(input.password)
      // Only the password just proven is replaced: one changed meanwhile is no longer "the old one".
      if (!(await accounts.replaceHash(userId, hash, clock.now(), verified))) {
        throw new AppError('PAY_PASSWORD_WRONG')
      }
      return { payPasswordSet: true }
    }

    if (input.smsCode !== undefined) {
      const mobile = await accounts.mobileOf(userId)
      if (mobile === undefined) throw new AppError('UNAUTHENTICATED')
      await this.deps.consumeSmsCode(mobile, input.smsCode)
      const hash = await hasher.hash(input.password)
      await accounts.replaceHash(userId, hash, clock.now())
      return { payPasswordSet: true }
    }

    throw new AppError('PAY_PASSWORD_PROOF_REQUIRED')
  }
}
