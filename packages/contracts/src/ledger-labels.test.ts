import { describe, expect, it } from 'vitest'
import {
  accountKindLabel,
  ledgerLineSummary,
  ledgerRefsText,
  transferKindLabel,
} from './ledger-labels'

describe('ledger labels', () => {
  it('names transfer and account kinds in Chinese, unknown ones as they are', () => {
    expect(transferKindLabel('adjustment_credit')).toBe('人工调增')
    expect(transferKindLabel('delivery_fees')).toBe('发货费用')
    expect(accountKindLabel('platform_clearing')).toBe('平台清算')
    expect(accountKindLabel('balance')).toBe('用户余额')
    expect(transferKindLabel('something_new')).toBe('something_new')
  })

  it('groups references by type and drops repeats', () => {
    expect(
      ledgerRefsText([
        { type: 'order', id: 12 },
        { type: 'order', id: 13 },
        { type: 'shipment', id: 3 },
        { type: 'order', id: 12 },
      ]),
    ).toBe('订单 #12、#13 · 发货单 #3')
    expect(ledgerRefsText([])).toBe('')
  })

  it('keeps the reason staff typed after the references', () => {
    expect(ledgerLineSummary({ refs: [{ type: 'remittance', id: 1 }], reason: null })).toBe(
      '汇款 #1',
    )
    expect(ledgerLineSummary({ refs: [{ type: 'order', id: 5 }], reason: '买家退货' })).toBe(
      '订单 #5：买家退货',
    )
    expect(ledgerLineSummary({ refs: [], reason: '补偿运费' })).toBe('补偿运费')
    expect(ledgerLineSummary({ refs: [], reason: null })).toBe('')
  })
})
