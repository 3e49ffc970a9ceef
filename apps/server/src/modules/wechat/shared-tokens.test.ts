import { describe, expect, it } from 'vitest'
import { FakeClock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import type { PlatformTokenRow } from './repository'
import { SharedPlatformTokens, TOKEN_REFRESH_MARGIN_MS, type TokenStore } from './shared-tokens'

/**
 * The lease over `platform_tokens` with an in-memory row store that behaves as the conditional
 * writes do: which instance fetches, who waits, and what happens when a fetch fails.
 */
function memoryStore(): TokenStore & { rows: Map<string, PlatformTokenRow> } {
  const rows = new Map<string, PlatformTokenRow>()
  return {
    rows,
    platformToken: (name) => Promise.resolve(rows.get(name) && { ...rows.get(name)! }),
    takeTokenLease: (name, staleAt, now, leaseUntil) => {
      const row = rows.get(name)
      if (!row) {
        rows.set(name, { name, value: '', expires_at: 0, lease_until: leaseUntil })
        return Promise.resolve(true)
      }
      if (row.expires_at > staleAt || row.lease_until > now) return Promise.resolve(false)
      row.lease_until = leaseUntil
      return Promise.resolve(true)
    },
    storeToken: (name, value, expiresAt) => {
      rows.set(name, { name, value, expires_at: expiresAt, lease_until: 0 })
      return Promise.resolve()
    },
    releaseTokenLease: (name, leaseUntil) => {
      const row = rows.get(name)
      if (row?.lease_until === leaseUntil) row.lease_until = 0
      return Promise.resolve()
    },
    expireToken: (name, value) => {
      const row = rows.get(name)
      if (row?.value === value) row.expires_at = 0
      return Promise.resolve()
    },
  }
}

const HOUR_S = 7200

function platform() {
  let issued = 0
  let failNext = false
  let release: (() => void) | undefined
  return {
    get issued() {
      return issued
    },
    failOnce() {
      failNext = true
    },
    /** The next fetch waits until `go()`. */
    hold() {
      return new Promise<void>((resolve) => {
        release = resolve
      })
    },
    go: () => release?.(),
    fetch: async (gate?: Promise<void>) => {
      await gate
      if (failNext) {
        failNext = false
        throw new AppError('WX_UNAVAILABLE')
      }
      issued += 1
      return { value: `ticket-${issued}`, expiresInSeconds: HOUR_S }
    },
  }
}

describe('SharedPlatformTokens', () => {
  it('fetches once for concurrent callers on two instances, while one holds the lease', async () => {
    const store = memoryStore()
    const clock = new FakeClock()
    const a = new SharedPlatformTokens(store, clock, { pollMs: 1 })
    const b = new SharedPlatformTokens(store, clock, { pollMs: 1 })
    const p = platform()
    const gate = p.hold()
    const all = Promise.all([
      ...Array.from({ length: 5 }, () => a.get('t', () => p.fetch(gate))),
      ...Array.from({ length: 5 }, () => b.get('t', () => p.fetch(gate))),
    ])
    await new Promise((resolve) => setTimeout(resolve, 20))
    p.go()
    expect(await all).toEqual(Array(10).fill('ticket-1'))
    expect(p.issued).toBe(1)
  })

  it('refetches only within the margin before expiry', async () => {
    const store = memoryStore()
    const clock = new FakeClock()
    const a = new SharedPlatformTokens(store, clock)
    const p = platform()
    await a.get('t', () => p.fetch())
    clock.advance(HOUR_S * 1000 - TOKEN_REFRESH_MARGIN_MS - 1)
    expect(await a.get('t', () => p.fetch())).toBe('ticket-1')
    clock.advance(1)
    expect(await a.get('t', () => p.fetch())).toBe('ticket-2')
    // Another instance takes the stored one, without a fetch.
    const b = new SharedPlatformTokens(store, clock)
    expect(await b.get('t', () => p.fetch())).toBe('ticket-2')
    expect(p.issued).toBe(2)
  })

  it('a failed fetch gives the lease back: the error reaches its caller, the next caller fetches', async () => {
    const store = memoryStore()
    const clock = new FakeClock()
    const a = new SharedPlatformTokens(store, clock)
    const b = new SharedPlatformTokens(store, clock)
    const p = platform()
    p.failOnce()
    await expect(a.get('t', () => p.fetch())).rejects.toMatchObject({ code: 'WX_UNAVAILABLE' })
    expect(await b.get('t', () => p.fetch())).toBe('ticket-1')
  })

  it('a waiter gives up with WX_UNAVAILABLE when the lease holder never finishes', async () => {
    const store = memoryStore()
    const clock = new FakeClock()
    const a = new SharedPlatformTokens(store, clock)
    const b = new SharedPlatformTokens(store, clock, { pollMs: 1, maxPolls: 5 })
    const p = platform()
    const gate = p.hold()
    const holder = a.get('t', () => p.fetch(gate))
    await new Promise((resolve) => setTimeout(resolve, 5))
    await expect(b.get('t', () => p.fetch())).rejects.toMatchObject({ code: 'WX_UNAVAILABLE' })
    p.go()
    expect(await holder).toBe('ticket-1')
  })

  it('invalidate drops a refused value here and in the store', async () => {
    const store = memoryStore()
    const clock = new FakeClock()
    const a = new SharedPlatformTokens(store, clock)
    const p = platform()
    await a.get('t', () => p.fetch())
    await a.invalidate('t', 'ticket-1')
    expect(await a.get('t', () => p.fetch())).toBe('ticket-2')
  })
})
