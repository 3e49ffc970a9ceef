import { describe, expect, it } from 'vitest'
import { receiveState } from './receive-state'

describe('the receive button of a coupon', () => {
  it('offers a first coupon, then another while the buyer may hold more', () => {
    expect(receiveState({ received: false, receivable: true, left: 5 })).toBe('receive')
    expect(receiveState({ received: true, receivable: true, left: 5 })).toBe('again')
  })

  it('says received once the buyer’s limit is reached, even when none are left', () => {
    expect(receiveState({ received: true, receivable: false, left: 5 })).toBe('received')
    expect(receiveState({ received: true, receivable: false, left: 0 })).toBe('received')
  })

  it('says all gone to a buyer who has none when none are left', () => {
    expect(receiveState({ received: false, receivable: false, left: 0 })).toBe('gone')
    expect(receiveState({ received: false, receivable: false, left: 3 })).toBe('closed')
  })
})
