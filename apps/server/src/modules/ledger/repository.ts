import { type AccountKind, checkTransfer, type Posting } from '@numisma/domain/ledger'
import { AppError } from '../../platform/errors'
import type { Dialect } from '../../platform/db'
import type { Tx } from '../../platform/transactions'

export const PLATFORM = 0

/** All ledger SQL. Every method runs inside the caller's transaction. */
export class LedgerRepository {
  constructor(private readonly dialect: Dialect) {}

  /** The account of (owner, kind), created empty on first use. */
  async account(tx: Tx, userId: number, kind: AccountKind) {
    await tx
      .insertInto('ledger_accounts')
      .values({ user_id: userId, kind, balance: 0 })
      .onConflict((oc) => oc.columns(['user_id', 'kind']).doNothing())
      .execute()
    return tx
      .selectFrom('ledger_accounts')
      .selectAll()
      .where('user_id', '=', userId)
      .where('kind', '=', kind)
      .executeTakeFirstOrThrow()
  }

  /**
   * Opens the user's accounts of these kinds if need be and locks them, in id order as transfers
   * do, so balances read afterwards stay true until the transaction ends (SQLite's write lock
   * already holds everything).
   */
  async lock(tx: Tx, userId: number, kinds: readonly AccountKind[]): Promise<void> {
    for (const kind of kinds) await this.account(tx, userId, kind)
    if (this.dialect !== 'postgres') return
    await tx
      .selectFrom('ledger_accounts')
      .select('id')
      .where('user_id', '=', userId)
      .where('kind', 'in', [...kinds])
      .orderBy('id')
      .forUpdate()
      .execute()
  }

  async balanceOf(tx: Tx, userId: number, kind: AccountKind): Promise<number> {
    const row = await tx
      .selectFrom('ledger_accounts')
      .select('balance')
      .where('user_id', '=', userId)
      .where('kind', '=', kind)
      .executeTakeFirst()
    return row?.balance ?? 0
  }

  /** Applies one balanced transfer; refuses (and writes nothing) if it would break a rule. */
  async transfer(
    tx: Tx,
    transfer: { kind: string; memo: string; now: number },
    postings: (Posting & { kind: AccountKind })[],
  ): Promise<number> {
    const ids = [...new Set(postings.map((p) => p.accountId))].sort((a, b) => a - b)
    let query = tx
      .selectFrom('ledger_accounts')
      .select(['id', 'kind', 'balance'])
      .where('id', 'in', ids)
      .orderBy('id')
    // Lock the accounts (in id order, so two transfers cannot deadlock) before checking balances.
    if (this.dialect === 'postgres') query = query.forUpdate()
    const accounts = await query.execute()
    const refusal = checkTransfer(
      postings,
      accounts.map((a) => ({ id: a.id, kind: a.kind as AccountKind, balance: a.balance })),
    )
    if (refusal) throw new AppError('VALIDATION_FAILED', { ledger: refusal })
    const { id } = await tx
      .insertInto('ledger_transfers')
      .values({ kind: transfer.kind, memo: transfer.memo, created_at: transfer.now })
      .returning('id')
      .executeTakeFirstOrThrow()
    for (const p of postings) {
      await tx
        .insertInto('ledger_postings')
        .values({ transfer_id: id, account_id: p.accountId, amount: p.amount })
        .execute()
      await tx
        .updateTable('ledger_accounts')
        .set((eb) => ({ balance: eb('balance', '+', p.amount) }))
        .where('id', '=', p.accountId)
        .execute()
    }
    return id
  }
}
