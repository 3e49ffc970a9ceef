/**
 * The Chinese words of the ledger (issue 12): transfer kinds, account kinds and what a transfer
 * refers to. One table for the console's pages and the server's CSV, so the cashier reads the
 * same word on the screen and in the spreadsheet.
 */
export const TRANSFER_KIND_LABELS: Readonly<Record<string, string>> = {
  deposit: '保证金入账',
  balance_credit: '柜台现金入账',
  remittance: '银行汇款入账',
  payment: '订单支付',
  recharge: '保证金充值',
  payment_credit: '支付退回余额',
  move_to_deposit: '余额转保证金',
  move_to_balance: '保证金转余额',
  counter_cash: '柜台现金付款',
  withdrawal: '提现冻结',
  withdrawal_paid: '提现打款',
  withdrawal_refused: '提现退回',
  forfeit: '没收保证金',
  delivery_fees: '发货费用',
  adjustment_credit: '人工调增',
  adjustment_debit: '人工调减',
  refund: '订单退款',
}

export const ACCOUNT_KIND_LABELS: Readonly<Record<string, string>> = {
  balance: '用户余额',
  deposit: '用户保证金',
  withdrawal: '提现冻结',
  platform_clearing: '平台清算',
  platform_revenue: '平台收入',
  platform_fees: '平台手续费',
}

/** What a ledger line can refer to (the staff money API's `refs`). */
export const LEDGER_REF_TYPES = [
  'order',
  'payment',
  'remittance',
  'shipment',
  'recharge',
  'booking',
  'withdrawal',
] as const
export type LedgerRefType = (typeof LEDGER_REF_TYPES)[number]

export const LEDGER_REF_LABELS: Readonly<Record<LedgerRefType, string>> = {
  order: '订单',
  payment: '支付单',
  remittance: '汇款',
  shipment: '发货单',
  recharge: '充值单',
  booking: '柜台预约',
  withdrawal: '提现',
}

/** A transfer kind in Chinese; an unknown kind shows as it is rather than vanish. */
export function transferKindLabel(kind: string): string {
  return TRANSFER_KIND_LABELS[kind] ?? kind
}

export function accountKindLabel(kind: string): string {
  return ACCOUNT_KIND_LABELS[kind] ?? kind
}

/** `订单 #12、#13 · 发货单 #3`: references grouped by type, in the order first met. */
export function ledgerRefsText(refs: readonly { type: LedgerRefType; id: number }[]): string {
  const byType = new Map<LedgerRefType, number[]>()
  for (const ref of refs) {
    const ids = byType.get(ref.type) ?? []
    if (!ids.includes(ref.id)) ids.push(ref.id)
    byType.set(ref.type, ids)
  }
  return [...byType]
    .map(([type, ids]) => `${LEDGER_REF_LABELS[type]} ${ids.map((id) => `#${id}`).join('、')}`)
    .join(' · ')
}

/**
 * A ledger line's summary for the cashier: its references in Chinese, then the reason staff typed
 * (an adjustment's or a refund's) as typed. Never the transfer's internal English memo.
 */
export function ledgerLineSummary(line: {
  refs: readonly { type: LedgerRefType; id: number }[]
  reason: string | null
}): string {
  return [ledgerRefsText(line.refs), line.reason ?? ''].filter((part) => part !== '').join('：')
}
