import type { LedgerDailyReport } from '@numisma/contracts/staff-money'
import { chinaDayRange, dailyLedgerReport, type DayTransfer } from '@numisma/domain/ledger-report'
import { sql } from 'kysely'
import type { Database } from '../../platform/db'
import type { Tx } from '../../platform/transactions'
import { LedgerReportRepository } from './report-repository'

/**
 * Runs reads on one snapshot, so a report's figures agree even while money moves: SQLite's
 * deferred transaction holds its read snapshot, PostgreSQL's repeatable read does the same.
 */
async function snapshotRead<T>(database: Database, work: (tx: Tx) => Promise<T>): Promise<T> {
  if (database.dialect === 'sqlite') {
    return database.db.connection().execute(async (conn) => {
      await sql`begin`.execute(conn)
      try {
        return await work(conn)
      } finally {
        await sql`commit`.execute(conn)
      }
    })
  }
  return database.db.transaction().setIsolationLevel('repeatable read').execute(work)
}

/**
 * The daily ledger report (issue 12): the China day's transfers, and per account kind the opening
 * balance (postings before the day), movements, and the closing balance taken from the accounts'
 * stored balances less what was posted after the day — so the report checks the stored balances
 * against the postings as well as each transfer's own balance (packages/domain/src/ledger-report).
 */
export class LedgerReportService {
  constructor(
    private readonly database: Database,
    private readonly repo: LedgerReportRepository = new LedgerReportRepository(),
  ) {}

  daily(date: string): Promise<LedgerDailyReport> {
    const { from, to } = chinaDayRange(date)
    return snapshotRead(this.database, async (tx) => {
      const postings = await this.repo.postingsBetween(tx, from, to)
      const opening = await this.repo.postedSums(tx, from, 'before')
      const stored = await this.repo.storedBalances(tx)
      const since = await this.repo.postedSums(tx, to, 'since')
      const closing = Object.fromEntries(
        [...new Set([...Object.keys(stored), ...Object.keys(since)])].map((kind) => [
          kind,
          (stored[kind] ?? 0) - (since[kind] ?? 0),
        ]),
      )
      const transfers = new Map<number, DayTransfer>()
      for (const p of postings) {
        const transfer = transfers.get(p.transferId) ?? {
          id: p.transferId,
          kind: p.transferKind,
          postings: [],
        }
        transfer.postings.push({ account: p.account, amount: p.amount })
        transfers.set(p.transferId, transfer)
      }
      return dailyLedgerReport({ date, transfers: [...transfers.values()], opening, closing })
    })
  }
}
