import { describe, expect, it } from 'vitest'
import { isShopLink, ShopLinkSchema } from './api'

describe('isShopLink: what staff may enter as a link or picture', () => {
  it('accepts a path of the shop and an https address', () => {
    for (const ok of ['/special/1', '/svc/media/photos/ab/full.jpg', 'https://a.example/x.jpg'])
      expect(isShopLink(ok)).toBe(true)
  })

  it('refuses other hosts in disguise, scripts, data and plain http', () => {
    for (const bad of [
      '//evil.example',
      '/\\evil.example',
      '/a\\b',
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      'http://tracker.example/p.gif',
      'special/1',
      '',
    ])
      expect(isShopLink(bad)).toBe(false)
    expect(ShopLinkSchema.safeParse(' /special/1 ').data).toBe('/special/1')
  })
})
