import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  bestCoupon,
  type CouponLine,
  type CouponRule,
  couponRefusal,
  couponSaving,
  inScope,
  rankCoupons,
} from './coupons'

/**
 * DESIGN §5 coupon invariants over generated coupons and order lines: a saving is a whole number
 * of fen from 0 up to the goods less one fen (ADR 011: a total never falls below 1 fen), a percent
 * coupon rounds down and keeps to its cap, and the ranking holds exactly the coupons the rules
 * accept, best first.
 *
 * Reproduce a failure: FC_SEED=<seed> [FC_PATH=<path>] npx vitest run --project unit packages/domain/src/coupons
 */
const NUM_RUNS = Number(process.env.FC_RUNS ?? 2_000)
const SEED = process.env.FC_SEED
  ? Number(process.env.FC_SEED)
  : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0
const PATH = process.env.FC_PATH
const RERUN = `FC_SEED=${SEED} npx vitest run --project unit packages/domain/src/coupons`
const params = { numRuns: NUM_RUNS, seed: SEED, ...(PATH ? { path: PATH } : {}) }

const NOW = 1_800_000_000_000
const DAY = 86_400_000
/** The contracts' ceiling for an amount (one billion yuan in fen). */
const MAX_FEN = 100_000_000_000
/** The largest goods total an order can reach: the highest price × the most units (999). */
const MAX_GOODS = MAX_FEN * 999

const PRODUCTS = ['M100001', 'M100002', 'M100003', 'M100004']
const CATEGORIES = [1, 2, 11, 12, 21]

/** Small amounts (where rounding and thresholds bite) as often as large ones. */
const fenArb = fc.oneof(
  fc.integer({ min: 0, max: 1_000 }),
  fc.integer({ min: 0, max: 1_000_000 }),
  fc.integer({ min: 0, max: MAX_FEN }),
)

const windowArb = fc
  .tuple(fc.integer({ min: -3 * DAY, max: 3 * DAY }), fc.integer({ min: 1, max: 3 * DAY }))
  .map(([start, length]) => ({ startsAt: NOW + start, endsAt: NOW + start + length }))

const scopeArb = fc.record({
  productNos: fc.subarray(PRODUCTS, { maxLength: 2 }),
  categoryIds: fc.subarray(CATEGORIES, { maxLength: 2 }),
})

const amountRuleArb: fc.Arbitrary<CouponRule> = fc
  .record({
    threshold: fenArb,
    amount: fenArb.filter((a) => a > 0),
    window: windowArb,
    scope: scopeArb,
  })
  .map(({ threshold, amount, window, scope }) => ({
    kind: 'amount',
    threshold,
    amount,
    percent: null,
    cap: null,
    ...window,
    ...scope,
  }))

const percentRuleArb: fc.Arbitrary<CouponRule> = fc
  .record({
    threshold: fenArb,
    percent: fc.integer({ min: 1, max: 99 }),
    cap: fc.option(
      fenArb.filter((c) => c > 0),
      { nil: null },
    ),
    window: windowArb,
    scope: scopeArb,
  })
  .map(({ threshold, percent, cap, window, scope }) => ({
    kind: 'percent',
    threshold,
    amount: null,
    percent,
    cap,
    ...window,
    ...scope,
  }))

const ruleArb = fc.oneof(amountRuleArb, percentRuleArb)

/**
 * A goods total: small ones as often as any, up to the largest an order can reach, where
 * goods × percent no longer fits a double exactly (2^53).
 */
const goodsArb = fc.oneof(fenArb, fc.integer({ min: 0, max: MAX_GOODS }))

const lineArb: fc.Arbitrary<CouponLine> = fc.record({
  productNo: fc.constantFrom(...PRODUCTS),
  categoryIds: fc.subarray(CATEGORIES, { maxLength: 3 }),
  goods: goodsArb,
})

const nowArb = fc.integer({ min: NOW - 4 * DAY, max: NOW + 4 * DAY })

const couponsArb = fc
  .array(ruleArb, { maxLength: 12 })
  .map((rules) => rules.map((rule, i) => ({ id: i + 1, rule })))

