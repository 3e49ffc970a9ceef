import { CHINA_OFFSET_MS } from '@numisma/contracts/dates'
import { accountKindLabel, transferKindLabel } from '@numisma/contracts/ledger-labels'
import type { LedgerDailyReport } from '@numisma/contracts/staff-money'

/**
 * The daily ledger report (issue 12, the cashier's 日账报表): the day's transfers grouped by kind,
 * and for each account kind the opening balance, what came in and went out, and the closing
 * balance. Pure, so the server's figures and the checks on them have fast tests.
 *
 * The checks are independent of each other: every transfer's postings must sum to zero, and each
 * account kind must roll forward (opening + in − out = closing) where the server takes the closing
 * from the accounts' stored balances, not from the postings — a stored balance that drifted from
 * its postings shows as a kind that does not roll forward. The closings over all kinds sum to
 * zero in a sound ledger (DESIGN §6).
 */
export interface DayTransfer {
  id: number
  kind: string
  postings: { account: string; amount: number }[]
}

export interface DailyLedgerInput {
  date: string
  transfers: readonly DayTransfer[]
  /** Balance per account kind when the day began (kinds absent are 0). */
  opening: Readonly<Record<string, number>>
  /** Balance per account kind when the day ended (kinds absent are 0). */
  closing: Readonly<Record<string, number>>
}

const DAY_MS = 86_400_000

/** Epoch milliseconds of a China calendar day `YYYY-MM-DD`: [from, to). */
export function chinaDayRange(date: string): { from: number; to: number } {
  const from = Date.parse(`${date}T00:00:00.000Z`) - CHINA_OFFSET_MS
  return { from, to: from + DAY_MS }
}

/** User accounts first, then the platform's, as the ledger lists them; unknown kinds last. */
const KIND_ORDER = [
  'balance',
  'deposit',
  'withdrawal',
  'platform_clearing',
  'platform_revenue',
  'platform_fees',
]
const kindRank = (kind: string) => {
  const rank = KIND_ORDER.indexOf(kind)
  return rank === -1 ? KIND_ORDER.length : rank
}

export function dailyLedgerReport(input: DailyLedgerInput): LedgerDailyReport {
  const { from, to } = chinaDayRange(input.date)
  const groups = new Map<string, { count: number; total: number }>()
  const moves = new Map<string, { in: number; out: number }>()
  const unbalancedTransfers: number[] = []
  let postingsSum = 0
  for (const transfer of input.transfers) {
    let sum = 0
    let moved = 0
    for (const posting of transfer.postings) {
      sum += posting.amount
      if (posting.amount > 0) moved += posting.amount
      const move = moves.get(posting.account) ?? { in: 0, out: 0 }
      if (posting.amount > 0) move.in += posting.amount
      else move.out -= posting.amount
      moves.set(posting.account, move)
    }
    postingsSum += sum
    if (sum !== 0 || transfer.postings.length < 2) unbalancedTransfers.push(transfer.id)
    const group = groups.get(transfer.kind) ?? { count: 0, total: 0 }
    groups.set(transfer.kind, { count: group.count + 1, total: group.total + moved })
  }
  const kinds = [
    ...new Set([...Object.keys(input.opening), ...Object.keys(input.closing), ...moves.keys()]),
  ].sort((a, b) => kindRank(a) - kindRank(b) || a.localeCompare(b))
  const accounts = kinds.map((kind) => {
    const opening = input.opening[kind] ?? 0
    const closing = input.closing[kind] ?? 0
    const move = moves.get(kind) ?? { in: 0, out: 0 }
    return {
      kind,
      opening,
      in: move.in,
      out: move.out,
      closing,
      rollsForward: opening + move.in - move.out === closing,
    }
  })
  const closingSum = accounts.reduce((sum, a) => sum + a.closing, 0)
  return {
    date: input.date,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    transferCount: input.transfers.length,
    transfers: [...groups.entries()]
      .map(([kind, g]) => ({ kind, count: g.count, total: g.total }))
      .sort((a, b) => a.kind.localeCompare(b.kind)),
    accounts,
    check: {
      postingsSum,
      unbalancedTransfers,
      closingSum,
      balanced:
        postingsSum === 0 &&
        unbalancedTransfers.length === 0 &&
        closingSum === 0 &&
        accounts.every((a) => a.rollsForward),
    },
  }
}

const yuan = (fen: number) => (fen / 100).toFixed(2)
const yes = (value: boolean) => (value ? '是' : '否')
const cell = (value: string) =>
  /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value

/** The report as CSV for a spreadsheet (UTF-8 with a BOM so Excel reads the Chinese, CRLF). */
export function ledgerReportCsv(report: LedgerDailyReport): string {
  const rows: string[][] = [
    ['日期', report.date],
    ['转账笔数', String(report.transferCount)],
    [],
    // The page's words first; the code beside them for whoever sorts or joins by machine.
    ['转账类型', '笔数', '金额(元)', '类型代码'],
    ...report.transfers.map((t) => [
      transferKindLabel(t.kind),
      String(t.count),
      yuan(t.total),
      t.kind,
    ]),
    [],
    ['账户类型', '期初(元)', '收入(元)', '支出(元)', '期末(元)', '期初+收入-支出=期末', '类型代码'],
    ...report.accounts.map((a) => [
      accountKindLabel(a.kind),
      yuan(a.opening),
      yuan(a.in),
      yuan(a.out),
      yuan(a.closing),
      yes(a.rollsForward),
      a.kind,
    ]),
    [],
    ['分录合计(元)', yuan(report.check.postingsSum)],
    ['期末合计(元)', yuan(report.check.closingSum)],
    ['不平衡转账', report.check.unbalancedTransfers.join(' ')],
    ['平衡', yes(report.check.balanced)],
  ]
  return `\uFEFF${rows.map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`
}
