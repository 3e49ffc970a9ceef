import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  DEFAULT_QUOTA_MULTIPLIER,
  exposure,
  freeDeposit,
  overdueClaim,
  type LotExposure,
  lotExposure,
  quotaLimit,
  withinQuota,
} from './quota'

const y = (yuan: number) => yuan * 100
const lot = (lotId: number, leadingAt: number, proxyMax: number): LotExposure => ({
  lotId,
  leadingAt: y(leadingAt),
  proxyMax: y(proxyMax),
})

describe('quota exposure (DESIGN §4)', () => {
  it('counts the larger of the price led at and the active proxy maximum, per lot', () => {
    expect(lotExposure(lot(1, 300, 0))).toBe(y(300))
    expect(lotExposure(lot(1, 300, 800))).toBe(y(800))
    expect(lotExposure(lot(1, 0, 500))).toBe(y(500))
    expect(lotExposure(lot(1, 0, 0))).toBe(0)
  })

  it('sums the lots and adds unpaid won orders', () => {
    expect(exposure({ lots: [], unpaidOrders: 0 })).toBe(0)
    expect(
      exposure({ lots: [lot(1, 300, 800), lot(2, 1_000, 0), lot(3, 0, 200)], unpaidOrders: y(50) }),
    ).toBe(y(800 + 1_000 + 200 + 50))
  })

  it('the limit is deposit × 10 by default, configurable', () => {
    expect(DEFAULT_QUOTA_MULTIPLIER).toBe(10)
    expect(quotaLimit(y(1_000))).toBe(y(10_000))
    expect(quotaLimit(y(1_000), 5)).toBe(y(5_000))
  })
})

describe('withinQuota', () => {
  // Deposit 1,000 yuan → limit 10,000 yuan. Existing exposure: 6,000 on lots + 1,000 unpaid.
  const input = {
    deposit: y(1_000),
    lots: [lot(1, 2_000, 0), lot(2, 1_000, 4_000)],
    unpaidOrders: y(1_000),
  }

  it('allows a commitment that lands exactly on the limit and refuses one fen more', () => {
    expect(withinQuota(input, 9, y(3_000))).toBe(true)
    expect(withinQuota(input, 9, y(3_000) + 1)).toBe(false)
  })

  it('replaces the lot’s own exposure instead of adding to it', () => {
    // Lot 2 already counts 4,000; raising its proxy to 7,000 gives 2,000 + 7,000 + 1,000.
    expect(withinQuota(input, 2, y(7_000))).toBe(true)
    expect(withinQuota(input, 2, y(7_000) + 1)).toBe(false)
    // Lot 1 counts 2,000; a 6,000 commitment there gives 6,000 + 4,000 + 1,000 > 10,000.
    expect(withinQuota(input, 1, y(5_000))).toBe(true)
    expect(withinQuota(input, 1, y(6_000))).toBe(false)
  })

  it('a commitment below the lot’s current exposure keeps that exposure', () => {
    const full = { ...input, unpaidOrders: y(4_000) } // exactly 10,000 already
    expect(withinQuota(full, 2, y(100))).toBe(true)
    expect(withinQuota(full, 9, 1)).toBe(false)
  })

  it('honours a configured multiplier', () => {
    expect(withinQuota({ ...input, multiplier: 20 }, 9, y(13_000))).toBe(true)
    expect(withinQuota({ ...input, multiplier: 20 }, 9, y(13_000) + 1)).toBe(false)
  })

  it('with no deposit nothing can be committed', () => {
    expect(withinQuota({ deposit: 0, lots: [], unpaidOrders: 0 }, 1, y(5))).toBe(false)
  })
})

describe('freeDeposit', () => {
  it('is the deposit less what the exposure needs at deposit × multiplier, rounded up to the fen', () => {
    // 1,000 yuan of deposit, 6,000 yuan exposed: 600 yuan needed, 400 free.
    expect(freeDeposit({ deposit: y(1_000), exposure: y(6_000) })).toBe(y(400))
    // One fen of exposure needs one fen of deposit.
    expect(freeDeposit({ deposit: y(1_000), exposure: 1 })).toBe(y(1_000) - 1)
    expect(freeDeposit({ deposit: y(1_000), exposure: 10 })).toBe(y(1_000) - 1)
    expect(freeDeposit({ deposit: y(1_000), exposure: 11 })).toBe(y(1_000) - 2)
    expect(freeDeposit({ deposit: y(1_000), exposure: 0 })).toBe(y(1_000))
  })

  it('honours a configured multiplier', () => {
    expect(freeDeposit({ deposit: y(1_000), exposure: y(6_000), multiplier: 20 })).toBe(y(700))
    expect(freeDeposit({ deposit: y(1_000), exposure: y(6_000), multiplier: 1 })).toBe(0)
  })

  it('holds what overdue lots claim: their hammers, up to the whole deposit', () => {
    // Hammer 500 (total 550) overdue, 1,000 deposit: 500 is claimed, the rest free once taken.
    const overdue = { hammer: y(500), total: y(550) }
    expect(freeDeposit({ deposit: y(1_000), exposure: y(550), overdue })).toBe(y(500))
    // Another lot exposed at 2,000 needs 200 of what the forfeit leaves.
    expect(freeDeposit({ deposit: y(1_000), exposure: y(2_550), overdue })).toBe(y(300))
    // A hammer beyond the deposit claims all of it.
    const big = { hammer: y(3_000), total: y(3_300) }
    expect(freeDeposit({ deposit: y(1_000), exposure: y(3_300), overdue: big })).toBe(0)
    expect(overdueClaim(y(1_000), big)).toBe(y(1_000))
    // Nothing overdue: the exposure alone decides, as before.
    expect(
      freeDeposit({ deposit: y(1_000), exposure: y(6_000), overdue: { hammer: 0, total: 0 } }),
    ).toBe(y(400))
  })

  it('is never negative, even when the exposure is beyond the quota', () => {
    expect(freeDeposit({ deposit: y(100), exposure: y(6_000) })).toBe(0)
    expect(freeDeposit({ deposit: 0, exposure: 0 })).toBe(0)
  })

  it('moving exactly the free deposit keeps the quota over the exposure; one fen more does not', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000_000_000 }),
        fc.integer({ min: 0, max: 1_000_000_000_000 }),
        fc.integer({ min: 1, max: 1_000 }),
        (deposit, exposed, multiplier) => {
          const free = freeDeposit({ deposit, exposure: exposed, multiplier })
          expect(free).toBeGreaterThanOrEqual(0)
          expect(free).toBeLessThanOrEqual(deposit)
          if (quotaLimit(deposit, multiplier) < exposed) {
            expect(free).toBe(0)
            return
          }
          expect(quotaLimit(deposit - free, multiplier)).toBeGreaterThanOrEqual(exposed)
          if (free < deposit) {
            expect(quotaLimit(deposit - free - 1, multiplier)).toBeLessThan(exposed)
          }
        },
      ),
      { numRuns: 2_000 },
    )
  })
})
