import type { Relist, SalesSpecial } from '@numisma/contracts/staff-sales'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { inBackground } from '../../lib/background'
import {
  forfeitOrder,
  getLiveView,
  getOverdueOrders,
  getResults,
  getSalesSpecials,
  relistLot,
} from './api'
import { clockOffset } from './live-lots'
import { listIsBehind } from './sale-specials'

export const SALES_KEY = ['staff', 'sales'] as const
export const SPECIALS_KEY = [...SALES_KEY, 'specials'] as const
export const liveKey = (specialId: number) => [...SALES_KEY, 'live', specialId] as const
export const resultsKey = (specialId: number) => [...SALES_KEY, 'results', specialId] as const
export const OVERDUE_KEY = [...SALES_KEY, 'overdue'] as const

/** Watcher counts are not pushed: the live view is read again this often. */
export const LIVE_REFRESH_MS = 30_000

/** The picker's list is read again this often, so states and ends do not go stale. */
export const SPECIALS_REFRESH_MS = 60_000

export function useSalesSpecials() {
  return useQuery({
    queryKey: SPECIALS_KEY,
    queryFn: getSalesSpecials,
    refetchInterval: SPECIALS_REFRESH_MS,
  })
}

/**
 * Reads the specials list again as soon as a fresher read of the special shown (live view or
 * results) finds it moved on: closed, or its end pushed out by a soft close.
 */
export function useSpecialsFollow(
  list: readonly SalesSpecial[] | undefined,
  special: SalesSpecial | undefined,
) {
  const queryClient = useQueryClient()
  const behind = listIsBehind(list, special)
  useEffect(() => {
    if (behind) inBackground(queryClient.invalidateQueries({ queryKey: SPECIALS_KEY }))
  }, [behind, queryClient])
}

export function useLiveView(specialId: number | null) {
  return useQuery({
    queryKey: liveKey(specialId ?? 0),
    queryFn: async () => {
      const view = await getLiveView(specialId ?? 0)
      // Measured as the read arrives: push updates later keep the read's server time.
      return { ...view, offset: clockOffset(view.serverTime, Date.now()) }
    },
    enabled: specialId !== null,
    refetchInterval: LIVE_REFRESH_MS,
    staleTime: 0,
  })
}

export function useResults(specialId: number | null) {
  return useQuery({
    queryKey: resultsKey(specialId ?? 0),
    queryFn: () => getResults(specialId ?? 0),
    enabled: specialId !== null,
    staleTime: 0,
  })
}

export function useOverdueOrders() {
  return useQuery({ queryKey: OVERDUE_KEY, queryFn: getOverdueOrders, staleTime: 0 })
}

/** A relist changes the old lot's results, the target special's lots and the overdue list. */
export function useRelist() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ lotId, input }: { lotId: number; input: Relist }) => relistLot(lotId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SALES_KEY }),
  })
}

export function useForfeit() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ orderId, idempotencyKey }: { orderId: number; idempotencyKey: string }) =>
      forfeitOrder(orderId, idempotencyKey),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SALES_KEY }),
  })
}