describe(`coupon rules (DESIGN §5) — seed ${SEED}; rerun: ${RERUN}`, () => {
  it('a saving is whole fen, never negative, and leaves at least one fen to pay', () => {
    fc.assert(
      fc.property(ruleArb, goodsArb, (rule, goods) => {
        const saving = couponSaving(rule, goods)
        expect(Number.isInteger(saving)).toBe(true)
        expect(saving).toBeGreaterThanOrEqual(0)
        if (goods >= 1) expect(goods - saving).toBeGreaterThanOrEqual(1)
        else expect(saving).toBe(0)
      }),
      params,
    )
  })

  it('an amount coupon saves its amount, or the goods less one fen when they are not more', () => {
    fc.assert(
      fc.property(amountRuleArb, goodsArb, (rule, goods) => {
        expect(couponSaving(rule, goods)).toBe(Math.min(rule.amount ?? 0, Math.max(0, goods - 1)))
      }),
      params,
    )
  })

  it('a percent coupon rounds down to the fen and keeps to its cap', () => {
    fc.assert(
      fc.property(percentRuleArb, goodsArb, (rule, goods) => {
        const saving = couponSaving(rule, goods)
        // Judged in exact integers: goods × percent can pass 2^53.
        const exact = BigInt(goods) * BigInt(rule.percent ?? 0)
        if (rule.cap !== null) expect(saving).toBeLessThanOrEqual(rule.cap)
        // Never more than the exact percentage …
        expect(BigInt(saving) * 100n <= exact).toBe(true)
        // … and short of it by less than one fen unless the cap held it back.
        if (rule.cap === null || saving < rule.cap) {
          expect(BigInt(saving + 1) * 100n > exact).toBe(true)
        }
      }),
      params,
    )
  })

  it('a coupon the rules accept is in its window, in scope and at its threshold', () => {
    fc.assert(
      fc.property(ruleArb, lineArb, nowArb, (rule, line, now) => {
        const refusal = couponRefusal(rule, line, now)
        const accepted =
          rule.startsAt <= now &&
          now < rule.endsAt &&
          inScope(rule, line) &&
          line.goods >= rule.threshold
        expect(refusal === null).toBe(accepted)
      }),
      params,
    )
  })

  it('a whole-mall coupon covers every line; a wider category chain never loses scope', () => {
    fc.assert(
      fc.property(ruleArb, lineArb, fc.constantFrom(...CATEGORIES), (rule, line, extra) => {
        expect(inScope({ ...rule, productNos: [], categoryIds: [] }, line)).toBe(true)
        if (inScope(rule, line)) {
          expect(inScope(rule, { ...line, categoryIds: [...line.categoryIds, extra] })).toBe(true)
        }
      }),
      params,
    )
  })

  it('the ranking holds exactly the accepted coupons that save something, best first', () => {
    fc.assert(
      fc.property(couponsArb, lineArb, nowArb, (coupons, line, now) => {
        const ranked = rankCoupons(coupons, line, now)
        const expected = coupons.filter(
          (c) => couponRefusal(c.rule, line, now) === null && couponSaving(c.rule, line.goods) > 0,
        )
        expect(ranked.map((s) => s.coupon.id).sort((a, b) => a - b)).toEqual(
          expected.map((c) => c.id),
        )
        for (const s of ranked) {
          expect(couponRefusal(s.coupon.rule, line, now)).toBeNull()
          expect(s.saving).toBe(couponSaving(s.coupon.rule, line.goods))
          expect(s.saving).toBeGreaterThan(0)
        }
        for (let i = 1; i < ranked.length; i++) {
          expect(ranked[i - 1]!.saving).toBeGreaterThanOrEqual(ranked[i]!.saving)
        }
      }),
      params,
    )
  })

  it('the best coupon saves the most any accepted coupon saves, or is null when none saves', () => {
    fc.assert(
      fc.property(couponsArb, lineArb, nowArb, (coupons, line, now) => {
        const best = bestCoupon(coupons, line, now)
        const savings = coupons
          .filter((c) => couponRefusal(c.rule, line, now) === null)
          .map((c) => couponSaving(c.rule, line.goods))
        const most = Math.max(0, ...savings)
        if (most === 0) expect(best).toBeNull()
        else expect(best?.saving).toBe(most)
      }),
      params,
    )
  })
})
