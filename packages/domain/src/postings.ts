import type { AccountKind } from './ledger'

/**
 * Posting rules (DESIGN §6): what each money movement does to which accounts, as legs that sum to
 * zero. Pure, so the server posts exactly these and a property test can replay any sequence of them
 * against the ledger's invariants. Amounts in fen; a leg's `owner` is the user's or the platform's.
 *
 * Accounts: a user's `balance` (spendable), `deposit` (保证金, secures bids) and `withdrawal`
 * (money asked to be paid out, held until staff pay or refuse it); the platform's `clearing` (money
 * from and to the outside world: the messaging platform, bank transfers, the counter), `revenue`
 * (goods sold) and `fees` (handling and channel fees).
 */
export interface Leg {
  owner: 'user' | 'platform'
  kind: AccountKind
  amount: number
}

const user = (kind: AccountKind, amount: number): Leg => ({ owner: 'user', kind, amount })
const platform = (kind: AccountKind, amount: number): Leg => ({ owner: 'platform', kind, amount })

/** Drops zero legs (a transfer may not post 0) and merges legs on the same account. */
function legs(...all: Leg[]): Leg[] {
  const merged = new Map<string, Leg>()
  for (const leg of all) {
    const key = `${leg.owner}:${leg.kind}`
    const seen = merged.get(key)
    merged.set(key, seen ? { ...seen, amount: seen.amount + leg.amount } : leg)
  }
  return [...merged.values()].filter((leg) => leg.amount !== 0)
}

export interface OrderCharge {
  /** The goods total before any coupon. */
  goods: number
  /** What a coupon took off the goods. */
  discount: number
  /** The buyer's handling fee (won lots). */
  fee: number
}

/**
 * Paying orders: from the buyer's balance, or with money arriving from outside (messaging-app
 * pay) through clearing. Goods less discount are revenue, the handling fee is a fee.
 */
export function payOrders(charges: readonly OrderCharge[], from: 'balance' | 'clearing'): Leg[] {
  const revenue = charges.reduce((sum, c) => sum + c.goods - c.discount, 0)
  const fees = charges.reduce((sum, c) => sum + c.fee, 0)
  const total = revenue + fees
  return legs(
    from === 'balance' ? user('balance', -total) : platform('platform_clearing', -total),
    platform('platform_revenue', revenue),
    platform('platform_fees', fees),
  )
}

/** A recharge paid from outside: the amount onto the deposit, the channel fee to fees. */
export function recharge(amount: number, channelFee: number): Leg[] {
  return legs(
    platform('platform_clearing', -(amount + channelFee)),
    user('deposit', amount),
    platform('platform_fees', channelFee),
  )
}

/** Money in from outside onto the balance: a confirmed remittance, cash at the counter. */
export function creditBalance(amount: number): Leg[] {
  return legs(platform('platform_clearing', -amount), user('balance', amount))
}

/** Money in from outside onto the deposit (an operator recording a deposit paid at the counter). */
export function creditDeposit(amount: number): Leg[] {
  return legs(platform('platform_clearing', -amount), user('deposit', amount))
}

/** Balance → deposit for a positive amount, deposit → balance for a negative one. */
export function moveToDeposit(amount: number): Leg[] {
  return legs(user('balance', -amount), user('deposit', amount))
}

/** A withdrawal asked for: the amount is held at once, out of reach of bids and payments. */
export function reserveWithdrawal(amount: number, source: 'balance' | 'deposit'): Leg[] {
  return legs(user(source, -amount), user('withdrawal', amount))
}

/** Staff paid the withdrawal out: the held money leaves through clearing. */
export function payWithdrawal(amount: number): Leg[] {
  return legs(user('withdrawal', -amount), platform('platform_clearing', amount))
}

/** Staff refused the withdrawal: the held money goes back where it came from. */
export function refuseWithdrawal(amount: number, source: 'balance' | 'deposit'): Leg[] {
  return legs(user('withdrawal', -amount), user(source, amount))
}

/** An overdue winner's deposit pays for the lot they did not pay for (up to the deposit). */
export function forfeitDeposit(amount: number): Leg[] {
  return legs(user('deposit', -amount), platform('platform_revenue', amount))
}

/**
 * Delivery fees (shipping, insurance, storage beyond the free days) taken from the balance when
 * delivery is applied for (docs/decisions/015): one transfer per shipment, to revenue.
 */
export function payDeliveryFees(amount: number): Leg[] {
  return legs(user('balance', -amount), platform('platform_revenue', amount))
}

/** A refund of a paid order onto the buyer's balance (goods and fee back). */
export function refundOrder(charge: OrderCharge): Leg[] {
  return legs(
    platform('platform_revenue', -(charge.goods - charge.discount)),
    platform('platform_fees', -charge.fee),
    user('balance', charge.goods - charge.discount + charge.fee),
  )
}
