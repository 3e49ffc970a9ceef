import { describe, expect, it } from 'vitest'
import { adjustment, refundRefusal } from './money-desk'

describe('adjustment', () => {
  it('credits the user account from clearing', () => {
    expect(adjustment('balance', 'credit', 500)).toEqual([
      { owner: 'platform', kind: 'platform_clearing', amount: -500 },
      { owner: 'user', kind: 'balance', amount: 500 },
    ])
  })
  it('debits the user account to clearing, and always sums to zero', () => {
    const legs = adjustment('deposit', 'debit', 700)
    expect(legs).toContainEqual({ owner: 'user', kind: 'deposit', amount: -700 })
    expect(legs.reduce((s, l) => s + l.amount, 0)).toBe(0)
  })
})

describe('refundRefusal', () => {
  it('refunds a paid order only', () => {
    expect(refundRefusal({ status: 'paid' })).toBeNull()
    expect(refundRefusal({ status: 'pending_payment' })).toBe('NOT_PAID')
    expect(refundRefusal({ status: 'overdue' })).toBe('NOT_PAID')
    expect(refundRefusal({ status: 'delivery_applied' })).toBe('DELIVERY_APPLIED')
    expect(refundRefusal({ status: 'shipped' })).toBe('DELIVERY_APPLIED')
    expect(refundRefusal({ status: 'completed' })).toBe('DELIVERY_APPLIED')
    expect(refundRefusal({ status: 'cancelled' })).toBe('ALREADY_CANCELLED')
  })
})
