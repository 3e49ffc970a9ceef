import { describe, expect, it } from 'vitest'
import { FakeClock } from '../../platform/clock'
import { type EventBus, InProcessEventBus, type PushEvent } from '../../platform/event-bus'
import type { SessionCredential } from '../../platform/request-signing'
import { SESSION_CACHE_TTL_MS, SessionCache, sessionRevocations } from './session-cache'

const HOUR = 3_600_000

function credential(id: string, clock: FakeClock, over: Partial<SessionCredential> = {}) {
  return {
    id,
    userId: 7,
    key: `key-${id}`,
    sidHash: `hash-${id}`,
    expiresAt: clock.now() + 24 * HOUR,
    revokedAt: null,
    ...over,
  } satisfies SessionCredential
}

/** A fake sessions table that counts lookups; `hold` makes them wait until released. */
function table(clock: FakeClock) {
  const rows = new Map<string, SessionCredential>()
  const held: (() => void)[] = []
  let holding = false
  const lookups: string[] = []
  return {
    rows,
    lookups,
    hold() {
      holding = true
    },
    release() {
      holding = false
      for (const go of held.splice(0)) go()
    },
    add(id: string, over: Partial<SessionCredential> = {}) {
      rows.set(id, credential(id, clock, over))
    },
    async find(id: string): Promise<SessionCredential | undefined> {
      lookups.push(id)
      // Read at the start of the query, as the database would.
      const row = rows.get(id)
      const answer = row && { ...row }
      if (holding) await new Promise<void>((resolve) => held.push(resolve))
      return answer
    },
  }
}

function setUp(options: { ttlMs?: number; maxEntries?: number } = {}) {
  const clock = new FakeClock()
  const db = table(clock)
  const cache = new SessionCache({ clock, find: (id) => db.find(id), ...options })
  return { clock, db, cache }
}

describe('SessionCache', () => {
  it('asks the database once for a found session, then answers from memory', async () => {
    const { db, cache } = setUp()
    db.add('s_a')
    for (let i = 0; i < 5; i++) expect((await cache.find('s_a'))?.key).toBe('key-s_a')
    expect(db.lookups).toEqual(['s_a'])
  })

  it('never keeps a miss: a session created meanwhile (on another instance) works at once', async () => {
    const { db, cache } = setUp()
    expect(await cache.find('s_new')).toBeUndefined()
    expect(await cache.find('s_new')).toBeUndefined()
    db.add('s_new')
    expect((await cache.find('s_new'))?.id).toBe('s_new')
    expect(db.lookups).toEqual(['s_new', 's_new', 's_new'])
    expect(cache.size).toBe(1)
  })

  it('reads a session again once its TTL is over', async () => {
    const { clock, db, cache } = setUp()
    db.add('s_a')
    await cache.find('s_a')
    clock.advance(SESSION_CACHE_TTL_MS - 1)
    await cache.find('s_a')
    expect(db.lookups).toHaveLength(1)
    // Revoked by some path no event told of: seen within the TTL.
    db.rows.get('s_a')!.revokedAt = clock.now()
    clock.advance(1)
    expect((await cache.find('s_a'))?.revokedAt).toBe(clock.now() - 1)
    expect(db.lookups).toHaveLength(2)
  })

  it('keeps no entry past the session’s own expiry', async () => {
    const { clock, db, cache } = setUp()
    db.add('s_short', { expiresAt: clock.now() + 1_000 })
    db.add('s_gone', { expiresAt: clock.now() })
    await cache.find('s_short')
    await cache.find('s_gone')
    expect(cache.size).toBe(1)
    clock.advance(1_000)
    await cache.find('s_short')
    await cache.find('s_gone')
    expect(db.lookups).toEqual(['s_short', 's_gone', 's_short', 's_gone'])
  })

  it('holds at most maxEntries sessions, dropping the oldest first', async () => {
    const { db, cache } = setUp({ maxEntries: 3 })
    for (const id of ['s_1', 's_2', 's_3', 's_4']) {
      db.add(id)
      await cache.find(id)
    }
    expect(cache.size).toBe(3)
    db.lookups.length = 0
    await cache.find('s_4')
    await cache.find('s_2')
    expect(db.lookups).toEqual([])
    await cache.find('s_1')
    expect(db.lookups).toEqual(['s_1'])
    expect(cache.size).toBe(3)
  })

  it('stays within its bound under a flood of distinct valid sessions', async () => {
    const { db, cache } = setUp({ maxEntries: 100 })
    for (let i = 0; i < 5_000; i++) {
      db.add(`s_${i}`)
      await cache.find(`s_${i}`)
    }
    expect(cache.size).toBe(100)
  })

  it('shares one query among concurrent lookups of one id', async () => {
    const { db, cache } = setUp()
    db.add('s_a')
    db.hold()
    const answers = Promise.all([cache.find('s_a'), cache.find('s_a'), cache.find('s_a')])
    db.release()
    expect((await answers).map((s) => s?.id)).toEqual(['s_a', 's_a', 's_a'])
    expect(db.lookups).toEqual(['s_a'])
  })

  it('does not keep a lookup that an eviction overtook, nor hand it to a later lookup', async () => {
    const { clock, db, cache } = setUp()
    db.add('s_a')
    db.hold()
    const before = cache.find('s_a') // reads the row before the logout
    db.rows.get('s_a')!.revokedAt = clock.now() // the logout commits …
    cache.evict('s_a') // … and evicts while that lookup is still under way
    const after = cache.find('s_a') // arrived after the eviction: a query of its own
    db.release()
    expect((await before)?.revokedAt).toBeNull()
    expect((await after)?.revokedAt).toBe(clock.now())
    expect(db.lookups).toEqual(['s_a', 's_a'])
    // What is kept is the later, revoked row.
    expect((await cache.find('s_a'))?.revokedAt).toBe(clock.now())
    expect(db.lookups).toHaveLength(2)
  })

  it('an evicted lookup that finishes after the eviction leaves nothing behind', async () => {
    const { db, cache } = setUp()
    db.add('s_a')
    db.hold()
    const before = cache.find('s_a')
    cache.evict('s_a')
    db.release()
    await before
    expect(cache.size).toBe(0)
  })

  it('clear forgets every entry and the lookups under way', async () => {
    const { db, cache } = setUp()
    db.add('s_a')
    db.add('s_b')
    await cache.find('s_a')
    db.hold()
    const running = cache.find('s_b')
    cache.clear()
    db.release()
    await running
    expect(cache.size).toBe(0)
    await cache.find('s_a')
    expect(db.lookups).toEqual(['s_a', 's_b', 's_a'])
  })

  it('keeps nothing from a failed lookup, and the next one asks again', async () => {
    const clock = new FakeClock()
    let fail = true
    const cache = new SessionCache({
      clock,
      find: (id) => {
        if (fail) throw new Error('database down')
        return Promise.resolve(credential(id, clock))
      },
    })
    await expect(cache.find('s_a')).rejects.toThrow('database down')
    fail = false
    expect((await cache.find('s_a'))?.id).toBe('s_a')
  })
})

