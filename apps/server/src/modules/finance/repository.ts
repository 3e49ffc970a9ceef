import { UNPAID_STATUSES } from '@numisma/domain/order-status'
import type { Kysely } from 'kysely'
import type { Dialect } from '../../platform/db'
import type { DB, RemittancesTable, WithdrawalsTable } from '../../platform/schema'
import type { Tx } from '../../platform/transactions'

export interface CompanyBankRow {
  id: number
  bank_name: string
  branch: string
  account_name: string
  account_no: string
}
export type RemittanceRow = Omit<RemittancesTable, 'id' | 'receipt'> & {
  id: number
  hasReceipt: boolean
  /** The company account the notice names (staff views); absent where not read. */
  companyBank?: CompanyBankRow | null
}
export type WithdrawalRow = Omit<WithdrawalsTable, 'id'> & { id: number }

export interface NewRemittance {
  userId: number
  companyBankId: number
  amount: number
  payerName: string
  payerBank: string
  remittedOn: string
  orderIds: readonly number[]
  /** The re-encoded JPEG, base64 (see receipt.ts for why it lives in the database). */
  receipt: string | null
  now: number
}

export interface NewWithdrawal {
  userId: number
  amount: number
  source: 'balance' | 'deposit'
  bankName: string
  accountName: string
  accountNo: string
  now: number
}

const REMITTANCE_COLUMNS = [
  'id',
  'user_id',
  'company_bank_id',
  'amount',
  'payer_name',
  'payer_bank',
  'remitted_on',
  'order_ids',
  'status',
  'note',
  'transfer_id',
  'created_at',
  'decided_at',
  'amount_received',
] as const

/**
 * The SQL of company bank accounts, remittance notices and withdrawals. Methods that take `tx` run
 * in the caller's write transaction; on PostgreSQL the row locks they take (a notice, a withdrawal,
 * the orders a notice names) are what make a decision happen exactly once. Receipts are never read
 * with the lists, only one at a time.
 */
