import type { LotDetail } from '@numisma/contracts/catalog'
import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import { getLotQueryOptions, newerLot } from './get-lot'

// Only the fields the guard reads matter here.
const lot = (bidCount: number, price: number, more: Partial<LotDetail> = {}): LotDetail =>
  ({ id: 7, bidCount, price, status: 'live', ...more }) as LotDetail

describe('the lot page keeps the newer answer by bid count', () => {
  it('ignores an answer with fewer bids than the page shows, takes an equal or newer one', () => {
    const shown = lot(5, 125_000)
    expect(newerLot(shown, lot(4, 120_000))).toBe(shown)
    const closed = lot(5, 125_000, { status: 'sold' })
    expect(newerLot(shown, closed)).toBe(closed)
    expect(newerLot(shown, lot(6, 130_000))).toEqual(lot(6, 130_000))
    expect(newerLot(undefined, lot(0, 0))).toEqual(lot(0, 0))
  })

  it('a refetch that lands on an instance with an older cached copy does not move the page back', async () => {
    const client = new QueryClient()
    const options = getLotQueryOptions(7)
    await client.query({ ...options, queryFn: () => Promise.resolve(lot(4, 120_000)) })
    // A push or my bid's answer moved the page on.
    client.setQueryData(options.queryKey, (cached) => cached && { ...cached, ...lot(5, 125_000) })
    // The refetch that follows is answered from a copy from before the bid.
    await client.query({
      ...options,
      queryFn: () => Promise.resolve(lot(4, 120_000)),
      staleTime: 0,
    })
    expect(client.getQueryData(options.queryKey)).toMatchObject({ bidCount: 5, price: 125_000 })
    // A newer answer is taken.
    await client.query({
      ...options,
      queryFn: () => Promise.resolve(lot(6, 130_000)),
      staleTime: 0,
    })
    expect(client.getQueryData(options.queryKey)).toMatchObject({ bidCount: 6, price: 130_000 })
  })
})
