import { describe, expect, it } from 'vitest'
import {
  ID_MAX,
  IdParamSchema,
  idListSchema,
  ImageUrlSchema,
  isImageUrl,
  isShopLink,
  ShopLinkSchema,
} from './api'

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

describe('IdParamSchema: an id from a path or query string', () => {
  it('takes a positive decimal integer up to ID_MAX', () => {
    expect(IdParamSchema.parse('1')).toBe(1)
    expect(IdParamSchema.parse('1234567890')).toBe(1234567890)
    expect(IdParamSchema.parse(String(ID_MAX))).toBe(ID_MAX)
  })

  it('refuses every lenient spelling of a number', () => {
    for (const bad of [
      '1.',
      '1.0',
      '+1',
      '-1',
      '0',
      '00000000001',
      '01',
      ' 1',
      '1 ',
      '1e0',
      '0x1',
      '0b1',
      'Infinity',
      '',
      String(ID_MAX + 1),
      '99999999999',
    ])
      expect(IdParamSchema.safeParse(bad).success, bad).toBe(false)
  })
})

describe('isImageUrl: what staff may set as a picture', () => {
  const hosts = ['img.example.com']
  it('accepts our own uploaded media and https on a configured host', () => {
    for (const ok of [
      '/svc/media/photos/ab12/full.jpg',
      '/svc/media/art/xyz.svg',
      'https://img.example.com/a.jpg',
      'https://IMG.example.com/a.jpg',
    ])
      expect(isImageUrl(ok, hosts), ok).toBe(true)
  })

  it('refuses scripts, data, http, other hosts and other paths of the shop', () => {
    for (const bad of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'data:image/png;base64,AAAA',
      'http://img.example.com/a.jpg',
      'https://tracker.example/p.gif',
      'https://img.example.com.evil.example/a.jpg',
      'https://user@evil.example/a.jpg',
      '/special/1',
      '/svc/main/admin/x',
      '/svc/media/../main/x',
      '/svc/media/%2e%2e/main/x',
      '//evil.example/a.jpg',
      '/\\evil.example',
      '',
    ])
      expect(isImageUrl(bad, hosts), bad).toBe(false)
    expect(isImageUrl('https://img.example.com/a.jpg', [])).toBe(false)
  })

  it('ImageUrlSchema refuses what no configured host can make good', () => {
    expect(ImageUrlSchema.safeParse(' /svc/media/photos/ab/full.jpg ').data).toBe(
      '/svc/media/photos/ab/full.jpg',
    )
    expect(ImageUrlSchema.safeParse('https://any.example/a.jpg').success).toBe(true)
    for (const bad of [
      'javascript:alert(1)',
      'data:image/png;base64,AA',
      'http://a.example/x',
      '/x',
    ])
      expect(ImageUrlSchema.safeParse(bad).success, bad).toBe(false)
  })
})

describe('idListSchema: comma-separated ids in a query string', () => {
  it('takes plain ids and refuses lenient spellings, empty items and ids past ID_MAX', () => {
    expect(idListSchema(3).parse('1,22,333')).toEqual([1, 22, 333])
    for (const bad of ['01,2', '1,+2', '1,,2', '1,2,', '1.,2', '1,2,3,4', `1,${ID_MAX + 1}`, ' 1'])
      expect(idListSchema(3).safeParse(bad).success, bad).toBe(false)
  })
})
