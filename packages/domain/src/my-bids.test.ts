import { describe, expect, it } from 'vitest'
import { entrustState, tradeState } from './my-bids'

describe('my bids and my proxy bids', () => {
  it.each([
    ['live', true, 'leading'],
    ['live', false, 'outbid'],
    ['preview', false, 'outbid'],
    ['sold', true, 'won'],
    ['sold', false, 'lost'],
    ['unsold', true, 'lost'],
  ] as const)('a %s lot, leading=%s → %s', (status, leads, expected) => {
    expect(tradeState(status, leads)).toBe(expected)
  })

  it('names proxy bids the same way, and cancelled ones as cancelled', () => {
    expect(entrustState('live', true, false)).toBe('active')
    expect(entrustState('live', false, false)).toBe('outbid')
    expect(entrustState('sold', true, false)).toBe('won')
    expect(entrustState('live', true, true)).toBe('cancelled')
  })
})
