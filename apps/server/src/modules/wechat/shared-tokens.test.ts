import { describe, expect, it } from 'vitest'
import { FakeClock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import type { PlatformTokenRow } from './repository'
import {
  SharedPlatformTokens,
  TOKEN_LEASE_MS,
  TOKEN_REFRESH_MARGIN_MS,
  type TokenStore,
} from './shared-tokens'

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
    storeToken: (name, value, expiresAt, _now, leaseUntil) => {
      if (rows.get(name)?.lease_until !== leaseUntil) return Promise.resolve(false)
      rows.set(name, { name, value, expires_at: expiresAt, lease_until: 0 })
      return Promise.resolve(true)
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

  const tick = () => new Promise((resolve) => setTimeout(resolve, 3))

  it('a waiter keeps waiting for the whole lease, then gives up only past it', async () => {
    const store = memoryStore()
    const clock = new FakeClock()
    const a = new SharedPlatformTokens(store, clock)
    const b = new SharedPlatformTokens(store, clock, { pollMs: 1 })
    const p = platform()
    const gate = p.hold()
    const holder = a.get('t', () => p.fetch(gate))
    await tick()
    let settled = false
    const waiter = b
      .get('t', () => p.fetch())
      .finally(() => {
        settled = true
      })
    // 14 s of a slow platform: the waiter is still there.
    for (let s = 0; s < 14; s++) {
      clock.advance(1000)
      await tick()
    }
    expect(settled).toBe(false)
    p.go()
    expect(await holder).toBe('ticket-1')
    expect(await waiter).toBe('ticket-1')
    expect(p.issued).toBe(1)
  })

  it('a waiter takes an expired lease over; the late holder cannot overwrite the newer value', async () => {
    const store = memoryStore()
    const clock = new FakeClock()
    const a = new SharedPlatformTokens(store, clock)
    const b = new SharedPlatformTokens(store, clock, { pollMs: 1 })
    const p = platform()
    const gate = p.hold()
    const late = a.get('t', () => p.fetch(gate))
    await tick()
    clock.advance(TOKEN_LEASE_MS)
    // The lease has lapsed: b fetches and stores ticket-1.
    expect(await b.get('t', () => p.fetch())).toBe('ticket-1')
    // a's platform call finally answers (ticket-2), but a no longer holds the lease.
    p.go()
    await late
    expect(store.rows.get('t')?.value).toBe('ticket-1')
    const c = new SharedPlatformTokens(store, clock)
    expect(await c.get('t', () => p.fetch())).toBe('ticket-1')
  })

  it('a waiter whose holder never finishes and whose own takeover is beaten gives up with WX_UNAVAILABLE', async () => {
    const store = memoryStore()
    const clock = new FakeClock()
    const b = new SharedPlatformTokens(store, clock, { pollMs: 1 })
    // Another instance keeps renewing the lease and never stores (it hangs each time).
    store.rows.set('t', {
      name: 't',
      value: '',
      expires_at: 0,
      lease_until: Number.MAX_SAFE_INTEGER,
    })
    let settled = false
    const waiter = b
      .get('t', () => Promise.reject(new Error('never asked')))
      .finally(() => {
        settled = true
      })
    for (let s = 0; s < TOKEN_LEASE_MS / 1000; s++) {
      clock.advance(1000)
      await tick()
    }
    expect(settled).toBe(false)
    clock.advance(TOKEN_LEASE_MS + 1000)
    await expect(waiter).rejects.toMatchObject({ code: 'WX_UNAVAILABLE' })
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
