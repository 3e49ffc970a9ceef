import { sql } from 'kysely'
import type { Tx } from '../../platform/transactions'

const num = (value: number | string | bigint | null | undefined): number => Number(value ?? 0)

/** The daily ledger report's reads (issue 12): postings by time, sums by account kind. */
export class LedgerReportRepository {
  /** Every posting of transfers made in [from, to), with its transfer and account kind. */
  async postingsBetween(tx: Tx, from: number, to: number) {
    return tx
      .selectFrom('ledger_transfers as t')
      .innerJoin('ledger_postings as p', 'p.transfer_id', 't.id')
      .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
      .select(['t.id as transferId', 't.kind as transferKind', 'a.kind as account', 'p.amount'])
      .where('t.created_at', '>=', from)
      .where('t.created_at', '<', to)
      .orderBy('t.id')
      .orderBy('p.id')
      .execute()
  }

  /** Per account kind, the sum of postings of transfers made before `at` (or from `at` on). */
  async postedSums(tx: Tx, at: number, side: 'before' | 'since'): Promise<Record<string, number>> {
    const rows = await tx
      .selectFrom('ledger_postings as p')
      .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
      .innerJoin('ledger_transfers as t', 't.id', 'p.transfer_id')
      .select(['a.kind', sql<number | string>`coalesce(sum(p.amount), 0)`.as('sum')])
      .where('t.created_at', side === 'before' ? '<' : '>=', at)
      .groupBy('a.kind')
      .execute()
    return Object.fromEntries(rows.map((r) => [r.kind, num(r.sum)]))
  }

  /** Per account kind, the accounts' stored balances now. */
  async storedBalances(tx: Tx): Promise<Record<string, number>> {
    const rows = await tx
      .selectFrom('ledger_accounts')
      .select(['kind', sql<number | string>`coalesce(sum(balance), 0)`.as('sum')])
      .groupBy('kind')
      .execute()
    return Object.fromEntries(rows.map((r) => [r.kind, num(r.sum)]))
  }
}
