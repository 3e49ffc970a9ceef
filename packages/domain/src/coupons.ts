/**
 * Mall coupon rules (DESIGN §5): spend-X-save-Y (`amount`) and percent-off-with-cap (`percent`),
 * a validity window, and a scope of items or categories. Pure, so the server's checkout and the
 * web app's buy bar judge a coupon by the same rules. Amounts in fen.
 */
export const COUPON_KINDS = ['amount', 'percent'] as const
export type CouponKind = (typeof COUPON_KINDS)[number]

export interface CouponRule {
  kind: CouponKind
  /** The goods total must reach this (满 X). */
  threshold: number
  /** The saving of kind `amount` (减 Y). */
  amount: number | null
  /** Percent off (1–99) of kind `percent`. */
  percent: number | null
  /** The most a `percent` coupon saves; none when null. */
  cap: number | null
  /** Valid from `startsAt` (inclusive) until `endsAt` (exclusive), epoch ms. */
  startsAt: number
  endsAt: number
  /** Items it applies to; empty together with `categoryIds` means the whole mall. */
  productNos: readonly string[]
  categoryIds: readonly number[]
}

/** What a coupon is judged against: one mall item bought in some quantity. */
export interface CouponLine {
  productNo: string
  /** The item's category and every category above it (a coupon for 钱币 covers 古钱币). */
  categoryIds: readonly number[]
  /** Price × quantity. */
  goods: number
}

export type CouponRefusal = 'not_started' | 'expired' | 'below_threshold' | 'out_of_scope'

export function inScope(rule: CouponRule, line: CouponLine): boolean {
  if (rule.productNos.length === 0 && rule.categoryIds.length === 0) return true
  return (
    rule.productNos.includes(line.productNo) ||
    line.categoryIds.some((id) => rule.categoryIds.includes(id))
  )
}

/** Why the coupon cannot be used for this line now, or null when it can. */
export function couponRefusal(
  rule: CouponRule,
  line: CouponLine,
  now: number,
): CouponRefusal | null {
  if (now < rule.startsAt) return 'not_started'
  if (now >= rule.endsAt) return 'expired'
  if (!inScope(rule, line)) return 'out_of_scope'
  if (line.goods < rule.threshold) return 'below_threshold'
  return null
}

/** The least an order with a coupon still costs, in fen. */
export const MIN_TOTAL = 1

/**
 * What the coupon takes off a goods total: never negative, and for a percent coupon rounded down
 * to the fen and at most its cap. It never takes the total below one fen (ADR 011): every order
 * is paid through the same payment path, and a payment of nothing would have no ledger transfer.
 * So a coupon saves nothing on goods of one fen, and is not usable for them.
 */
export function couponSaving(rule: CouponRule, goods: number): number {
  if (goods <= MIN_TOTAL) return 0
  const raw =
    rule.kind === 'amount'
      ? (rule.amount ?? 0)
      : Math.min(percentOf(goods, rule.percent ?? 0), rule.cap ?? Number.MAX_SAFE_INTEGER)
  return Math.max(0, Math.min(raw, goods - MIN_TOTAL))
}

/**
 * floor(goods × percent / 100), exactly: goods × percent passes 2^53 for the largest orders (a
 * price of up to 1e11 fen × 999 units), where a double would round it. Split goods = 100q + r:
 * the result is q × percent + floor(r × percent / 100), and every step stays a safe integer.
 */
function percentOf(goods: number, percent: number): number {
  return Math.floor(goods / 100) * percent + Math.floor(((goods % 100) * percent) / 100)
}

export interface Saving<T> {
  coupon: T
  saving: number
}

/**
 * The usable coupons for a line with what each saves, best first: the largest saving, then the
 * one that expires first (use it before it is lost), then the lowest id.
 */
export function rankCoupons<T extends { id: number; rule: CouponRule }>(
  coupons: readonly T[],
  line: CouponLine,
  now: number,
): Saving<T>[] {
  return coupons
    .filter((c) => couponRefusal(c.rule, line, now) === null)
    .map((coupon) => ({ coupon, saving: couponSaving(coupon.rule, line.goods) }))
    .filter((s) => s.saving > 0)
    .sort(
      (a, b) =>
        b.saving - a.saving ||
        a.coupon.rule.endsAt - b.coupon.rule.endsAt ||
        a.coupon.id - b.coupon.id,
    )
}

/** The coupon to pre-select for a line, or null when none saves anything. */
export function bestCoupon<T extends { id: number; rule: CouponRule }>(
  coupons: readonly T[],
  line: CouponLine,
  now: number,
): Saving<T> | null {
  return rankCoupons(coupons, line, now)[0] ?? null
}
