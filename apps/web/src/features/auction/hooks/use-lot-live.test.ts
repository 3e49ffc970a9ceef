import { describe, expect, it } from 'vitest'
import type { PushLot } from '@numisma/contracts/push'
import { isNews, mergePush } from './use-lot-live'

const cached = {
  price: 120_000,
  bidCount: 4,
  endsAt: '2026-11-21T08:00:00.000Z',
  status: 'live' as const,
}
const push = (overrides: Partial<PushLot>): PushLot => ({
  type: 'lot',
  lotId: 1,
  price: 120_000,
  bidCount: 4,
  endsAt: '2026-11-21T08:00:00.000Z',
  status: 'live',
  leader: null,
  ...overrides,
})

describe('merging pushed lot updates', () => {
  it('takes a newer bid and a status change', () => {
    expect(isNews(cached, push({ price: 125_000, bidCount: 5 }))).toBe(true)
    expect(isNews(cached, push({ status: 'sold' }))).toBe(true)
    expect(mergePush(cached, push({ price: 125_000, bidCount: 5 }))).toMatchObject({
      price: 125_000,
      bidCount: 5,
    })
  })

  it('ignores an older update that arrives late, and a repeat', () => {
    expect(isNews(cached, push({ price: 115_000, bidCount: 3 }))).toBe(false)
    expect(isNews(cached, push({}))).toBe(false)
  })

  it('takes anything when nothing is cached', () => {
    expect(isNews(undefined, push({ bidCount: 0 }))).toBe(true)
  })
})
