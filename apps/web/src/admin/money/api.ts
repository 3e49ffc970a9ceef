import {
  StaffRemittanceSchema,
  StaffWithdrawalSchema,
  type Remittance,
  type RemittanceConfirm,
  type StaffRemittance,
  type StaffWithdrawal,
  type Withdrawal,
} from '@numisma/contracts/account'
import {
  AdjustmentSchema,
  LedgerDailyReportSchema,
  MoneyLedgerPageSchema,
  MoneyUserSchema,
  RefundableOrderSchema,
  RefundSchema,
  RefundsPageSchema,
  type Adjustment,
  type AdjustmentRequest,
  type LedgerDailyReport,
  type MoneyLedgerPage,
  type MoneyUser,
  type MoneyUserQuery,
  type Refund,
  type RefundableOrder,
  type RefundsPage,
} from '@numisma/contracts/staff-money'
import { HEADER } from '@numisma/contracts/signing'
import { z } from 'zod'
import { STAFF_BASE, StaffApiError, staffRequest } from '../staff-api'

/** Paged lists answer `{ data, page, pageSize, total }`: the whole envelope is the data here. */
async function staffPage<T>(
  path: string,
  schema: { parse(value: unknown): T },
  query: Record<string, number>,
): Promise<T> {
  const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))
  const res = await fetch(`${STAFF_BASE}${path}?${search.toString()}`, {
    credentials: 'same-origin',
  })
  const json: unknown = await res.json().catch(() => null)
  if (!res.ok) throw new StaffApiError('REQUEST_FAILED', res.status, `HTTP ${res.status}`)
  return schema.parse(json)
}

const keyed = (key: string) => ({ [HEADER.idempotencyKey]: key })

// Remittances and withdrawals (modules/finance/staff-routes.ts).

export function getRemittances(status?: Remittance['status']): Promise<StaffRemittance[]> {
  return staffRequest('/remittances', z.array(StaffRemittanceSchema), { query: { status } })
}

/** The receipt picture as an object URL (the route needs the staff cookie, so no plain <img>). */
export async function getReceiptUrl(remittanceId: number): Promise<string> {
  const res = await fetch(`${STAFF_BASE}/remittances/${remittanceId}/receipt`, {
    credentials: 'same-origin',
  })
  if (!res.ok) throw new StaffApiError('REQUEST_FAILED', res.status, `HTTP ${res.status}`)
  return URL.createObjectURL(await res.blob())
}

export function confirmRemittance(
  id: number,
  decision: RemittanceConfirm,
  key: string,
): Promise<StaffRemittance> {
  return staffRequest(`/remittances/${id}/confirm`, StaffRemittanceSchema, {
    method: 'POST',
    body: decision,
    headers: keyed(key),
  })
}

export function rejectRemittance(id: number, note: string, key: string): Promise<StaffRemittance> {
  return staffRequest(`/remittances/${id}/reject`, StaffRemittanceSchema, {
    method: 'POST',
    body: { note },
    headers: keyed(key),
  })
}

export function getWithdrawals(status?: Withdrawal['status']): Promise<StaffWithdrawal[]> {
  return staffRequest('/withdrawals', z.array(StaffWithdrawalSchema), { query: { status } })
}

export function decideWithdrawal(
  id: number,
  decision: 'pay' | 'refuse',
  note: string | undefined,
  key: string,
): Promise<StaffWithdrawal> {
  return staffRequest(`/withdrawals/${id}/${decision}`, StaffWithdrawalSchema, {
    method: 'POST',
    body: note ? { note } : {},
    headers: keyed(key),
  })
}

// The desk (modules/finance/staff-money-routes.ts).

export function getMoneyUser(query: MoneyUserQuery): Promise<MoneyUser> {
  return staffRequest('/money/users', MoneyUserSchema, { query: { ...query } })
}

export function getLedgerLines(
  userId: number,
  page: number,
  pageSize: number,
): Promise<MoneyLedgerPage> {
  return staffPage(`/money/users/${userId}/ledger`, MoneyLedgerPageSchema, { page, pageSize })
}

export function adjustAccount(
  userId: number,
  request: AdjustmentRequest,
  key: string,
): Promise<Adjustment> {
  return staffRequest(`/money/users/${userId}/adjustments`, AdjustmentSchema, {
    method: 'POST',
    body: request,
    headers: keyed(key),
  })
}

export function getRefundableOrder(orderId: number): Promise<RefundableOrder> {
  return staffRequest(`/money/orders/${orderId}`, RefundableOrderSchema)
}

export function refundOrder(orderId: number, reason: string, key: string): Promise<Refund> {
  return staffRequest(`/money/orders/${orderId}/refund`, RefundSchema, {
    method: 'POST',
    body: { reason },
    headers: keyed(key),
  })
}

export function getRefunds(page: number, pageSize: number): Promise<RefundsPage> {
  return staffPage('/money/refunds', RefundsPageSchema, { page, pageSize })
}

export function getDailyLedger(date: string): Promise<LedgerDailyReport> {
  return staffRequest('/money/ledger/daily', LedgerDailyReportSchema, { query: { date } })
}

/** Where the browser downloads the day's CSV (same origin, the staff cookie goes along). */
export function dailyLedgerCsvUrl(date: string): string {
  return `${STAFF_BASE}/money/ledger/daily.csv?date=${encodeURIComponent(date)}`
}
