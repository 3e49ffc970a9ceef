import { environmentForHost } from '@numisma/contracts/environments'
import { describe, expect, it } from 'vitest'
import { debugToolsAllowed } from './environment'

describe('debug tools follow the server environment (DESIGN §7)', () => {
  it('are off on any host when the server runs in production', () => {
    for (const host of ['localhost:8080', '192.168.1.5:8080', 'shop.example.com', 'm.numisma.cn']) {
      expect(debugToolsAllowed(environmentForHost(host), 'production')).toBe(false)
    }
  })

  it('stay on outside production except on the production host', () => {
    expect(debugToolsAllowed(environmentForHost('localhost:8080'), 'development')).toBe(true)
    expect(debugToolsAllowed(environmentForHost('test.m.numisma.cn'), 'development')).toBe(true)
    expect(debugToolsAllowed(environmentForHost('m.numisma.cn'), 'development')).toBe(false)
  })
})
