import { describe, expect, it } from 'vitest'
import { SHARE_PNG_RENDERS_AT_ONCE, createSharePngCache } from './share-png'

describe('share PNG cache', () => {
  it('renders at most two pictures at once, the rest queued, and each once', async () => {
    let running = 0
    let most = 0
    let calls = 0
    const cache = createSharePngCache(async (svg) => {
      calls++
      running++
      most = Math.max(most, running)
      await new Promise((r) => setTimeout(r, 5))
      running--
      return Buffer.from(svg)
    })
    const keys = Array.from({ length: 10 }, (_, i) => `k${i}`)
    const pngs = await Promise.all([...keys, ...keys].map((k) => cache.get(k, () => k)))
    expect(pngs.map(String)).toEqual([...keys, ...keys])
    expect(calls).toBe(10)
    expect(most).toBe(SHARE_PNG_RENDERS_AT_ONCE)
    expect(cache.has('k3')).toBe(true)
    expect(cache.has('nope')).toBe(false)
  })
})
