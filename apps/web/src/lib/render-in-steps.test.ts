import { describe, expect, it } from 'vitest'
import { firstCount } from './render-in-steps'

describe('firstCount', () => {
  it('is the first step under an unscrolled first screen or none', () => {
    expect(firstCount(8, 0)).toBe(8)
  })

  it('is the whole list on the server and under a scrolled first screen', () => {
    expect(firstCount(8, undefined)).toBe(Number.POSITIVE_INFINITY)
    expect(firstCount(8, 120)).toBe(Number.POSITIVE_INFINITY)
  })
})
