import type { TFunction } from './i18n'
import type { UserCouponRecord } from '@numisma/contracts/mall'
import { formatFen } from '@numisma/contracts/money'

/** The terms a coupon's saving is told from (every coupon view of the contracts has them). */
export type CouponSavingTerms = Pick<
  UserCouponRecord,
  'kind' | 'threshold' | 'amount' | 'percent' | 'cap'
>

/**
 * Yuan for a coupon's round figures: "100" for whole yuan, "99.50" otherwise, with thousands
 * separators (spec §5's formatter); "满100减10" reads as a collector expects, "满100.00减10.00" not.
 */
export function couponYuan(fen: number): string {
  return formatFen(fen, fen % 100 === 0 ? 0 : 2)
}

/** 10 % off is 9折, 15 % off 8.5折 (a Chinese discount names what is paid, in tenths). */
export function discountTenths(percent: number): string {
  return String((100 - percent) / 10)
}

/**
 * What the coupon saves, in one line: 满100减10, 无门槛减10, 9折 最高减50, 满200打8.5折;
 * "¥10 off over ¥100", "10% off, up to ¥50" in English. Amounts are fen.
 */
export function couponSummary(terms: CouponSavingTerms, t: TFunction): string {
  const threshold = couponYuan(terms.threshold)
  if (terms.kind === 'amount') {
    const amount = couponYuan(terms.amount ?? 0)
    return terms.threshold > 0
      ? t('myCoupon.rule.amount', { threshold, amount })
      : t('myCoupon.rule.amountAny', { amount })
  }
  const percent = terms.percent ?? 0
  const discount = discountTenths(percent)
  const rule =
    terms.threshold > 0
      ? t('myCoupon.rule.percent', { threshold, discount, percent })
      : t('myCoupon.rule.percentAny', { discount, percent })
  return terms.cap === null ? rule : t('myCoupon.rule.capped', { rule, cap: couponYuan(terms.cap) })
}

/** The big figure of a coupon ticket: ¥10, or 9折 ("10% off"). */
export function couponFigure(terms: CouponSavingTerms, t: TFunction): string {
  if (terms.kind === 'amount') return `¥${couponYuan(terms.amount ?? 0)}`
  const percent = terms.percent ?? 0
  return t('myCoupon.figurePercent', { discount: discountTenths(percent), percent })
}
