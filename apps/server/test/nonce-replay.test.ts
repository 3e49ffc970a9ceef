import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { HEADER, NONCE_TTL_MS } from '@numisma/contracts/signing'
import SQLite from 'better-sqlite3'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FakeClock } from '../src/platform/clock'
import type { Database } from '../src/platform/db'
import {
  MemoryNonceStore,
  REDIS_NONCE_PREFIX,
  RedisNonceStore,
  openNonceStore,
  SqliteNonceStore,
} from '../src/platform/nonce-store'
import { createTestApp, type SignedCall } from './helpers/app'
import { persistentDatabase, testDatabases } from './helpers/databases'
import { startTwoInstances } from './helpers/instances'
import { REDIS_TEST_URL, redisAvailable } from './helpers/redis'

/**
 * Issue 15: a captured request must not be accepted again within its 11 minutes — not after the
 * server restarts (nonces once lived only in memory on SQLite), not on another instance.
 */
const databases = await testDatabases()
const withRedis = await redisAvailable()
const statistics: SignedCall = { method: 'GET', path: '/user/@statistics' }
const anonymous: SignedCall = { method: 'GET', path: '/pub/@province?countryId=CN' }

describe.each(databases)('replayed nonces on $name', (kind) => {
  it('are refused after a restart on the same database', async () => {
    const persistent = await persistentDatabase(kind)
    try {
      const before = await createTestApp(persistent)
      const user = await before.signIn()
      const call = { ...statistics, as: user }
      const headers = before.sign(call)
      expect((await before.call({ ...call, headers })).statusCode).toBe(200)
      await before.close()

      const after = await createTestApp(persistent)
      try {
        const replay = await after.call({ ...call, headers })
        expect(replay.statusCode).toBe(401)
        expect(replay.json().code).toBe('NONCE_REPLAYED')
        // A fresh nonce from the same client still works.
        expect((await after.call(call)).statusCode).toBe(200)
      } finally {
        await after.close()
      }
    } finally {
      await persistent.dispose()
    }
  })
})

describe.runIf(withRedis && databases.some((d) => d.name === 'postgres'))(
  'replayed nonces across instances (PostgreSQL + Redis)',
  () => {
    it('a nonce used on instance A is refused on instance B', async () => {
      const pg = databases.find((d) => d.name === 'postgres')!
      const both = await startTwoInstances(pg, { redisUrl: REDIS_TEST_URL })
      const redis = new Redis(REDIS_TEST_URL)
      try {
        const user = await both.a.signIn()
        const call = { ...statistics, as: user }
        const headers = both.a.sign(call)
        expect((await both.a.call({ ...call, headers })).statusCode).toBe(200)
        const replay = await both.b.inject({
          method: 'GET',
          url: `/svc/main${call.path}`,
          headers,
          cookies: { sid: user.sid },
        })
        expect(replay.statusCode).toBe(401)
        expect(replay.json().code).toBe('NONCE_REPLAYED')
        // Redis holds it (Redis preferred over the table when configured), for its 11 minutes.
        const key = `${REDIS_NONCE_PREFIX}${headers[HEADER.appId]}:${headers[HEADER.nonce]}`
        const ttl = await redis.pttl(key)
        expect(ttl).toBeGreaterThan(NONCE_TTL_MS - 60_000)
        expect(ttl).toBeLessThanOrEqual(NONCE_TTL_MS)
        const rows = await both.a.database.db.selectFrom('request_nonces').selectAll().execute()
        expect(rows).toEqual([])
      } finally {
        redis.disconnect()
        await both.close()
      }
    })
  },
)

