import { describe, expect, it } from 'vitest'
import { originAllowed, parseOrigins, SHOP_WEB_ORIGINS } from './origin'

describe('originAllowed', () => {
  const configured = {
    allowed: parseOrigins([...SHOP_WEB_ORIGINS, ' https://partner.example:8443 ']),
    loopback: false,
  }
  const development = { ...configured, loopback: true }

  it('lets a page of the same host in, whatever its scheme, and a native client without Origin', () => {
    expect(originAllowed('http://localhost:8080', 'localhost:8080', configured)).toBe(true)
    expect(originAllowed('https://shop.example', 'SHOP.example', configured)).toBe(true)
    expect(originAllowed(undefined, 'shop.example', configured)).toBe(true)
  })

  it("lets the shop's hosted pages reach push on its own host, and configured origins", () => {
    expect(originAllowed('https://m.numisma.cn', 'push.numisma.cn', configured)).toBe(true)
    expect(originAllowed('https://partner.example:8443', 'push.numisma.cn', configured)).toBe(true)
  })

  it('refuses other sites, other ports, null and junk', () => {
    expect(originAllowed('https://evil.example', 'shop.example', configured)).toBe(false)
    expect(originAllowed('http://localhost:9999', 'localhost:8080', configured)).toBe(false)
    expect(originAllowed('http://m.numisma.cn', 'push.numisma.cn', configured)).toBe(false)
    expect(originAllowed('null', 'shop.example', configured)).toBe(false)
    expect(originAllowed('https://x.example', '', configured)).toBe(false)
  })

  it('in development, lets a page on this machine in whatever the Host (a dev proxy rewrites it)', () => {
    for (const origin of [
      'http://localhost:5173',
      'http://127.0.0.1:4173',
      'http://[::1]:5173',
      'https://localhost',
    ]) {
      expect(originAllowed(origin, '127.0.0.1:8080', development), origin).toBe(true)
      expect(originAllowed(origin, '127.0.0.1:8080', configured), origin).toBe(false)
    }
    for (const origin of ['http://localhost.evil.example', 'http://192.168.1.5:5173', 'null']) {
      expect(originAllowed(origin, '127.0.0.1:8080', development), origin).toBe(false)
    }
  })

  it('refuses a configured entry that is not an origin, at start-up', () => {
    expect(() => parseOrigins(['m.numisma.cn'])).toThrow()
  })
})
