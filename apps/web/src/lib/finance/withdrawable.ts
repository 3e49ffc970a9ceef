import { freeDeposit } from '@numisma/domain/quota'
import type { UserStatistics } from '@numisma/contracts/user'

export type WithdrawalSource = 'balance' | 'deposit'

/**
 * What may be withdrawn from each source now: the whole balance, and the deposit that open bids
 * and unpaid orders leave free by the domain's rule. The statistics carry the quota rather than
 * the server's multiplier; quota = deposit × multiplier (DESIGN §4) gives it back exactly.
 */
export function withdrawable(
  user: Pick<UserStatistics, 'balance' | 'deposit' | 'quota' | 'exposure'>,
): Record<WithdrawalSource, number> {
  const balance = Math.max(0, user.balance)
  if (user.deposit <= 0) return { balance, deposit: 0 }
  const multiplier = user.quota / user.deposit
  if (!(multiplier > 0)) return { balance, deposit: 0 }
  return {
    balance,
    deposit: freeDeposit({ deposit: user.deposit, exposure: user.exposure, multiplier }),
  }
}
