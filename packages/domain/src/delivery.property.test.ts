import { CHINA_OFFSET_MS } from '@numisma/contracts/dates'
import { PICKUP_SLOTS } from '@numisma/contracts/delivery'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  bookableDates,
  canShipTo,
  chinaDate,
  DEFAULT_PICKUP_RULES,
  DEFAULT_SHIPPING_RATES,
  DEFAULT_STORAGE,
  type Destination,
  insuranceFee,
  isMainland,
  type PickupRules,
  quoteDelivery,
  shippingFee,
  shippingZone,
  slotRefusal,
  storageFee,
  storageFreeUntil,
} from './delivery'

/**
 * DESIGN §6 delivery invariants over generated values: the insurance fee never falls below its
 * minimum, grows with the declared value and is the rate rounded up to the fen; storage is free
 * through the free days and then grows by the daily fee at each China midnight; the shipping fee
 * grows with the pieces and with the distance; a slot is taken exactly when it is an open day in
 * the window, a known slot and not full; banned items never leave the mainland.
 *
 * Reproduce a failure: FC_SEED=<seed> [FC_PATH=<path>] npx vitest run --project unit packages/domain/src/delivery
 */
const NUM_RUNS = Number(process.env.FC_RUNS ?? 2_000)
const SEED = process.env.FC_SEED
  ? Number(process.env.FC_SEED)
  : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0
const PATH = process.env.FC_PATH
const RERUN = `FC_SEED=${SEED} npx vitest run --project unit packages/domain/src/delivery`
const params = { numRuns: NUM_RUNS, seed: SEED, ...(PATH ? { path: PATH } : {}) }

const NOW = 1_800_000_000_000
const DAY = 86_400_000

/** Small values (where the minimum and rounding bite) as often as the largest safe ones. */
const valueArb = fc.oneof(
  fc.integer({ min: 0, max: 200_000 }),
  fc.integer({ min: 0, max: 100_000_000_000 }),
  fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
)
const rateArb = fc.record({
  rateBps: fc.integer({ min: 0, max: 10_000 }),
  minimum: fc.integer({ min: 0, max: 100_000 }),
})
const instantArb = fc.integer({ min: NOW - 400 * DAY, max: NOW + 400 * DAY })

const provinceArb = fc.constantFrom(
  ...['11', '12', '31', '32', '33', '34', '44', '15', '54', '63', '65', '71', '81', '82'].flatMap(
    (p) => [p, `${p}0000`],
  ),
)
const destinationArb: fc.Arbitrary<Destination> = fc.oneof(
  fc.record({
    countryCode: fc.constant('CN'),
    provinceCode: fc.option(provinceArb, { nil: null }),
  }),
  fc.record({
    countryCode: fc.constantFrom('US', 'JP', 'HK', 'MO', 'TW', 'GB', 'cn'),
    provinceCode: fc.constant(null),
  }),
)
const ZONE_ORDER = ['near', 'standard', 'remote', 'hmt', 'overseas'] as const

