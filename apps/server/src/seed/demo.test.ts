import { describe, expect, it } from 'vitest'
import { demoCoupons } from './demo'

const NOW = Date.UTC(2026, 10, 24, 2)
const CATEGORIES = new Map([
  ['钱币', 1],
  ['收藏工具', 4],
])

describe('demoCoupons', () => {
  it('scopes the category coupons to the categories named', () => {
    const coupons = demoCoupons(NOW, (name) => CATEGORIES.get(name))
    expect(coupons.map((c) => [c.title, c.categoryIds])).toEqual([
      ['全场满200减20', []],
      ['钱币专享9折（最高减100元）', [1]],
      ['收藏工具满50减8', [4]],
      ['新人无门槛5元券', []],
    ])
  })

  it('refuses to seed when a named category is missing, rather than opening it to the whole mall', () => {
    expect(() => demoCoupons(NOW, (name) => (name === '钱币' ? 1 : undefined))).toThrow(
      'no mall category named 收藏工具',
    )
  })
})
