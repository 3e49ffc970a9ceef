import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { RedisNonceStore } from '../src/platform/nonce-store'
import { createRedisEventBus } from '../src/platform/redis-bus'
import { createTestApp, type SignedCall, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { REDIS_TEST_URL, redisAvailable } from './helpers/redis'
import { RedisRelay } from './helpers/redis-relay'

/**
 * Review finding (issue 15): with REDIS_URL set every signed call claims its nonce in Redis. While
 * Redis is away a call must be refused quickly with 503 SERVICE_BUSY (not 500 with a stack per
 * request), the outage logged once through the app's logger (not "[ioredis] Unhandled error event"
 * on stderr at every reconnect), and calls must succeed again once Redis answers. The shared Redis
 * is never stopped: the app reaches it through a TCP relay this test cuts and restores.
 */
const databases = await testDatabases()
const withRedis = await redisAvailable()
const anonymous: SignedCall = { method: 'GET', path: '/pub/@province?countryId=CN' }

describe.runIf(withRedis)('signed calls while the nonce store’s Redis is away', () => {
  const sqlite = databases.find((d) => d.name === 'sqlite')!
  let relay: RedisRelay
  let t: TestApp
  let lines: { level: number; msg: string }[]
  let stderr: ReturnType<typeof vi.spyOn>

  beforeEach(async () => {
    relay = new RedisRelay(new URL(REDIS_TEST_URL))
    await relay.start()
    lines = []
    stderr = vi.spyOn(console, 'error')
    t = await createTestApp(sqlite, {
      redisUrl: `redis://127.0.0.1:${relay.port}`,
      logger: {
        level: 'info',
        stream: { write: (line: string) => lines.push(JSON.parse(line) as never) },
      },
    })
  })

  afterEach(async () => {
    await t.close()
    await relay.stop()
    stderr.mockRestore()
  })

  const timed = async () => {
    const started = Date.now()
    const response = await t.call(anonymous)
    return { response, ms: Date.now() - started }
  }

  const waitForOk = async (limitMs: number) => {
    const until = Date.now() + limitMs
    for (;;) {
      const response = await t.call(anonymous)
      if (response.statusCode === 200 || Date.now() > until) return response
      await new Promise((r) => setTimeout(r, 100))
    }
  }

  it('answers 503 SERVICE_BUSY quickly, logs the outage once, and recovers', async () => {
    expect((await t.call(anonymous)).statusCode).toBe(200)

    await relay.stop()
    for (let i = 0; i < 5; i++) {
      const { response, ms } = await timed()
      expect(response.statusCode).toBe(503)
      expect(response.json()).toEqual({ code: 'SERVICE_BUSY', message: expect.any(String) })
      expect(ms).toBeLessThan(2000)
    }
    // Let ioredis go through a few reconnect attempts: each one fails with an 'error' event.
    await new Promise((r) => setTimeout(r, 1500))
    expect((await t.call(anonymous)).statusCode).toBe(503)

    const outage = lines.filter((l) => /nonce store: Redis unreachable/.test(l.msg))
    expect(outage).toHaveLength(1)
    expect(outage[0]!.level).toBe(40) // warn
    expect(lines.filter((l) => l.level >= 50)).toEqual([]) // no error line, no stack per request
    expect(stderr).not.toHaveBeenCalled() // no "[ioredis] Unhandled error event"

    await relay.start() // same port
    const back = await waitForOk(5000)
    expect(back.statusCode).toBe(200)
    expect(lines.filter((l) => /nonce store: Redis reachable again/.test(l.msg))).toHaveLength(1)
  })

  it('answers 503 within ~1 s when Redis holds the connection but stops answering (stuck)', async () => {
    expect((await t.call(anonymous)).statusCode).toBe(200)
    relay.hold()
    const { response, ms } = await timed()
    expect(response.statusCode).toBe(503)
    expect(response.json().code).toBe('SERVICE_BUSY')
    expect(ms).toBeLessThan(2000)
    expect(lines.filter((l) => /nonce store: Redis unreachable/.test(l.msg))).toHaveLength(1)

    relay.release()
    expect((await waitForOk(3000)).statusCode).toBe(200)
    expect(lines.filter((l) => l.level >= 50)).toEqual([])
  })
})

describe('a nonce store whose Redis is away at start', () => {
  it('refuses to open within ~1 s, naming REDIS_URL, without its password', async () => {
    const errors = vi.spyOn(console, 'error')
    const started = Date.now()
    try {
      const opening = RedisNonceStore.connect('redis://:s3cret@127.0.0.1:1')
      await expect(opening).rejects.toThrow(/REDIS_URL, redis:\/\/127\.0\.0\.1:1\) does not answer/)
      await opening.catch((error: unknown) => expect(String(error)).not.toContain('s3cret'))
      expect(Date.now() - started).toBeLessThan(2000)
      // No reconnect loop left behind printing unhandled error events.
      await new Promise((r) => setTimeout(r, 500))
      expect(errors).not.toHaveBeenCalled()
    } finally {
      errors.mockRestore()
    }
  })
})

describe.runIf(withRedis)('the push bus while its Redis is away', () => {
  it('reports the outage once per connection, not at every reconnect, and nothing on stderr', async () => {
    const relay = new RedisRelay(new URL(REDIS_TEST_URL))
    await relay.start()
    const stderr = vi.spyOn(console, 'error')
    const reported: unknown[] = []
    const bus = await createRedisEventBus(`redis://127.0.0.1:${relay.port}`, (error) =>
      reported.push(error),
    )
    try {
      await relay.stop()
      // ioredis retries at 50 ms, 100 ms, …: a dozen failed attempts in this time, each an 'error'.
      await new Promise((r) => setTimeout(r, 2500))
      expect(reported.length).toBeGreaterThan(0)
      expect(reported.length).toBeLessThanOrEqual(2) // the publisher's and the subscriber's
      expect(stderr).not.toHaveBeenCalled()
    } finally {
      await relay.start()
      await new Promise((r) => setTimeout(r, 500))
      await bus.close()
      await relay.stop()
      stderr.mockRestore()
    }
  })
})
