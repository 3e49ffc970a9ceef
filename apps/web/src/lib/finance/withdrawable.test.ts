import { describe, expect, it } from 'vitest'
import { withdrawable } from './withdrawable'

const user = (balance: number, deposit: number, exposure: number, multiplier = 10) => ({
  balance,
  deposit,
  quota: deposit * multiplier,
  exposure,
})

describe('withdrawable', () => {
  it('offers the whole balance and a deposit no bid holds', () => {
    expect(withdrawable(user(12_345, 500_000, 0))).toEqual({ balance: 12_345, deposit: 500_000 })
  })

  it('holds deposit at the quota rate, rounded up to the fen', () => {
    // ¥1,000.01 of exposure at ×10 holds ¥100.01 (100.001 rounded up).
    expect(withdrawable(user(0, 500_000, 100_001)).deposit).toBe(500_000 - 10_001)
    expect(withdrawable(user(0, 500_000, 100_001, 5)).deposit).toBe(500_000 - 20_001)
  })

  it('offers no deposit when exposure holds all of it, and nothing below zero', () => {
    expect(withdrawable(user(0, 500_000, 5_000_000)).deposit).toBe(0)
    expect(withdrawable(user(0, 500_000, 9_000_000)).deposit).toBe(0)
    expect(withdrawable(user(-5, 0, 0))).toEqual({ balance: 0, deposit: 0 })
  })
})
