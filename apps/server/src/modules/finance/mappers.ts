import type {
  CompanyBank,
  Remittance,
  StaffRemittance,
  StaffWithdrawal,
  Withdrawal,
} from '@numisma/contracts/account'
import type { RemittanceRow, WithdrawalRow } from './repository'

const iso = (ms: number) => new Date(ms).toISOString()

/** Every digit but the last four hidden, the length kept: `***************1234`. */
export function maskAccountNo(accountNo: string): string {
  return '*'.repeat(Math.max(0, accountNo.length - 4)) + accountNo.slice(-4)
}

export const toCompanyBank = (row: {
  id: number
  bank_name: string
  branch: string
  account_name: string
  account_no: string
}): CompanyBank => ({
  id: row.id,
  bankName: row.bank_name,
  branch: row.branch,
  accountName: row.account_name,
  accountNo: row.account_no,
})

/** Where the owner fetches a notice's receipt (under the main service, signed like every call). */
export const receiptPath = (remittanceId: number) =>
  `/user/finance/remittances/${remittanceId}/receipt`

export const toRemittance = (row: RemittanceRow): Remittance => ({
  id: row.id,
  companyBankId: row.company_bank_id,
  amount: row.amount,
  payerName: row.payer_name,
  payerBank: row.payer_bank,
  remittedOn: row.remitted_on,
  orderIds: JSON.parse(row.order_ids) as number[],
  receiptUrl: row.hasReceipt ? receiptPath(row.id) : null,
  status: row.status as Remittance['status'],
  note: row.note,
  amountReceived: row.amount_received,
  createdAt: iso(row.created_at),
})

export const toStaffRemittance = (row: RemittanceRow): StaffRemittance => ({
  ...toRemittance(row),
  userId: row.user_id,
  companyBank: row.companyBank ? toCompanyBank(row.companyBank) : null,
})

export const toWithdrawal = (row: WithdrawalRow): Withdrawal => ({
  id: row.id,
  amount: row.amount,
  source: row.source as Withdrawal['source'],
  bankName: row.bank_name,
  accountName: row.account_name,
  accountNo: maskAccountNo(row.account_no),
  status: row.status as Withdrawal['status'],
  note: row.note,
  createdAt: iso(row.created_at),
  decidedAt: row.decided_at === null ? null : iso(row.decided_at),
})

/** Staff pay the money out, so they see the whole account number. */
export const toStaffWithdrawal = (row: WithdrawalRow): StaffWithdrawal => ({
  ...toWithdrawal(row),
  userId: row.user_id,
  accountNo: row.account_no,
})
