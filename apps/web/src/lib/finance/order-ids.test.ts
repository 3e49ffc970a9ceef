import { describe, expect, it } from 'vitest'
import { orderIdsParam, parseOrderIds } from './order-ids'

describe('parseOrderIds', () => {
  it('reads a comma-separated list of order ids', () => {
    expect(parseOrderIds('41')).toEqual([41])
    expect(parseOrderIds('41,42, 7')).toEqual([41, 42, 7])
  })

  it('means no orders for anything malformed, repeated or too long', () => {
    for (const value of [null, undefined, '', 'a', '41,', '41,,42', '0', '-1', '41,41', '1.5']) {
      expect(parseOrderIds(value), String(value)).toEqual([])
    }
    const many = Array.from({ length: 51 }, (_, i) => i + 1).join(',')
    expect(parseOrderIds(many)).toEqual([])
    expect(parseOrderIds(many.replace(/,51$/, ''))).toHaveLength(50)
  })
})

describe('orderIdsParam', () => {
  it('writes what parseOrderIds reads, and nothing without orders', () => {
    expect(orderIdsParam([41, 42])).toBe('orderIds=41,42')
    expect(parseOrderIds(orderIdsParam([41, 42]).slice('orderIds='.length))).toEqual([41, 42])
    expect(orderIdsParam([])).toBe('')
  })
})
