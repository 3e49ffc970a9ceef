import { describe, expect, it } from 'vitest'
import { categoryTree, chinaWallToIso, couponTerms, flatten, isoToChinaWall, moved } from './format'

describe('settings format helpers', () => {
  it('reads a picked time as China time and back', () => {
    const wall = { year: 2026, month: 10, date: 26, hour: 9, minute: 30 }
    expect(chinaWallToIso(wall)).toBe('2026-11-26T01:30:00.000Z')
    expect(isoToChinaWall('2026-11-26T01:30:00.000Z')).toEqual(wall)
  })

  it('words coupon terms', () => {
    const base = { threshold: 10_000, amount: 2_000, percent: null, cap: null }
    expect(couponTerms({ ...base, kind: 'amount' })).toBe('满100.00减20.00')
    expect(
      couponTerms({ kind: 'percent', threshold: 0, amount: null, percent: 20, cap: 5_000 }),
    ).toBe('无门槛减20%，最多减50.00')
  })

  it('builds the mall tree in order with paths', () => {
    const rows = [
      { id: 2, parentId: 1, name: '古钱币', nameEn: '', sort: 2, items: 0 },
      { id: 1, parentId: null, name: '钱币', nameEn: '', sort: 1, items: 0 },
      { id: 3, parentId: 1, name: '现代币', nameEn: '', sort: 1, items: 0 },
    ]
    const tree = categoryTree(rows)
    expect(flatten(tree).map((n) => n.path)).toEqual(['钱币', '钱币 / 现代币', '钱币 / 古钱币'])
  })

  it('moves an id one place and keeps the ends', () => {
    expect(moved([1, 2, 3], 1, -1)).toEqual([2, 1, 3])
    expect(moved([1, 2, 3], 2, 1)).toEqual([1, 2, 3])
  })
})
