import { describe, expect, it } from 'vitest'
import { environmentForHost, PRE_RELEASE_HOST, PRODUCTION_HOST, TEST_HOST } from './environments'

describe('environments by host (spec §9)', () => {
  it('recognises the three hosted environments, each with its own services', () => {
    const prod = environmentForHost(PRODUCTION_HOST)
    const pre = environmentForHost(PRE_RELEASE_HOST)
    const test = environmentForHost(`${TEST_HOST}:443`)
    expect([prod.name, pre.name, test.name]).toEqual(['production', 'pre-release', 'test'])
    expect(new Set([prod.services.main, pre.services.main, test.services.main]).size).toBe(3)
    expect(prod.services.search).not.toBe(prod.services.main)
  })

  it('shows debug tools everywhere but production', () => {
    expect(environmentForHost(PRODUCTION_HOST).debugTools).toBe(false)
    expect(environmentForHost(PRE_RELEASE_HOST).debugTools).toBe(true)
    expect(environmentForHost('localhost:8080').debugTools).toBe(true)
  })

  it('serves every role from the page origin elsewhere', () => {
    expect(environmentForHost('192.168.1.20:8080').services).toMatchObject({
      main: '/svc/main',
      search: '/svc/search',
      push: '/svc/push',
    })
  })
})
