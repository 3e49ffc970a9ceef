import { PICKUP_SLOTS } from '@numisma/contracts/delivery'
import { describe, expect, it } from 'vitest'
import {
  bookableDates,
  canShipTo,
  chinaDate,
  DEFAULT_PICKUP_RULES,
  insuranceFee,
  isMainland,
  quoteDelivery,
  shippingFee,
  shippingZone,
  slotAvailable,
  slotRefusal,
  storageDays,
  storageFee,
  storageFreeUntil,
} from './delivery'

/** An instant given as China wall-clock time. */
const china = (iso: string) => Date.parse(`${iso}+08:00`)
const DAY = 86_400_000

describe('shipping fee by region (DESIGN §6)', () => {
  it('prices the zones from the counter outwards', () => {
    expect(shippingZone({ countryCode: 'CN', provinceCode: '31' })).toBe('near') // 上海
    expect(shippingZone({ countryCode: 'CN', provinceCode: '11' })).toBe('standard') // 北京
    expect(shippingZone({ countryCode: 'CN', provinceCode: '54' })).toBe('remote') // 西藏
    expect(shippingZone({ countryCode: 'CN', provinceCode: '65' })).toBe('remote') // 新疆
    expect(shippingZone({ countryCode: 'CN', provinceCode: '81' })).toBe('hmt') // 香港
    expect(shippingZone({ countryCode: 'HK', provinceCode: null })).toBe('hmt')
    expect(shippingZone({ countryCode: 'US', provinceCode: null })).toBe('overseas')
    expect(shippingZone({ countryCode: 'cn', provinceCode: null })).toBe('standard')
    // The address pickers' six-digit ids name the same provinces.
    expect(shippingZone({ countryCode: 'CN', provinceCode: '310000' })).toBe('near')
    expect(shippingZone({ countryCode: 'CN', provinceCode: '650000' })).toBe('remote')
    expect(shippingZone({ countryCode: 'CN', provinceCode: '820000' })).toBe('hmt')
  })

  it('charges the first piece and then each further one', () => {
    const beijing = { countryCode: 'CN', provinceCode: '11' }
    expect(shippingFee(beijing, 1)).toBe(1_800)
    expect(shippingFee(beijing, 3)).toBe(1_800 + 2 * 300)
    expect(shippingFee({ countryCode: 'CN', provinceCode: '54' }, 1)).toBeGreaterThan(
      shippingFee(beijing, 1),
    )
    expect(shippingFee({ countryCode: 'JP', provinceCode: null }, 1)).toBe(15_000)
    expect(() => shippingFee(beijing, 0)).toThrow(RangeError)
  })
})

describe('insurance fee (queryKeepFee)', () => {
  it('is 0.5 % rounded up to the fen, at least ¥5', () => {
    expect(insuranceFee(0)).toBe(500)
    expect(insuranceFee(100_000)).toBe(500) // ¥1,000 → ¥5
    expect(insuranceFee(100_001)).toBe(501) // 500.005 fen rounds up
    expect(insuranceFee(1_000_000)).toBe(5_000)
    expect(insuranceFee(1_000_000, { rateBps: 100, minimum: 0 })).toBe(10_000)
    expect(() => insuranceFee(-1)).toThrow(RangeError)
    expect(() => insuranceFee(1.5)).toThrow(RangeError)
  })
})

describe('storage (30 days free after payment)', () => {
  const paidAt = china('2026-11-01T23:30:00')

  it('is free through the 30th China day after the day of payment', () => {
    expect(storageFee(paidAt, paidAt)).toBe(0)
    expect(storageFee(paidAt, china('2026-12-01T23:59:59'))).toBe(0)
    expect(storageFreeUntil(paidAt)).toBe(china('2026-12-02T00:00:00'))
    expect(storageFee(paidAt, china('2026-12-02T00:00:00'))).toBe(100)
    expect(storageDays(paidAt, china('2026-12-11T08:00:00'))).toBe(10)
    expect(storageFee(paidAt, china('2026-12-11T08:00:00'))).toBe(1_000)
  })

  it('counts China days, not UTC ones', () => {
    // 2026-11-01 17:00 UTC is already 2 November in China.
    const lateUtc = Date.parse('2026-11-01T17:00:00Z')
    expect(chinaDate(lateUtc)).toBe('2026-11-02')
    expect(storageFreeUntil(lateUtc)).toBe(china('2026-12-03T00:00:00'))
  })
})