describe('the SQLite nonce file', () => {
  let dir: string
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'numisma-nonces-'))
  })
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

  it('keeps a nonce for 11 minutes, then purges it', async () => {
    const file = path.join(dir, 'nonces.db')
    const clock = new FakeClock()
    const store = SqliteNonceStore.open(file, clock)
    expect(await store.claim('a:1')).toBe(true)
    expect(await store.claim('a:1')).toBe(false)
    clock.advance(NONCE_TTL_MS - 1)
    expect(await store.claim('a:1')).toBe(false)
    // Sweeps run at most once a minute; the next one after a:1's expiry removes it.
    clock.advance(60_000)
    expect(await store.claim('a:2')).toBe(true)
    const count = () => {
      const reader = new SQLite(file, { readonly: true })
      try {
        return (reader.prepare('select nonce from request_nonces').all() as { nonce: string }[])
          .map((r) => r.nonce)
          .sort()
      } finally {
        reader.close()
      }
    }
    expect(count()).toEqual(['a:2'])
    expect(await store.claim('a:1')).toBe(true)
    await store.close()
  })

  it('sits beside the main database file, in WAL without a FULL fsync', async () => {
    const persistent = await persistentDatabase(databases.find((d) => d.name === 'sqlite')!)
    try {
      const t = await createTestApp(persistent)
      expect((await t.call(anonymous)).statusCode).toBe(200)
      const file = path.join(path.dirname(t.database.sqliteFile!), 'nonces.db')
      await t.close()
      const reader = new SQLite(file)
      expect(reader.pragma('journal_mode', { simple: true })).toBe('wal')
      expect(reader.prepare('select count(*) as n from request_nonces').get()).toEqual({ n: 1 })
      reader.close()
    } finally {
      await persistent.dispose()
    }
  })
})

describe.runIf(withRedis)('the Redis nonce store', () => {
  it('claims once, with an 11-minute expiry', async () => {
    const store = await RedisNonceStore.connect(REDIS_TEST_URL)
    const nonce = `test:${Date.now()}:${Math.random()}`
    try {
      expect(await store.claim(nonce)).toBe(true)
      expect(await store.claim(nonce)).toBe(false)
    } finally {
      await store.close()
    }
  })

  it('keeps each deployment’s nonces apart: staging’s claim does not refuse production’s', async () => {
    const run = Math.random().toString(36).slice(2, 8)
    const open = (tag: string) =>
      openNonceStore({
        database: { dialect: 'sqlite' } as Database,
        clock: new FakeClock(),
        redisUrl: REDIS_TEST_URL,
        deployment: `${tag}-${run}`,
      })
    const [shop, staging] = await Promise.all([open('shop'), open('staging')])
    const nonce = `test:${Date.now()}:${Math.random()}`
    try {
      expect(await staging.claim(nonce)).toBe(true)
      expect(await shop.claim(nonce)).toBe(true)
      expect(await shop.claim(nonce)).toBe(false)
    } finally {
      await Promise.all([shop.close?.(), staging.close?.()])
    }
  })
})

describe('the in-memory nonce store', () => {
  it('refuses new nonces beyond its cap (never evicts), until old ones expire', async () => {
    const clock = new FakeClock()
    const store = new MemoryNonceStore(clock, 3)
    for (const n of ['1', '2', '3']) expect(await store.claim(n)).toBe(true)
    await expect(store.claim('4')).rejects.toMatchObject({ code: 'SERVICE_BUSY' })
    // Still full, yet a replay of a held nonce is told apart from a new one.
    expect(await store.claim('1')).toBe(false)
    clock.advance(NONCE_TTL_MS)
    expect(await store.claim('4')).toBe(true)
    expect(store.size).toBe(1)
  })

  it('answers 503 SERVICE_BUSY through the app when full', async () => {
    const sqlite = databases.find((d) => d.name === 'sqlite')!
    const clock = new FakeClock(Date.now())
    const t = await createTestApp(sqlite, { clock, nonces: new MemoryNonceStore(clock, 2) })
    try {
      expect((await t.call(anonymous)).statusCode).toBe(200)
      expect((await t.call(anonymous)).statusCode).toBe(200)
      const full = await t.call(anonymous)
      expect(full.statusCode).toBe(503)
      expect(full.json()).toMatchObject({ code: 'SERVICE_BUSY', message: expect.any(String) })
    } finally {
      await t.close()
    }
  })
})
