import { describe, expect, it } from 'vitest'
import { nextPageParam } from './paging'

const page = (n: number, size: number, total: number, count = size) => ({
  data: Array.from({ length: count }, (_, i) => i),
  page: n,
  pageSize: size,
  total,
})

describe('nextPageParam', () => {
  it('asks for the next page while items remain', () => {
    expect(nextPageParam(page(1, 20, 45))).toBe(2)
    expect(nextPageParam(page(2, 20, 45))).toBe(3)
  })

  it('stops at the last page', () => {
    expect(nextPageParam(page(3, 20, 45, 5))).toBeUndefined()
    expect(nextPageParam(page(1, 20, 20))).toBeUndefined()
  })

  it('stops on an empty page even if the total claims more', () => {
    expect(nextPageParam(page(4, 20, 100, 0))).toBeUndefined()
  })
})
