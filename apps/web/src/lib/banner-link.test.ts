import { describe, expect, it } from 'vitest'
import { bannerTarget } from './banner-link'

describe('bannerTarget', () => {
  it('follows in-app paths with the router', () => {
    expect(bannerTarget('/specialDetail?id=3')).toEqual({
      kind: 'route',
      to: '/specialDetail?id=3',
    })
  })

  it('opens absolute web links as they are', () => {
    expect(bannerTarget('https://example.com/a')).toEqual({
      kind: 'external',
      href: 'https://example.com/a',
    })
  })

  it('ignores empty, protocol-relative and script links', () => {
    expect(bannerTarget('')).toBeNull()
    expect(bannerTarget(null)).toBeNull()
    expect(bannerTarget('//evil.example/x')).toBeNull()
    expect(bannerTarget('javascript:alert(1)')).toBeNull()
  })
})
