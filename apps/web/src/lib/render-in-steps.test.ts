import { describe, expect, it } from 'vitest'
import { firstCount } from './render-in-steps'

describe('firstCount', () => {
  it('is the first step under an unscrolled first screen or none, and on the server', () => {
    expect(firstCount(8, 0)).toBe(8)
    expect(firstCount(8, undefined)).toBe(8)
  })

  it('is the whole list under a scrolled first screen', () => {
    expect(firstCount(8, 120)).toBe(Number.POSITIVE_INFINITY)
  })
})
