/**
 * Double-entry ledger rules (DESIGN §6): every movement is one transfer whose postings sum to
 * zero, and no user account may go negative. Platform accounts (clearing for money from outside)
 * may, which is what keeps the sum over all accounts at zero.
 */
export type AccountKind =
  | 'balance'
  | 'deposit'
  /** Money a user asked to withdraw, held until staff pay or refuse it. */
  | 'withdrawal'
  | 'platform_clearing'
  | 'platform_revenue'
  | 'platform_fees'

export interface Posting {
  accountId: number
  amount: number
}

export interface AccountView {
  id: number
  kind: AccountKind
  balance: number
}

export type LedgerRefusal = 'UNBALANCED' | 'NOT_INTEGER' | 'EMPTY' | 'OVERDRAWN'

export const isUserAccount = (kind: AccountKind): boolean =>
  kind === 'balance' || kind === 'deposit' || kind === 'withdrawal'

/** Checks a transfer against the accounts it touches; null when it may be applied. */
export function checkTransfer(postings: Posting[], accounts: AccountView[]): LedgerRefusal | null {
  if (postings.length < 2) return 'EMPTY'
  if (postings.some((p) => !Number.isSafeInteger(p.amount) || p.amount === 0)) return 'NOT_INTEGER'
  if (postings.reduce((sum, p) => sum + p.amount, 0) !== 0) return 'UNBALANCED'
  for (const account of accounts) {
    const delta = postings
      .filter((p) => p.accountId === account.id)
      .reduce((s, p) => s + p.amount, 0)
    if (isUserAccount(account.kind) && account.balance + delta < 0) return 'OVERDRAWN'
  }
  return null
}
