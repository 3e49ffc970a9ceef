import { describe, expect, it } from 'vitest'
import { withdrawable } from './withdrawable'

describe('withdrawable', () => {
  it('offers the whole balance and the deposit the server says is free', () => {
    expect(withdrawable({ balance: 12_345, freeDeposit: 490_000 })).toEqual({
      balance: 12_345,
      deposit: 490_000,
    })
  })

  it('offers nothing below zero', () => {
    expect(withdrawable({ balance: -5, freeDeposit: -1 })).toEqual({ balance: 0, deposit: 0 })
  })
})
