import type { UserStatistics } from '@numisma/contracts/user'

export type WithdrawalSource = 'balance' | 'deposit'

/**
 * What may be withdrawn from each source now: the whole balance, and the deposit the server says
 * is free — what open bids, unpaid orders and any overdue lot's claim leave (DESIGN §4). The
 * server works it out by the rule it judges the request with; the screen does not guess it.
 */
export function withdrawable(
  user: Pick<UserStatistics, 'balance' | 'freeDeposit'>,
): Record<WithdrawalSource, number> {
  return { balance: Math.max(0, user.balance), deposit: Math.max(0, user.freeDeposit) }
}
