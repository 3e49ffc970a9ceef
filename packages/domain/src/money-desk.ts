import type { Leg } from './postings'

/**
 * Rules of the cashier's desk (issue 12) that are not a customer's own movements.
 *
 * An adjustment corrects a user's balance or deposit by hand (a counter mistake, a goodwill
 * credit, money taken back that was credited twice). It posts against the platform's clearing
 * account — the account of money to and from the outside world — because every such correction
 * stands for money that was, or should have been, paid in or out; the transfer's kind
 * (`adjustment_credit` / `adjustment_debit`) and its memo (the operator's reason) keep adjustments
 * apart from remittances and counter cash in the daily report and the user's ledger lines.
 */
export function adjustment(
  account: 'balance' | 'deposit',
  direction: 'credit' | 'debit',
  amount: number,
): Leg[] {
  const signed = direction === 'credit' ? amount : -amount
  return [
    { owner: 'platform', kind: 'platform_clearing', amount: -signed },
    { owner: 'user', kind: account, amount: signed },
  ]
}

export type RefundRefusal = 'NOT_PAID' | 'DELIVERY_APPLIED' | 'ALREADY_CANCELLED'

/**
 * Whether staff may refund an order: only a paid order whose goods are still in storage — once
 * delivery is applied for (or it shipped, or completed) the goods are on their way and a refund
 * is a return, not this call. Refunding takes it `paid → cancelled` (the order state machine's
 * terminal cancelled; DESIGN §9 has no separate refunded status), auction or mall alike.
 */
export function refundRefusal(order: { status: string }): RefundRefusal | null {
  switch (order.status) {
    case 'paid':
      return null
    case 'cancelled':
      return 'ALREADY_CANCELLED'
    case 'delivery_applied':
    case 'shipped':
    case 'completed':
      return 'DELIVERY_APPLIED'
    default:
      return 'NOT_PAID'
  }
}
