import type { UsableCoupon } from '@numisma/contracts/mall'
import type { CouponKind, CouponRule } from '@numisma/domain/coupons'
import type { CouponRow } from './repository'

const iso = (ms: number): string => new Date(ms).toISOString()

function kindOf(value: string): CouponKind {
  if (value === 'amount' || value === 'percent') return value
  throw new Error(`coupon has an unknown kind: ${value}`)
}

function jsonList<T>(text: string, isItem: (v: unknown) => v is T): T[] {
  const parsed: unknown = JSON.parse(text)
  return Array.isArray(parsed) ? parsed.filter(isItem) : []
}

const isString = (v: unknown): v is string => typeof v === 'string'
const isId = (v: unknown): v is number => Number.isInteger(v)

/** A coupon row as the rules in packages/domain judge it. */
export function ruleOf(row: CouponRow): CouponRule {
  return {
    kind: kindOf(row.kind),
    threshold: row.threshold,
    amount: row.amount,
    percent: row.percent,
    cap: row.cap,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    productNos: jsonList(row.product_nos, isString),
    categoryIds: jsonList(row.category_ids, isId),
  }
}

/** The terms every coupon view shows. */
export type CouponTerms = Omit<UsableCoupon, 'userCouponId' | 'couponId' | 'saving'>

export function termsOf(row: CouponRow): CouponTerms {
  const rule = ruleOf(row)
  return {
    title: row.title,
    kind: rule.kind,
    threshold: row.threshold,
    amount: row.amount,
    percent: row.percent,
    cap: row.cap,
    startsAt: iso(row.starts_at),
    endsAt: iso(row.ends_at),
    scope: rule.productNos.length === 0 && rule.categoryIds.length === 0 ? 'all' : 'limited',
  }
}