describe('counter appointments (pickup and counter cash)', () => {
  // Thursday 26 November 2026, 10:00 in China.
  const now = china('2026-11-26T10:00:00')
  const slot = PICKUP_SLOTS[0]

  it('offers the open days from tomorrow for two weeks, Sundays shut', () => {
    const dates = bookableDates(now)
    expect(dates[0]).toBe('2026-11-27')
    expect(dates).not.toContain('2026-11-26')
    expect(dates).not.toContain('2026-11-29') // Sunday
    expect(dates.at(-1)).toBe('2026-12-10')
    expect(dates).toHaveLength(12)
  })

  it('refuses past, far, closed and malformed dates, and unknown slots', () => {
    expect(slotRefusal('2026-11-27', slot, 0, now)).toBeNull()
    expect(slotRefusal('2026-11-26', slot, 0, now)).toBe('SLOT_UNAVAILABLE')
    expect(slotRefusal('2026-12-11', slot, 0, now)).toBe('SLOT_UNAVAILABLE')
    expect(slotRefusal('2026-11-29', slot, 0, now)).toBe('SLOT_UNAVAILABLE')
    expect(slotRefusal('2026-11-31', slot, 0, now)).toBe('SLOT_UNAVAILABLE')
    expect(slotRefusal('27/11/2026', slot, 0, now)).toBe('SLOT_UNAVAILABLE')
    expect(slotRefusal('2026-11-27', '09:00-10:00', 0, now)).toBe('SLOT_UNAVAILABLE')
    const holiday = { ...DEFAULT_PICKUP_RULES, closedDates: ['2026-11-27'] }
    expect(slotRefusal('2026-11-27', slot, 0, now, holiday)).toBe('SLOT_UNAVAILABLE')
  })

  it('fills a slot at its capacity', () => {
    const full = DEFAULT_PICKUP_RULES.capacityPerSlot
    expect(slotAvailable('2026-11-27', slot, full - 1, now)).toBe(true)
    expect(slotRefusal('2026-11-27', slot, full, now)).toBe('SLOT_FULL')
  })

  it('rolls over at China midnight, not UTC midnight', () => {
    // 16:00 UTC on the 26th is midnight of the 27th in China: the 27th is today, not bookable.
    const chinaMidnight = Date.parse('2026-11-26T16:00:00Z')
    expect(slotRefusal('2026-11-27', slot, 0, chinaMidnight)).toBe('SLOT_UNAVAILABLE')
    expect(slotRefusal('2026-11-27', slot, 0, chinaMidnight - 1)).toBeNull()
  })
})

describe('exit ban (queryExitBan)', () => {
  const banned = [{ exportBanned: false }, { exportBanned: true }]

  it('keeps banned items in the mainland only', () => {
    expect(canShipTo(banned, 'CN', '31')).toBeNull()
    expect(canShipTo(banned, 'CN')).toBeNull()
    expect(canShipTo(banned, 'US')).toBe('EXIT_BANNED')
    expect(canShipTo(banned, 'CN', '81')).toBe('EXIT_BANNED')
    expect(canShipTo(banned, 'CN', '810000')).toBe('EXIT_BANNED')
    expect(canShipTo(banned, 'CN', '440000')).toBeNull()
    expect(canShipTo([{ exportBanned: false }], 'US')).toBeNull()
    expect(isMainland({ countryCode: 'CN', provinceCode: '71' })).toBe(false)
  })
})

describe('dates', () => {
  it('has China days of 24 hours', () => {
    expect(chinaDate(china('2026-11-26T00:00:00') + DAY - 1)).toBe('2026-11-26')
  })
})

describe('a delivery quote', () => {
  const now = china('2026-12-11T08:00:00')
  const paidAts = [china('2026-11-01T23:30:00'), china('2026-12-01T12:00:00')]

  it('charges express shipping, insurance when asked, and each order’s storage', () => {
    const quote = quoteDelivery(
      {
        method: 'express',
        destination: { countryCode: 'CN', provinceCode: '110000' },
        pieces: 2,
        insured: true,
        declaredValue: 2_000_000,
        paidAts,
      },
      now,
    )
    expect(quote).toEqual({
      shippingFee: 1_800 + 300,
      insuranceFee: 10_000,
      storageFee: 1_000,
      total: 2_100 + 10_000 + 1_000,
    })
  })

  it('charges a pickup its storage only', () => {
    const pickup = {
      method: 'pickup' as const,
      destination: null,
      pieces: 2,
      insured: true,
      declaredValue: 2_000_000,
      paidAts,
    }
    expect(quoteDelivery(pickup, now)).toEqual({
      shippingFee: 0,
      insuranceFee: 0,
      storageFee: 1_000,
      total: 1_000,
    })
    expect(() => quoteDelivery({ ...pickup, method: 'express' }, now)).toThrow(RangeError)
  })
})
