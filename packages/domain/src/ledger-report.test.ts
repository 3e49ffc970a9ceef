import { describe, expect, it } from 'vitest'
import {
  chinaDayRange,
  dailyLedgerReport,
  ledgerReportCsv,
  type DayTransfer,
} from './ledger-report'

const remittance: DayTransfer = {
  id: 1,
  kind: 'remittance',
  postings: [
    { account: 'platform_clearing', amount: -10_000 },
    { account: 'balance', amount: 10_000 },
  ],
}
const payment: DayTransfer = {
  id: 2,
  kind: 'payment',
  postings: [
    { account: 'balance', amount: -8_800 },
    { account: 'platform_revenue', amount: 8_000 },
    { account: 'platform_fees', amount: 800 },
  ],
}

describe('chinaDayRange', () => {
  it('is the China calendar day, 16:00 UTC the day before to 16:00 UTC', () => {
    const { from, to } = chinaDayRange('2026-11-26')
    expect(new Date(from).toISOString()).toBe('2026-11-25T16:00:00.000Z')
    expect(to - from).toBe(86_400_000)
  })
})

describe('dailyLedgerReport', () => {
  it('groups the day by transfer kind and rolls each account kind forward', () => {
    const report = dailyLedgerReport({
      date: '2026-11-26',
      transfers: [remittance, payment, { ...remittance, id: 3 }],
      opening: { platform_clearing: -5_000, deposit: 5_000 },
      closing: {
        platform_clearing: -25_000,
        deposit: 5_000,
        balance: 11_200,
        platform_revenue: 8_000,
        platform_fees: 800,
      },
    })
    expect(report.transferCount).toBe(3)
    expect(report.transfers).toEqual([
      { kind: 'payment', count: 1, total: 8_800 },
      { kind: 'remittance', count: 2, total: 20_000 },
    ])
    expect(report.accounts.find((a) => a.kind === 'balance')).toEqual({
      kind: 'balance',
      opening: 0,
      in: 20_000,
      out: 8_800,
      closing: 11_200,
      rollsForward: true,
    })
    expect(report.accounts.find((a) => a.kind === 'deposit')).toMatchObject({
      opening: 5_000,
      in: 0,
      out: 0,
      closing: 5_000,
    })
    expect(report.check).toEqual({
      postingsSum: 0,
      unbalancedTransfers: [],
      closingSum: 0,
      balanced: true,
    })
  })

  it('is unbalanced when a transfer does not sum to zero', () => {
    const report = dailyLedgerReport({
      date: '2026-11-26',
      transfers: [{ id: 9, kind: 'broken', postings: [{ account: 'balance', amount: 100 }] }],
      opening: {},
      closing: { balance: 100, platform_clearing: -100 },
    })
    expect(report.check.unbalancedTransfers).toEqual([9])
    expect(report.check.postingsSum).toBe(100)
    expect(report.check.balanced).toBe(false)
  })

  it('is unbalanced when an account kind does not roll forward (a stored balance drifted)', () => {
    const report = dailyLedgerReport({
      date: '2026-11-26',
      transfers: [remittance],
      opening: {},
      closing: { platform_clearing: -10_000, balance: 10_001 },
    })
    expect(report.accounts.find((a) => a.kind === 'balance')?.rollsForward).toBe(false)
    expect(report.check.balanced).toBe(false)
  })

  it('is balanced on a day with no transfers', () => {
    const report = dailyLedgerReport({
      date: '2026-11-26',
      transfers: [],
      opening: { balance: 3, platform_clearing: -3 },
      closing: { balance: 3, platform_clearing: -3 },
    })
    expect(report.transfers).toEqual([])
    expect(report.check.balanced).toBe(true)
  })
})

describe('ledgerReportCsv', () => {
  it('writes the transfer groups, the accounts and the check, in yuan', () => {
    const csv = ledgerReportCsv(
      dailyLedgerReport({
        date: '2026-11-26',
        transfers: [remittance],
        opening: {},
        closing: { platform_clearing: -10_000, balance: 10_000 },
      }),
    )
    const lines = csv.split('\r\n').slice(0, -1)
    expect(lines[0]).toBe('\uFEFF日期,2026-11-26')
    expect(lines).toContain('转账类型,笔数,金额(元),类型代码')
    expect(lines).toContain('银行汇款入账,1,100.00,remittance')
    expect(lines).toContain('用户余额,0.00,100.00,0.00,100.00,是,balance')
    expect(lines).toContain('平台清算,0.00,0.00,100.00,-100.00,是,platform_clearing')
    expect(lines.at(-1)).toBe('平衡,是')
  })
})
