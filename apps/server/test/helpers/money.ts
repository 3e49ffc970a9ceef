import { ClosingSweeper } from '../../src/modules/bidding/closing'
import { BankingRepository } from '../../src/modules/finance/repository'
import { LedgerService } from '../../src/modules/ledger/service'
import type { Session, TestApp } from './app'
import { createLot, creditDeposit } from './auction'

const MINUTE = 60_000

/**
 * A lot `winner` won at `hammer` (test data builder): the lot opens, they bid, it closes through
 * the real sweeper and its order (hammer + 10 % fee, due in 3 days) is pending payment. The clock
 * moves on by the lot's minute. Credits a deposit of the hammer (room for other bids) unless `deposit` says how much.
 */
export async function winLot(
  t: TestApp,
  winner: Session,
  hammer: number,
  options: { deposit?: number } = {},
): Promise<{ lotId: number; orderId: number; total: number }> {
  // No soft close: the bid must not move the end past the minute.
  const lotId = await createLot(t, {
    startPrice: hammer,
    endsAt: t.clock.now() + MINUTE,
    softCloseWindowSeconds: 0,
  })
  const deposit = options.deposit ?? hammer
  if (deposit > 0) await creditDeposit(t, winner.userId, deposit)
  const bid = await t.call({
    method: 'POST',
    path: '/bidding/bid',
    as: winner,
    body: { lotId, amount: hammer, proxy: false },
  })
  if (bid.statusCode !== 200) throw new Error(`bid failed: ${bid.body}`)
  t.clock.advance(MINUTE)
  await ClosingSweeper.forDatabase(t.database, t.clock, t.app.bus).sweep()
  const order = await t.database.db
    .selectFrom('orders')
    .select(['id', 'total'])
    .where('lot_id', '=', lotId)
    .executeTakeFirstOrThrow()
  return { lotId, orderId: order.id, total: order.total }
}

/** The company accounts of the demo seed's shape, added through the module's repository. */
export async function addCompanyBanks(t: TestApp): Promise<number[]> {
  const banks = new BankingRepository(t.database.db, t.database.dialect)
  return [
    await banks.addCompanyBank({
      bankName: '招商银行',
      branch: '北京宣武门支行',
      accountName: '泉藏拍卖（北京）文化有限公司',
      accountNo: '1109273516100020168',
      sort: 2,
    }),
    await banks.addCompanyBank({
      bankName: '中国工商银行',
      branch: '北京潘家园支行',
      accountName: '泉藏拍卖（北京）文化有限公司',
      accountNo: '0200248909200135678',
      sort: 1,
    }),
  ]
}

/** A user's ledger balance of one kind, as committed. */
export async function balanceOf(
  t: TestApp,
  user: Session,
  kind: 'balance' | 'deposit' | 'withdrawal',
): Promise<number> {
  const { balance, deposit } = await new LedgerService(t.database, t.clock).balances(
    Number(user.userId),
  )
  if (kind === 'balance') return balance
  if (kind === 'deposit') return deposit
  const row = await t.database.db
    .selectFrom('ledger_accounts')
    .select('balance')
    .where('user_id', '=', Number(user.userId))
    .where('kind', '=', 'withdrawal')
    .executeTakeFirst()
  return row?.balance ?? 0
}

/** Credits a user's balance as cash at the counter would (clearing → balance). */
export async function creditBalance(t: TestApp, user: Session, amount: number): Promise<void> {
  await new LedgerService(t.database, t.clock).creditBalance(Number(user.userId), amount, 'test')
}