describe('sessionRevocations', () => {
  it('evicts at once on announce, and publishes the revocation', async () => {
    const { db, cache } = setUp()
    db.add('s_a')
    const published: PushEvent[] = []
    const bus: EventBus = {
      publish: (event) => published.push(event),
      subscribe: () => () => undefined,
      close: () => Promise.resolve(),
    }
    const revocations = sessionRevocations(cache, bus)
    await cache.find('s_a')
    revocations.announce('s_a')
    expect(cache.size).toBe(0)
    expect(published).toEqual([{ type: 'session_revoked', sessionId: 's_a' }])
  })

  it('evicts when another instance’s revocation arrives on the bus, until stopped', async () => {
    const { db, cache } = setUp()
    db.add('s_a')
    db.add('s_b')
    const bus = new InProcessEventBus()
    const revocations = sessionRevocations(cache, bus)
    await cache.find('s_a')
    await cache.find('s_b')
    bus.publish({ type: 'session_revoked', sessionId: 's_a' })
    await new Promise((resolve) => setImmediate(resolve))
    expect(cache.size).toBe(1)
    revocations.stop()
    bus.publish({ type: 'session_revoked', sessionId: 's_b' })
    await new Promise((resolve) => setImmediate(resolve))
    expect(cache.size).toBe(1)
    await bus.close()
  })

  it('clears the cache when the bus hears its channel again after losing it, until stopped', async () => {
    const { db, cache } = setUp()
    db.add('s_a')
    const resubscribed = new Set<() => void>()
    const bus: EventBus = {
      publish: () => undefined,
      subscribe: () => () => undefined,
      close: () => Promise.resolve(),
      onResubscribed(listener) {
        resubscribed.add(listener)
        return () => resubscribed.delete(listener)
      },
    }
    const revocations = sessionRevocations(cache, bus)
    await cache.find('s_a')
    for (const listener of resubscribed) listener()
    expect(cache.size).toBe(0)
    await cache.find('s_a')
    revocations.stop()
    expect(resubscribed.size).toBe(0)
  })
})
