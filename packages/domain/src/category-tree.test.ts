import { describe, expect, it } from 'vitest'
import { categoryAncestry, categoryDescendants, type CategoryNode } from './category-tree'

/** 1 钱币 › 2 古钱币 › 3 先秦; 1 › 4 纸币; 5 收藏工具 on its own. */
const TREE: CategoryNode[] = [
  { id: 1, parentId: null },
  { id: 2, parentId: 1 },
  { id: 3, parentId: 2 },
  { id: 4, parentId: 1 },
  { id: 5, parentId: null },
]
const CYCLE: CategoryNode[] = [
  { id: 1, parentId: 2 },
  { id: 2, parentId: 1 },
]

describe('categoryAncestry (a coupon for a category covers what is under it)', () => {
  it('gives the category and every category above it, nearest first', () => {
    expect(categoryAncestry(TREE, 3)).toEqual([3, 2, 1])
    expect(categoryAncestry(TREE, 4)).toEqual([4, 1])
    expect(categoryAncestry(TREE, 5)).toEqual([5])
  })

  it('is empty without a category, and stops at a category it does not know', () => {
    expect(categoryAncestry(TREE, null)).toEqual([])
    expect(categoryAncestry(TREE, 99)).toEqual([99])
    expect(categoryAncestry([{ id: 7, parentId: 99 }], 7)).toEqual([7, 99])
  })

  it('ends on a cycle in bad data instead of looping', () => {
    expect(categoryAncestry(CYCLE, 1)).toEqual([1, 2])
  })
})

describe('categoryDescendants (a mall category lists what is under it)', () => {
  it('gives each category itself and every descendant, at any depth', () => {
    const tree = categoryDescendants(TREE)
    expect([...tree.get(1)!].sort()).toEqual([1, 2, 3, 4])
    expect([...tree.get(2)!].sort()).toEqual([2, 3])
    expect([...tree.get(3)!]).toEqual([3])
    expect([...tree.get(5)!]).toEqual([5])
  })

  it('ends on a cycle in bad data instead of looping', () => {
    expect([...categoryDescendants(CYCLE).get(1)!].sort()).toEqual([1, 2])
  })

  it('agrees with the ancestry: a category is under another exactly when that one is above it', () => {
    const below = categoryDescendants(TREE)
    for (const { id } of TREE) {
      for (const { id: other } of TREE) {
        expect(below.get(other)!.has(id)).toBe(categoryAncestry(TREE, id).includes(other))
      }
    }
  })
})
