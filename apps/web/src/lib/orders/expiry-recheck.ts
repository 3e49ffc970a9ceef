import { useEffect } from 'react'
import { useQueryClient, type QueryClient } from '@tanstack/react-query'
import type { Order } from '@numisma/contracts/orders'
import { inBackground } from '../background'
import { useServerClock } from '../server-clock'
import { COUPONS_KEY, ORDERS_KEY, USER_STATISTICS_KEY } from './query-keys'

/** The server cancels unpaid mall orders in a job every 5 s: look again a little after that. */
export const EXPIRY_RECHECK_DELAY_MS = 6_000

/**
 * When (server time) the order lists should be fetched again because an unpaid order's time to
 * pay has run out: its due time plus the delay, the earliest among the orders that lists fetched
 * at `fetchedAt` (server time) could not yet show expired; null when there is none. Lists fetched
 * after that moment hold the server's word on the order, whatever it is (one paid by bank
 * remittance stays unpaid past its due time), so the same order never asks again: no loop.
 */
export function nextExpiryRecheck(
  orders: readonly Pick<Order, 'status' | 'dueAt'>[],
  fetchedAt: number,
): number | null {
  let next: number | null = null
  for (const order of orders) {
    if (order.status !== 'pending_payment' || order.dueAt === null) continue
    const due = Date.parse(order.dueAt)
    if (Number.isNaN(due)) continue
    const at = due + EXPIRY_RECHECK_DELAY_MS
    if (at > fetchedAt && (next === null || at < next)) next = at
  }
  return next
}

/**
 * What an order running out of time changes: the order lists, the user centre's counters, and
 * the coupon it held (usable again). Refetched where on screen, marked stale elsewhere.
 */
export function refreshAfterExpiry(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ORDERS_KEY }),
    queryClient.invalidateQueries({ queryKey: USER_STATISTICS_KEY }),
    queryClient.invalidateQueries({ queryKey: COUPONS_KEY }),
  ])
}

/**
 * Fetches the lists again a few seconds after an unpaid order's pay countdown reaches zero, so it
 * moves from 待付款 to 已取消 without a pull to refresh. `fetchedAt` is when the lists holding
 * `orders` were fetched (the phone's clock, as TanStack Query's dataUpdatedAt); `active` is false
 * while the page is kept alive off screen (it catches up when it comes back).
 */
export function useRecheckAtExpiry(
  orders: readonly Pick<Order, 'status' | 'dueAt'>[] | undefined,
  fetchedAt: number,
  active: boolean,
): void {
  const queryClient = useQueryClient()
  const offset = useServerClock()
  const at =
    orders === undefined || offset === undefined
      ? null
      : nextExpiryRecheck(orders, fetchedAt + offset)
  useEffect(() => {
    if (at === null || offset === undefined || !active) return undefined
    const timer = setTimeout(
      () => inBackground(refreshAfterExpiry(queryClient)),
      Math.max(0, at - (Date.now() + offset)),
    )
    return () => clearTimeout(timer)
  }, [at, offset, active, queryClient])
}
