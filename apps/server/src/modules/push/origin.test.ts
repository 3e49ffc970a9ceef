import { describe, expect, it } from 'vitest'
import { originAllowed, parseOrigins, SHOP_WEB_ORIGINS } from './origin'

describe('originAllowed', () => {
  const configured = parseOrigins([...SHOP_WEB_ORIGINS, ' https://partner.example:8443 '])

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

  it('refuses a configured entry that is not an origin, at start-up', () => {
    expect(() => parseOrigins(['m.numisma.cn'])).toThrow()
  })
})
