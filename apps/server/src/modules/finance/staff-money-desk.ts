import type { Clock } from '../../platform/clock'
import type { Database } from '../../platform/db'
import { IdempotencyStore } from '../../platform/idempotency'
import { transactor } from '../../platform/transactions'
import { LedgerReportService } from '../ledger/report-service'
import type { BankingLedger, HeldDeposit } from './service'
import type { MoneyDeskRouteOptions } from './staff-money-routes'
import { MoneyDeskService } from './staff-money-service'
import { StaffMoneyRepository } from './staff-money-repository'

/** The money area's services as app.ts wires them (issue 12): one call at the area's marker. */
export function moneyDeskFor(deps: {
  database: Database
  clock: Clock
  ledger: BankingLedger
  heldDeposit: HeldDeposit
  bidding: {
    quotaOf(userId: number): Promise<{ quota: number; exposure: number; freeDeposit: number }>
  }
}): MoneyDeskRouteOptions {
  const { database } = deps
  return {
    desk: new MoneyDeskService({
      transact: transactor(database),
      clock: deps.clock,
      repo: new StaffMoneyRepository(database.db, database.dialect),
      ledger: deps.ledger,
      heldDeposit: deps.heldDeposit,
      quotaOf: (userId) => deps.bidding.quotaOf(userId),
      idempotency: new IdempotencyStore(database.db),
      reader: database.db,
    }),
    report: new LedgerReportService(database),
  }
}
