import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { NONCE_TTL_MS, TIMESTAMP_TOLERANCE_MS } from '@numisma/contracts/signing'
import SQLite from 'better-sqlite3'
import { Redis } from 'ioredis'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FakeClock } from '../src/platform/clock'
import {
  MemoryNonceStore,
  openNonceStore,
  REDIS_NONCE_PREFIX,
  RedisNonceStore,
  SqliteNonceStore,
} from '../src/platform/nonce-store'
import { createTestApp, type SignedCall, type TestApp } from './helpers/app'
import { persistentDatabase, type TestDatabase, testDatabases } from './helpers/databases'
import { REDIS_TEST_URL, redisAvailable } from './helpers/redis'

/**
 * Review findings (issue 15) on the nonce store: a failing SQLite nonce file must refuse signed
 * calls like an absent Redis — 503 SERVICE_BUSY at once, one warning per outage, not a 500 with a
 * stack per request nor a 5 s synchronous wait — and a nonce must outlive every timestamp that can
 * still pass, so a request replayed at the far edge of its window is refused (ADR 029).
 */
const databases = await testDatabases()
const withRedis = await redisAvailable()
const sqlite = databases.find((d) => d.name === 'sqlite')!
const anonymous: SignedCall = { method: 'GET', path: '/pub/@province?countryId=CN' }

describe('signed calls while the SQLite nonce file is locked from outside', () => {
  let t: TestApp
  let lines: { level: number; msg: string; err?: { code?: string } }[]
  let locker: SQLite.Database | undefined

  beforeEach(async () => {
    lines = []
    t = await createTestApp(sqlite, {
      logger: {
        level: 'info',
        stream: { write: (line: string) => lines.push(JSON.parse(line) as never) },
      },
    })
  })

  afterEach(async () => {
    locker?.close()
    locker = undefined
    await t.close()
  })

  const timed = async () => {
    const started = performance.now()
    const response = await t.call(anonymous)
    return { response, ms: performance.now() - started }
  }

  it('answers 503 SERVICE_BUSY within a second, warns once, and recovers when it is released', async () => {
    expect((await t.call(anonymous)).statusCode).toBe(200)
    const file = path.join(path.dirname(t.database.sqliteFile!), 'nonces.db')
    locker = new SQLite(file)
    locker.exec('begin exclusive')

    for (let i = 0; i < 3; i++) {
      const { response, ms } = await timed()
      expect(response.statusCode).toBe(503)
      expect(response.json()).toEqual({ code: 'SERVICE_BUSY', message: expect.any(String) })
      expect(ms).toBeLessThan(1000)
    }
    const outage = lines.filter((l) => /nonce store: nonces\.db fails/.test(l.msg))
    expect(outage).toHaveLength(1)
    expect(outage[0]!.level).toBe(40) // warn
    expect(outage[0]!.err?.code).toBe('SQLITE_BUSY')
    expect(lines.filter((l) => l.level >= 50)).toEqual([]) // no error line, no stack per request

    locker.exec('rollback')
    expect((await t.call(anonymous)).statusCode).toBe(200)
    expect((await t.call(anonymous)).statusCode).toBe(200)
    expect(lines.filter((l) => /nonce store: nonces\.db works again/.test(l.msg))).toHaveLength(1)
    expect(lines.filter((l) => /nonce store: nonces\.db fails/.test(l.msg))).toHaveLength(1)
  })
})

describe('a SQLite nonce file that cannot be used at start', () => {
  it('stops the start with a message naming the file', async () => {
    const persistent = await persistentDatabase(sqlite)
    const database = await persistent.open()
    try {
      const file = path.join(path.dirname(database.sqliteFile!), 'nonces.db')
      fs.writeFileSync(file, 'not a database, '.repeat(512))
      const opening = openNonceStore({ database, clock: new FakeClock() })
      await expect(opening).rejects.toThrow(
        `The nonce file ${file} cannot be used: file is not a database.`,
      )
    } finally {
      await database.close()
      await persistent.dispose()
    }
  })
})