export class BankingRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  companyBanks() {
    return this.db
      .selectFrom('company_banks')
      .select(['id', 'bank_name', 'branch', 'account_name', 'account_no'])
      .where('active', '=', 1)
      .orderBy('sort')
      .orderBy('id')
      .execute()
  }

  /** Adds one of the company's accounts (the demo seed; an operator screen later). */
  async addCompanyBank(bank: {
    bankName: string
    branch: string
    accountName: string
    accountNo: string
    sort: number
  }): Promise<number> {
    const { id } = await this.db
      .insertInto('company_banks')
      .values({
        bank_name: bank.bankName,
        branch: bank.branch,
        account_name: bank.accountName,
        account_no: bank.accountNo,
        active: 1,
        sort: bank.sort,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    return id
  }

  async activeCompanyBank(tx: Tx, id: number): Promise<boolean> {
    const row = await tx
      .selectFrom('company_banks')
      .select('id')
      .where('id', '=', id)
      .where('active', '=', 1)
      .executeTakeFirst()
    return row !== undefined
  }

  /**
   * Locks the caller's orders among `orderIds` (in id order, as paying takes them) and returns
   * what paying judges them by; another user's order is simply not among them.
   */
  async lockOrdersOf(
    tx: Tx,
    userId: number,
    orderIds: readonly number[],
  ): Promise<
    {
      id: number
      status: string
      total: number
      kind: string
      due_at: number | null
      pay_method: string | null
    }[]
  > {
    if (orderIds.length === 0) return []
    let query = tx
      .selectFrom('orders')
      .select(['id', 'status', 'total', 'kind', 'due_at', 'pay_method'])
      .where('user_id', '=', userId)
      .where('id', 'in', [...orderIds])
      .orderBy('id')
    if (this.dialect === 'postgres') query = query.forUpdate()
    return query.execute()
  }

  /**
   * The buyer chose bank remittance for these unpaid orders: a mall order then waits for the money
   * instead of expiring after 30 minutes (DESIGN §5); `null` puts them back on the clock.
   */
  async setPayMethod(
    tx: Tx,
    orderIds: readonly number[],
    payMethod: 'remittance' | null,
  ): Promise<void> {
    if (orderIds.length === 0) return
    await tx
      .updateTable('orders')
      .set({ pay_method: payMethod })
      .where('id', 'in', [...orderIds])
      .where('status', 'in', [...UNPAID_STATUSES])
      .execute()
  }

  // Remittances.

  async insertRemittance(tx: Tx, r: NewRemittance): Promise<number> {
    const { id } = await tx
      .insertInto('remittances')
      .values({
        user_id: r.userId,
        company_bank_id: r.companyBankId,
        amount: r.amount,
        payer_name: r.payerName,
        payer_bank: r.payerBank,
        remitted_on: r.remittedOn,
        order_ids: JSON.stringify(r.orderIds),
        receipt: r.receipt,
        status: 'submitted',
        note: null,
        transfer_id: null,
        created_at: r.now,
        decided_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    return id
  }

  private remittanceRows(tx: Tx) {
    return tx
      .selectFrom('remittances')
      .select(REMITTANCE_COLUMNS)
      .select((eb) => eb('receipt', 'is not', null).as('has_receipt'))
      .select((eb) => {
        // Scalar subqueries, not a join, so the notice's FOR UPDATE locks the notice alone.
        const bank = (column: 'bank_name' | 'branch' | 'account_name' | 'account_no') =>
          eb
            .selectFrom('company_banks as b')
            .select(`b.${column}`)
            .whereRef('b.id', '=', 'remittances.company_bank_id')
            .as(`company_${column}`)
        return [bank('bank_name'), bank('branch'), bank('account_name'), bank('account_no')]
      })
  }

  private static toRemittance(
    row: Omit<RemittanceRow, 'hasReceipt' | 'companyBank'> & {
      has_receipt: unknown
      company_bank_name: string | null
      company_branch: string | null
      company_account_name: string | null
      company_account_no: string | null
    },
  ): RemittanceRow {
    const {
      has_receipt,
      company_bank_name,
      company_branch,
      company_account_name,
      company_account_no,
      ...rest
    } = row
    const companyBank =
      company_bank_name === null
        ? null
        : {
            id: rest.company_bank_id,
            bank_name: company_bank_name,
            branch: company_branch ?? '',
            account_name: company_account_name ?? '',
            account_no: company_account_no ?? '',
          }
    // SQLite answers 0/1, PostgreSQL a boolean.
    return { ...rest, hasReceipt: has_receipt === true || has_receipt === 1, companyBank }
  }

  async remittance(tx: Tx, id: number): Promise<RemittanceRow | undefined> {
    const row = await this.remittanceRows(tx).where('id', '=', id).executeTakeFirst()
    return row && BankingRepository.toRemittance(row)
  }

  /** Reads a notice for update: on PostgreSQL this row lock serialises the decisions on it. */
  async lockRemittance(tx: Tx, id: number): Promise<RemittanceRow | undefined> {
    let query = this.remittanceRows(tx).where('id', '=', id)
    if (this.dialect === 'postgres') query = query.forUpdate()
    const row = await query.executeTakeFirst()
    return row && BankingRepository.toRemittance(row)
  }

  /** A user's notices (or, without a user, everyone's), newest first. */
  async remittances(filter: { userId?: number; status?: string }): Promise<RemittanceRow[]> {
    let query = this.remittanceRows(this.db).orderBy('id', 'desc')
    if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId)
    if (filter.status !== undefined) query = query.where('status', '=', filter.status)
    return (await query.execute()).map((row) => BankingRepository.toRemittance(row))
  }

  /** The user's other notices still waiting for staff (a rejection keeps their orders waiting). */
  async submittedRemittanceOrderIds(tx: Tx, userId: number, except: number): Promise<number[]> {
    const rows = await tx
      .selectFrom('remittances')
      .select('order_ids')
      .where('user_id', '=', userId)
      .where('status', '=', 'submitted')
      .where('id', '!=', except)
      .execute()
    return rows.flatMap((r) => JSON.parse(r.order_ids) as number[])
  }

  async receipt(id: number): Promise<{ userId: number; receipt: string | null } | undefined> {
    const row = await this.db
      .selectFrom('remittances')
      .select(['user_id', 'receipt'])
      .where('id', '=', id)
      .executeTakeFirst()
    return row && { userId: row.user_id, receipt: row.receipt }
  }

  /** Records staff's decision; false, and nothing changed, when the notice was already decided. */
  async decideRemittance(
    tx: Tx,
    id: number,
    decision: {
      status: 'confirmed' | 'rejected'
      note: string | null
      transferId: number | null
      /** What arrived (a confirmation); null for a rejection. */
      amountReceived: number | null
      now: number
    },
  ): Promise<boolean> {
    const updated = await tx
      .updateTable('remittances')
      .set({
        status: decision.status,
        note: decision.note,
        transfer_id: decision.transferId,
        amount_received: decision.amountReceived,
        decided_at: decision.now,
      })
      .where('id', '=', id)
      .where('status', '=', 'submitted')
      .executeTakeFirst()
    return updated.numUpdatedRows === 1n
  }

  // Withdrawals.

  async insertWithdrawal(tx: Tx, w: NewWithdrawal): Promise<number> {
    const { id } = await tx
      .insertInto('withdrawals')
      .values({
        user_id: w.userId,
        amount: w.amount,
        source: w.source,
        bank_name: w.bankName,
        account_name: w.accountName,
        account_no: w.accountNo,
        status: 'requested',
        note: null,
        created_at: w.now,
        decided_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    return id
  }

  withdrawal(tx: Tx, id: number): Promise<WithdrawalRow | undefined> {
    return tx.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirst()
  }

  /** Reads a withdrawal for update: on PostgreSQL this row lock serialises staff's decisions. */
  lockWithdrawal(tx: Tx, id: number): Promise<WithdrawalRow | undefined> {
    let query = tx.selectFrom('withdrawals').selectAll().where('id', '=', id)
    if (this.dialect === 'postgres') query = query.forUpdate()
    return query.executeTakeFirst()
  }

  withdrawals(filter: { userId?: number; status?: string }): Promise<WithdrawalRow[]> {
    let query = this.db.selectFrom('withdrawals').selectAll().orderBy('id', 'desc')
    if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId)
    if (filter.status !== undefined) query = query.where('status', '=', filter.status)
    return query.execute()
  }

  /** Records staff's decision; false, and nothing changed, when it was already decided. */
  async decideWithdrawal(
    tx: Tx,
    id: number,
    decision: { status: 'paid' | 'refused'; note: string | null; now: number },
  ): Promise<boolean> {
    const updated = await tx
      .updateTable('withdrawals')
      .set({ status: decision.status, note: decision.note, decided_at: decision.now })
      .where('id', '=', id)
      .where('status', '=', 'requested')
      .executeTakeFirst()
    return updated.numUpdatedRows === 1n
  }
}
