import { describe, expect, it } from 'vitest'
import { rootFontSize } from './root-font-size'

describe('rootFontSize', () => {
  it('scales with the width and is capped at 375 px', () => {
    expect(rootFontSize(375)).toBe(16)
    expect(rootFontSize(320)).toBeCloseTo(13.65, 2)
    expect(rootFontSize(768)).toBe(16)
    expect(rootFontSize(0)).toBe(16)
  })
})
