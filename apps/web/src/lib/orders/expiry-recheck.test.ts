import type { Order } from '@numisma/contracts/orders'
import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import { EXPIRY_RECHECK_DELAY_MS, nextExpiryRecheck, refreshAfterExpiry } from './expiry-recheck'
import { COUPONS_KEY, ORDERS_KEY, USER_STATISTICS_KEY } from './query-keys'

type Timed = Pick<Order, 'status' | 'dueAt'>
const at = (iso: string) => Date.parse(iso)
const unpaid = (dueAt: string | null): Timed => ({ status: 'pending_payment', dueAt })
const FETCHED = at('2030-01-01T00:10:00.000Z')

describe('when the order lists look again at an order whose time to pay ran out', () => {
  it('a few seconds after the due time, when the server’s expiry job has run', () => {
    expect(nextExpiryRecheck([unpaid('2030-01-01T00:30:00.000Z')], FETCHED)).toBe(
      at('2030-01-01T00:30:00.000Z') + EXPIRY_RECHECK_DELAY_MS,
    )
    expect(EXPIRY_RECHECK_DELAY_MS).toBeGreaterThan(5_000)
  })

  it('for the order due first', () => {
    const orders = [unpaid('2030-01-01T00:40:00.000Z'), unpaid('2030-01-01T00:20:00.000Z')]
    expect(nextExpiryRecheck(orders, FETCHED)).toBe(
      at('2030-01-01T00:20:00.000Z') + EXPIRY_RECHECK_DELAY_MS,
    )
  })

  it('not again once lists fetched after that moment are in, even if the order is still unpaid', () => {
    const order = unpaid('2030-01-01T00:30:00.000Z')
    const recheck = nextExpiryRecheck([order], FETCHED)!
    expect(nextExpiryRecheck([order], recheck + 120)).toBeNull()
    // ... and then for the next order only.
    const later = unpaid('2030-01-01T00:45:00.000Z')
    expect(nextExpiryRecheck([order, later], recheck + 120)).toBe(
      at('2030-01-01T00:45:00.000Z') + EXPIRY_RECHECK_DELAY_MS,
    )
  })

  it('once for an order already past due in lists fetched before its recheck', () => {
    const order = unpaid('2030-01-01T00:09:58.000Z')
    expect(nextExpiryRecheck([order], FETCHED)).toBe(
      at('2030-01-01T00:09:58.000Z') + EXPIRY_RECHECK_DELAY_MS,
    )
  })

  it('never for orders with nothing to pay by', () => {
    const orders: Timed[] = [
      { status: 'paid', dueAt: '2030-01-01T00:30:00.000Z' },
      { status: 'cancelled', dueAt: '2030-01-01T00:30:00.000Z' },
      unpaid(null),
      unpaid('not a date'),
    ]
    expect(nextExpiryRecheck(orders, FETCHED)).toBeNull()
    expect(nextExpiryRecheck([], FETCHED)).toBeNull()
  })
})

describe('refreshAfterExpiry', () => {
  it('marks the order lists, the user centre’s counters and the coupons stale', async () => {
    const client = new QueryClient()
    const keys = [
      [...ORDERS_KEY, 'pending'],
      [...ORDERS_KEY, 'all'],
      USER_STATISTICS_KEY,
      [...COUPONS_KEY, 'mine'],
    ]
    for (const key of keys) client.setQueryData(key, [])
    client.setQueryData(['mall', 'item', 'M100001'], {})
    await refreshAfterExpiry(client)
    for (const key of keys) expect(client.getQueryState(key)?.isInvalidated).toBe(true)
    expect(client.getQueryState(['mall', 'item', 'M100001'])?.isInvalidated).toBe(false)
  })
})