/**
 * A request stamped T passes the timestamp check from T − 300 s to T + 300 s, both included: its
 * first use and a replay can be 600 s apart. Kept exactly 600 s, the nonce expired at that instant.
 */
const stores: { name: string; kind: TestDatabase; memory?: true }[] = [
  { name: 'memory', kind: sqlite, memory: true },
  ...databases.map((kind) => ({
    name: kind.name === 'sqlite' ? 'the SQLite file' : 'PostgreSQL',
    kind,
  })),
]

it('keeps nonces a minute beyond twice the timestamp window, for clock skew', () => {
  expect(NONCE_TTL_MS).toBeGreaterThanOrEqual(2 * TIMESTAMP_TOLERANCE_MS + 60_000)
})

describe.each(stores)('a nonce at the far edge of its timestamp window ($name)', (store) => {
  it('is refused 600 s after its first use, and 1 ms later the timestamp is too', async () => {
    // The memory store reads the app's clock, which exists once the app does.
    const t: TestApp = await createTestApp(
      store.kind,
      store.memory ? { nonces: new MemoryNonceStore({ now: () => t.clock.now() }) } : {},
    )
    try {
      const stamped = t.clock.now()
      const headers = t.sign(anonymous)
      t.clock.set(stamped - TIMESTAMP_TOLERANCE_MS) // the earliest instant it passes
      expect((await t.call({ ...anonymous, headers })).statusCode).toBe(200)

      t.clock.set(stamped + TIMESTAMP_TOLERANCE_MS) // the latest: 600 s after the first use
      const replay = await t.call({ ...anonymous, headers })
      expect(replay.statusCode).toBe(401)
      expect(replay.json().code).toBe('NONCE_REPLAYED')

      t.clock.advance(1)
      const late = await t.call({ ...anonymous, headers })
      expect(late.statusCode).toBe(401)
      expect(late.json().code).toBe('TIMESTAMP_EXPIRED')
    } finally {
      await t.close()
    }
  })
})

describe.runIf(withRedis)('the Redis nonce store', () => {
  it('keeps a nonce by its own clock a minute beyond the timestamp window', async () => {
    const store = await RedisNonceStore.connect(REDIS_TEST_URL)
    const redis = new Redis(REDIS_TEST_URL)
    const nonce = `test:${Date.now()}:${Math.random()}`
    try {
      expect(await store.claim(nonce)).toBe(true)
      const ttl = await redis.pttl(`${REDIS_NONCE_PREFIX}${nonce}`)
      expect(ttl).toBeGreaterThan(2 * TIMESTAMP_TOLERANCE_MS + 55_000)
      expect(ttl).toBeLessThanOrEqual(NONCE_TTL_MS)
    } finally {
      redis.disconnect()
      await store.close()
    }
  })
})

describe('the SQLite nonce store on its own', () => {
  it('waits at most its short busy timeout for a lock held elsewhere', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'numisma-nonces-'))
    const file = path.join(dir, 'nonces.db')
    const warnings: unknown[] = []
    const store = SqliteNonceStore.open(file, new FakeClock(), {
      warn: (...args: unknown[]) => warnings.push(args),
      info: () => {},
    })
    const locker = new SQLite(file)
    try {
      expect(await store.claim('a:1')).toBe(true)
      locker.exec('begin exclusive')
      const started = performance.now()
      await expect(store.claim('a:2')).rejects.toMatchObject({ code: 'SERVICE_BUSY' })
      await expect(store.claim('a:3')).rejects.toMatchObject({ code: 'SERVICE_BUSY' })
      // Two claims, each waiting its busy timeout (200 ms) with the event loop, not 5 s.
      expect(performance.now() - started).toBeLessThan(1000)
      expect(warnings).toHaveLength(1)
      locker.exec('rollback')
      expect(await store.claim('a:2')).toBe(true)
      expect(await store.claim('a:1')).toBe(false)
    } finally {
      locker.close()
      await store.close()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