describe(`delivery rules (DESIGN §6) — seed ${SEED}; rerun: ${RERUN}`, () => {
  it('insurance: never below the minimum, the rate rounded up, monotonic in the value', () => {
    fc.assert(
      fc.property(valueArb, valueArb, rateArb, (a, b, rate) => {
        const fee = insuranceFee(a, rate)
        expect(Number.isInteger(fee)).toBe(true)
        expect(fee).toBeGreaterThanOrEqual(rate.minimum)
        const exact = BigInt(a) * BigInt(rate.rateBps)
        // Covers the exact rate …
        expect(BigInt(fee) * 10_000n >= exact).toBe(true)
        // … and, above the minimum, by less than one fen.
        if (fee > rate.minimum) expect(BigInt(fee - 1) * 10_000n < exact).toBe(true)
        const [lo, hi] = a <= b ? [a, b] : [b, a]
        expect(insuranceFee(lo, rate)).toBeLessThanOrEqual(insuranceFee(hi, rate))
      }),
      params,
    )
  })

  it('storage: free for the free days, then the daily fee from a China midnight on', () => {
    fc.assert(
      fc.property(
        instantArb,
        fc.integer({ min: 0, max: 200 * DAY }),
        fc.integer({ min: 0, max: 200 * DAY }),
        (paidAt, x, y) => {
          const [early, late] = x <= y ? [paidAt + x, paidAt + y] : [paidAt + y, paidAt + x]
          const free = storageFreeUntil(paidAt)
          // The free period is the free days at least, and ends at a China midnight.
          expect(free - paidAt).toBeGreaterThan(DEFAULT_STORAGE.freeDays * DAY)
          expect(free - paidAt).toBeLessThanOrEqual((DEFAULT_STORAGE.freeDays + 1) * DAY)
          expect((free + CHINA_OFFSET_MS) % DAY).toBe(0)
          if (early - paidAt <= DEFAULT_STORAGE.freeDays * DAY) {
            expect(storageFee(paidAt, early)).toBe(0)
          }
          expect(storageFee(paidAt, early) === 0).toBe(early < free)
          // Monotonic, a whole number of days, and one day's fee more per China day.
          expect(storageFee(paidAt, early)).toBeLessThanOrEqual(storageFee(paidAt, late))
          expect(storageFee(paidAt, late) % DEFAULT_STORAGE.perDay).toBe(0)
          if (late >= free) {
            const days = Math.floor((late - free) / DAY) + 1
            expect(storageFee(paidAt, late)).toBe(days * DEFAULT_STORAGE.perDay)
          }
        },
      ),
      params,
    )
  })

  it('shipping: grows with the pieces and with the distance', () => {
    fc.assert(
      fc.property(
        destinationArb,
        destinationArb,
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 1, max: 500 }),
        (d1, d2, p1, p2) => {
          const [lo, hi] = p1 <= p2 ? [p1, p2] : [p2, p1]
          expect(shippingFee(d1, lo)).toBeLessThanOrEqual(shippingFee(d1, hi))
          expect(shippingFee(d1, lo)).toBeGreaterThan(0)
          const z1 = ZONE_ORDER.indexOf(shippingZone(d1))
          const z2 = ZONE_ORDER.indexOf(shippingZone(d2))
          if (z1 <= z2) expect(shippingFee(d1, lo)).toBeLessThanOrEqual(shippingFee(d2, lo))
          const rate = DEFAULT_SHIPPING_RATES[shippingZone(d1)]
          expect(shippingFee(d1, lo)).toBe(rate.first + rate.additional * (lo - 1))
        },
      ),
      params,
    )
  })

  it('slots: taken exactly on an open day in the window, a known slot, not full', () => {
    const rulesArb: fc.Arbitrary<PickupRules> = fc.record({
      capacityPerSlot: fc.integer({ min: 1, max: 20 }),
      daysAhead: fc.integer({ min: 1, max: 30 }),
      closedWeekdays: fc.subarray([0, 1, 2, 3, 4, 5, 6]),
      closedDates: fc.array(
        fc.integer({ min: -5, max: 40 }).map((d) => chinaDate(NOW + d * DAY)),
        { maxLength: 5 },
      ),
    })
    fc.assert(
      fc.property(
        instantArb,
        fc.integer({ min: -5, max: 40 }),
        fc.oneof(fc.constantFrom(...PICKUP_SLOTS), fc.constant('08:00-09:00')),
        fc.integer({ min: 0, max: 25 }),
        fc.oneof(fc.constant(DEFAULT_PICKUP_RULES), rulesArb),
        (now, ahead, slot, booked, rules) => {
          const date = chinaDate(now + ahead * DAY)
          const refusal = slotRefusal(date, slot, booked, now, rules)
          const inWindow = bookableDates(now, rules).includes(date)
          const known = (PICKUP_SLOTS as readonly string[]).includes(slot)
          if (!inWindow || !known) expect(refusal).toBe('SLOT_UNAVAILABLE')
          else expect(refusal).toBe(booked >= rules.capacityPerSlot ? 'SLOT_FULL' : null)
        },
      ),
      params,
    )
  })

  it('a quote is the sum of its parts; a pickup pays storage only', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('express' as const, 'pickup' as const),
        destinationArb,
        fc.integer({ min: 1, max: 100 }),
        fc.boolean(),
        valueArb.filter((v) => v <= 100_000_000_000_000),
        fc.array(instantArb, { minLength: 1, maxLength: 50 }),
        instantArb,
        (method, destination, pieces, insured, declaredValue, paidAts, now) => {
          const q = quoteDelivery(
            { method, destination, pieces, insured, declaredValue, paidAts },
            now,
          )
          expect(q.total).toBe(q.shippingFee + q.insuranceFee + q.storageFee)
          expect(q.storageFee).toBe(paidAts.reduce((s, p) => s + storageFee(p, now), 0))
          if (method === 'pickup') expect(q.shippingFee + q.insuranceFee).toBe(0)
          else {
            expect(q.shippingFee).toBe(shippingFee(destination, pieces))
            expect(q.insuranceFee).toBe(insured ? insuranceFee(declaredValue) : 0)
          }
        },
      ),
      params,
    )
  })

  it('exit ban: banned items go only to the mainland; nothing else is ever refused', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ exportBanned: fc.boolean() }), { maxLength: 6 }),
        destinationArb,
        (items, d) => {
          const refusal = canShipTo(items, d.countryCode, d.provinceCode)
          const banned = items.some((i) => i.exportBanned)
          expect(refusal).toBe(banned && !isMainland(d) ? 'EXIT_BANNED' : null)
        },
      ),
      params,
    )
  })
})
