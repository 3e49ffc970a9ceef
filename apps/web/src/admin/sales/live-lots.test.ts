import type { LiveView } from '@numisma/contracts/staff-sales'
import { describe, expect, it } from 'vitest'
import { applyLotUpdate, lotsToFollow } from './live-lots'

const lot = (id: number, overrides: Partial<LiveView['lots'][number]> = {}) => ({
  id,
  lotNo: id,
  title: `拍品 ${id}`,
  image: null,
  startPrice: 10_000,
  reservePrice: null,
  price: null,
  bidCount: 0,
  watchers: 2,
  leader: null,
  reserveMet: true,
  endsAt: '2026-11-26T10:00:00.000Z',
  status: 'live' as const,
  ...overrides,
})

const view = (lots: LiveView['lots']): LiveView => ({
  special: {
    id: 1,
    title: '专场',
    startsAt: '2026-11-26T08:00:00.000Z',
    endsAt: '2026-11-26T10:00:00.000Z',
    lastLotEndsAt: '2026-11-26T10:00:30.000Z',
    state: 'running',
    lotCount: lots.length,
  },
  lots,
  totals: { lots: 0, sold: 0, unsold: 0, hammer: 0, bids: 0, watchers: 0, sellThrough: 0 },
  serverTime: '2026-11-26T09:00:00.000Z',
})

const update = (lotId: number, fields: { price: number | null; bidCount: number }) => ({
  type: 'lot' as const,
  lotId,
  endsAt: '2026-11-26T10:05:00.000Z',
  status: 'live' as const,
  leader: '藏***1',
  ...fields,
})

describe('applyLotUpdate', () => {
  it('moves price, bids and end of the lot, judges the reserve again and sums the totals', () => {
    const before = view([lot(1, { reservePrice: 20_000, reserveMet: false }), lot(2)])
    const after = applyLotUpdate(before, update(1, { price: 20_000, bidCount: 3 }))
    expect(after.lots[0]).toMatchObject({
      price: 20_000,
      bidCount: 3,
      endsAt: '2026-11-26T10:05:00.000Z',
      reserveMet: true,
    })
    expect(after.lots[1]).toBe(before.lots[1])
    expect(after.totals).toMatchObject({ bids: 3, watchers: 4, sold: 0 })
  })

  it('counts a lot closed as sold into the hammer', () => {
    const after = applyLotUpdate(view([lot(1, { price: 30_000, bidCount: 2 })]), {
      ...update(1, { price: 30_000, bidCount: 2 }),
      status: 'sold',
    })
    expect(after.totals).toMatchObject({ sold: 1, hammer: 30_000, sellThrough: 100 })
  })

  it('ignores an older update and an unknown lot', () => {
    const before = view([lot(1, { price: 30_000, bidCount: 5 })])
    expect(applyLotUpdate(before, update(1, { price: 20_000, bidCount: 4 }))).toBe(before)
    expect(applyLotUpdate(before, update(9, { price: 20_000, bidCount: 9 }))).toBe(before)
  })
})

describe('lotsToFollow', () => {
  it('follows lots not yet closed', () => {
    expect(lotsToFollow(view([lot(1), lot(2, { status: 'sold' }), lot(3)]))).toEqual([1, 3])
  })
})
