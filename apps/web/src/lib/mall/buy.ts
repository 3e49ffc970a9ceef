import type { MallItemDetail } from '@numisma/contracts/catalog'
import { ORDER_QUANTITY_MAX } from '@numisma/contracts/limits'
import type { CreateOrderResult, UsableCoupon } from '@numisma/contracts/mall'
import { couponSaving, type CouponRule } from '@numisma/domain/coupons'

/**
 * The buying rules the item page's buy bar and the confirm page share: how many units may be
 * chosen, which coupon applies, and what the order comes to. The server judges the order again
 * under its row lock; these only keep the screen from offering what it would refuse.
 */

/** The most units one order may ask for (the contract's bound). */
export const QUANTITY_MAX = ORDER_QUANTITY_MAX

/** Why the item cannot be bought now, in the order a buyer would want to hear it. */
export type BuyBlock = 'off_sale' | 'sold_out' | 'limit_reached'

export interface BuyLimits {
  /** The most units the stepper offers (at least 1, so it always has a value to show). */
  max: number
  /** Set when nothing can be bought; the button shows it instead of 立即购买. */
  block: BuyBlock | null
}

export function buyLimits(
  item: Pick<MallItemDetail, 'onSale' | 'stock' | 'limitPerUser' | 'boughtByMe'>,
): BuyLimits {
  const allowance =
    item.limitPerUser === null ? QUANTITY_MAX : Math.max(0, item.limitPerUser - item.boughtByMe)
  const block: BuyBlock | null = !item.onSale
    ? 'off_sale'
    : item.stock <= 0
      ? 'sold_out'
      : allowance <= 0
        ? 'limit_reached'
        : null
  return { max: Math.max(1, Math.min(item.stock, allowance, QUANTITY_MAX)), block }
}

/** A quantity from a link or a stale stepper, brought within 1…max. */
export function clampQuantity(quantity: number | undefined, max: number): number {
  if (quantity === undefined || !Number.isFinite(quantity)) return 1
  return Math.min(Math.max(1, Math.trunc(quantity)), Math.max(1, max))
}

/**
 * The quantity to offer after the server refused an order as sold out but said how many are left
 * (`left`, fewer than asked, at least one); null for any other answer (nothing left, another
 * refusal), which changes no quantity.
 */
export function quantityLeftAfter(
  result: Pick<CreateOrderResult, 'status' | 'left'>,
  asked: number,
): number | null {
  if (result.status !== 'SOLD_OUT' || result.left === undefined) return null
  return result.left >= 1 && result.left < asked ? result.left : null
}

/**
 * The buyer's coupon choice: `best` until they pick (the server's first, best-first list), then a
 * coupon of their own or none at all.
 */
export type CouponChoice = { kind: 'best' } | { kind: 'none' } | { kind: 'coupon'; id: number }

export const BEST_COUPON: CouponChoice = { kind: 'best' }

/** The choice as /order/confirm's `userCouponId` parameter: absent for best, `none`, or an id. */
export function couponChoiceParam(choice: CouponChoice): string | undefined {
  return choice.kind === 'best' ? undefined : choice.kind === 'none' ? 'none' : String(choice.id)
}

export function parseCouponChoice(value: string | null | undefined): CouponChoice {
  if (value === 'none') return { kind: 'none' }
  if (value && /^\d{1,10}$/.test(value) && Number(value) > 0) {
    return { kind: 'coupon', id: Number(value) }
  }
  return BEST_COUPON
}

/**
 * The coupon the order uses: the chosen one while it is still offered for this quantity, else the
 * best (a coupon picked for 3 units may not reach its threshold at 1, or be held by another order).
 */
export function chosenCoupon(
  choice: CouponChoice,
  usable: readonly UsableCoupon[],
): UsableCoupon | null {
  if (choice.kind === 'none') return null
  if (choice.kind === 'coupon') {
    const picked = usable.find((c) => c.userCouponId === choice.id)
    if (picked) return picked
  }
  return usable[0] ?? null
}

/**
 * The domain rule of a coupon the server offered for this item. Scope stays empty (the whole
 * mall): the server already judged it for this item, and only the goods total changes here.
 */
export function couponRuleOf(coupon: UsableCoupon): CouponRule {
  return {
    kind: coupon.kind,
    threshold: coupon.threshold,
    amount: coupon.amount,
    percent: coupon.percent,
    cap: coupon.cap,
    startsAt: Date.parse(coupon.startsAt),
    endsAt: Date.parse(coupon.endsAt),
    productNos: [],
    categoryIds: [],
  }
}

/** What a coupon takes off these goods: nothing below its threshold, else the domain's saving. */
export function savingFor(coupon: UsableCoupon, goods: number): number {
  return goods < coupon.threshold ? 0 : couponSaving(couponRuleOf(coupon), goods)
}

export interface OrderTotals {
  /** Price × quantity. */
  goods: number
  discount: number
  /** goods − discount (a mall order has no fee until delivery). */
  total: number
}

export function orderTotals(
  price: number,
  quantity: number,
  coupon: UsableCoupon | null,
): OrderTotals {
  const goods = price * quantity
  const discount = coupon ? savingFor(coupon, goods) : 0
  return { goods, discount, total: goods - discount }
}
