import { describe, expect, it } from 'vitest'
import { closingOutcome, type LotTiming, lotStatus, reserveMet } from './lot-status'

const lot = (overrides: Partial<LotTiming> = {}): LotTiming => ({
  status: 'open',
  startsAt: 1_000,
  endsAt: 2_000,
  price: null,
  leaderId: null,
  reservePrice: null,
  ...overrides,
})

describe('lot status', () => {
  it('is preview before the start and live until the end', () => {
    expect(lotStatus(lot(), 999)).toBe('preview')
    expect(lotStatus(lot(), 1_000)).toBe('live')
    expect(lotStatus(lot(), 1_999)).toBe('live')
  })

  it('shows the closing outcome once the end has passed', () => {
    expect(lotStatus(lot(), 2_000)).toBe('unsold')
    expect(lotStatus(lot({ price: 500, leaderId: 7 }), 2_000)).toBe('sold')
    expect(lotStatus(lot({ price: 500, leaderId: 7, reservePrice: 600 }), 2_000)).toBe('unsold')
    expect(lotStatus(lot({ price: 600, leaderId: 7, reservePrice: 600 }), 2_000)).toBe('sold')
  })

  it('keeps a recorded outcome whatever the time', () => {
    expect(lotStatus(lot({ status: 'sold' }), 0)).toBe('sold')
    expect(lotStatus(lot({ status: 'unsold', price: 5, leaderId: 1 }), 5_000)).toBe('unsold')
  })

  it('knows when the reserve is met', () => {
    expect(reserveMet(lot())).toBe(true)
    expect(reserveMet(lot({ reservePrice: 100 }))).toBe(false)
    expect(reserveMet(lot({ reservePrice: 100, price: 100 }))).toBe(true)
    expect(closingOutcome(lot({ price: 100 }))).toBe('unsold')
  })
})
