import { describe, expect, it } from 'vitest'
import { subtrees } from './service'

describe('subtrees (a mall category lists what is under it)', () => {
  it('gives each category itself and every descendant, at any depth', () => {
    const tree = subtrees([
      { id: 1, parent_id: null },
      { id: 2, parent_id: 1 },
      { id: 3, parent_id: 2 },
      { id: 4, parent_id: 1 },
      { id: 5, parent_id: null },
    ])
    expect([...tree.get(1)!].sort()).toEqual([1, 2, 3, 4])
    expect([...tree.get(2)!].sort()).toEqual([2, 3])
    expect([...tree.get(3)!]).toEqual([3])
    expect([...tree.get(5)!]).toEqual([5])
  })

  it('ends on a cycle in bad data instead of looping', () => {
    const tree = subtrees([
      { id: 1, parent_id: 2 },
      { id: 2, parent_id: 1 },
    ])
    expect([...tree.get(1)!].sort()).toEqual([1, 2])
  })
})
