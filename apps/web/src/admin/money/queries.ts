import type { Remittance, RemittanceConfirm, Withdrawal } from '@numisma/contracts/account'
import type { AdjustmentRequest, MoneyUserQuery } from '@numisma/contracts/staff-money'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import {
  adjustAccount,
  confirmRemittance,
  decideWithdrawal,
  getDailyLedger,
  getLedgerLines,
  getMoneyUser,
  getReceiptUrl,
  getRefundableOrder,
  getRefunds,
  getRemittances,
  getWithdrawals,
  refundOrder,
  rejectRemittance,
} from './api'

const MONEY = ['staff', 'money'] as const
const REMITTANCES = [...MONEY, 'remittances'] as const
const WITHDRAWALS = [...MONEY, 'withdrawals'] as const
const USERS = [...MONEY, 'users'] as const
const ORDERS = [...MONEY, 'orders'] as const
const REFUNDS = [...MONEY, 'refunds'] as const
const LEDGER = [...MONEY, 'ledger'] as const

export function useRemittances(status?: Remittance['status']) {
  return useQuery({
    queryKey: [...REMITTANCES, status ?? 'all'],
    queryFn: () => getRemittances(status),
  })
}

/** The receipt as an object URL, fetched once per notice and kept (receipts never change). */
export function useReceiptUrl(remittanceId: number, enabled: boolean) {
  return useQuery({
    queryKey: [...REMITTANCES, 'receipt', remittanceId],
    queryFn: () => getReceiptUrl(remittanceId),
    enabled,
    staleTime: Infinity,
    gcTime: Infinity,
  })
}

/** Money moved: every figure the area shows may have changed. */
const invalidateMoney = (queryClient: ReturnType<typeof useQueryClient>) =>
  queryClient.invalidateQueries({ queryKey: MONEY })

export function useConfirmRemittance() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (v: { id: number; decision: RemittanceConfirm; key: string }) =>
      confirmRemittance(v.id, v.decision, v.key),
    onSuccess: () => invalidateMoney(queryClient),
  })
}

export function useRejectRemittance() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (v: { id: number; note: string; key: string }) =>
      rejectRemittance(v.id, v.note, v.key),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: REMITTANCES }),
  })
}

export function useWithdrawals(status?: Withdrawal['status']) {
  return useQuery({
    queryKey: [...WITHDRAWALS, status ?? 'all'],
    queryFn: () => getWithdrawals(status),
  })
}

export function useDecideWithdrawal() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (v: { id: number; decision: 'pay' | 'refuse'; note?: string; key: string }) =>
      decideWithdrawal(v.id, v.decision, v.note, v.key),
    onSuccess: () => invalidateMoney(queryClient),
  })
}

export function useMoneyUser(query: MoneyUserQuery | null) {
  return useQuery({
    queryKey: [...USERS, query],
    queryFn: () => getMoneyUser(query ?? {}),
    enabled: query !== null,
    retry: false,
  })
}

export function useLedgerLines(userId: number | undefined, page: number, pageSize: number) {
  return useQuery({
    queryKey: [...USERS, userId, 'ledger', page, pageSize],
    queryFn: () => getLedgerLines(userId ?? 0, page, pageSize),
    enabled: userId !== undefined,
    placeholderData: keepPreviousData,
  })
}

export function useAdjustAccount() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (v: { userId: number; request: AdjustmentRequest; key: string }) =>
      adjustAccount(v.userId, v.request, v.key),
    onSuccess: () => invalidateMoney(queryClient),
  })
}

export function useRefundableOrder(orderId: number | null) {
  return useQuery({
    queryKey: [...ORDERS, orderId],
    queryFn: () => getRefundableOrder(orderId ?? 0),
    enabled: orderId !== null,
    retry: false,
  })
}

export function useRefunds(page: number, pageSize: number) {
  return useQuery({
    queryKey: [...REFUNDS, page, pageSize],
    queryFn: () => getRefunds(page, pageSize),
    placeholderData: keepPreviousData,
  })
}

export function useRefundOrder() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (v: { orderId: number; reason: string; key: string }) =>
      refundOrder(v.orderId, v.reason, v.key),
    onSuccess: () => invalidateMoney(queryClient),
  })
}

export function useDailyLedger(date: string) {
  return useQuery({ queryKey: [...LEDGER, date], queryFn: () => getDailyLedger(date) })
}
