import { describe, expect, it } from 'vitest'
import {
  encodeWithin,
  fitWithin,
  RECEIPT_MAX_CHARS,
  RECEIPT_MAX_SIDE,
  type Size,
} from './receipt-image'

describe('fitWithin', () => {
  it('scales the longer side down to the limit and keeps the aspect', () => {
    expect(fitWithin({ width: 4032, height: 3024 }, 1600)).toEqual({ width: 1600, height: 1200 })
    expect(fitWithin({ width: 3024, height: 4032 }, 1600)).toEqual({ width: 1200, height: 1600 })
  })

  it('never enlarges a small picture', () => {
    expect(fitWithin({ width: 800, height: 600 }, 1600)).toEqual({ width: 800, height: 600 })
  })

  it('keeps a very thin picture at least one pixel wide', () => {
    expect(fitWithin({ width: 10_000, height: 2 }, 1000)).toEqual({ width: 1000, height: 1 })
  })
})

describe('encodeWithin', () => {
  // A fake JPEG encoder whose output grows with the pixels and the quality, like a real one.
  const fakeEncoder = (bytesPerPixel: number) => {
    const calls: { size: Size; quality: number }[] = []
    const encode = (size: Size, quality: number): string => {
      calls.push({ size, quality })
      // Capped just over the limit: only whether it fits matters, not a gigabyte string.
      const length = Math.round(size.width * size.height * bytesPerPixel * quality)
      return `data:image/jpeg;base64,${'A'.repeat(Math.min(length, RECEIPT_MAX_CHARS + 1))}`
    }
    return { calls, encode }
  }

  it('takes the first quality that fits, at the largest allowed size', () => {
    const { calls, encode } = fakeEncoder(1)
    const url = encodeWithin({ width: 4032, height: 3024 }, encode)
    expect(url!.length).toBeLessThanOrEqual(RECEIPT_MAX_CHARS)
    expect(calls[0]!.size).toEqual({ width: RECEIPT_MAX_SIDE, height: 1200 })
    expect(calls.at(-1)!.size).toEqual({ width: RECEIPT_MAX_SIDE, height: 1200 })
    // 1600×1200×q characters: 0.85 gives 1.63 M (too big), 0.72 gives 1.38 M.
    expect(calls.map((c) => c.quality)).toEqual([0.85, 0.72])
  })

  it('shrinks the picture when no quality fits, and stops at a floor', () => {
    const { calls, encode } = fakeEncoder(3)
    const url = encodeWithin({ width: 4000, height: 4000 }, encode)
    expect(url!.length).toBeLessThanOrEqual(RECEIPT_MAX_CHARS)
    const sides = [...new Set(calls.map((c) => c.size.width))]
    expect(sides[0]).toBe(RECEIPT_MAX_SIDE)
    expect(sides.length).toBeGreaterThan(1)
    expect(sides).toEqual([...sides].sort((a, b) => b - a))
  })

  it('gives up on a picture that fits at no size', () => {
    const { calls, encode } = fakeEncoder(1000)
    expect(encodeWithin({ width: 2000, height: 2000 }, encode)).toBeUndefined()
    expect(Math.min(...calls.map((c) => c.size.width))).toBe(320)
  })
})
