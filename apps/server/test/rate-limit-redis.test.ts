import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { MAIN_PREFIX } from '../src/app'
import { createTestApp, nextMobile, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { startTwoInstances, type TwoInstances } from './helpers/instances'
import { REDIS_TEST_URL, redisAvailable } from './helpers/redis'
import { RedisRelay } from './helpers/redis-relay'

/**
 * Rate limits across instances (issue 14, ADR 032): with REDIS_URL a route's limit is counted in
 * Redis, so a caller spreading tries over two instances gets the limit once, not twice; without it
 * each instance counts alone (as before); and while Redis is away each instance counts alone again
 * rather than answering 500.
 */
const databases = await testDatabases()
const withRedis = await redisAvailable()

const LIMIT = 4
/** An address of its own per run: the counts live in the shared Redis for the window. */
const freshIp = () =>
  `198.51.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 1}`

const staffLogin = (app: FastifyInstance, ip: string) =>
  app
    .inject({
      method: 'POST',
      url: `${MAIN_PREFIX}/admin/login`,
      remoteAddress: ip,
      payload: { username: 'admin', password: 'not-the-password' },
    })
    .then((res) => res.statusCode)

describe.runIf(withRedis).each(databases)('rate limits with Redis on $name', (kind) => {
  let two: TwoInstances

  beforeAll(async () => {
    two = await startTwoInstances(kind, {
      redisUrl: REDIS_TEST_URL,
      rateLimit: { staffLogin: LIMIT, sms: 1000, smsPerCaller: LIMIT, login: 1000 },
    })
  })
  afterAll(() => two.close())

  it('staff sign-in tries split over two instances meet one limit', async () => {
    const ip = freshIp()
    const statuses = []
    for (let i = 0; i < LIMIT; i++) statuses.push(await staffLogin(i % 2 ? two.b : two.a.app, ip))
    expect(statuses).toEqual(Array(LIMIT).fill(401))
    expect(await staffLogin(two.a.app, ip)).toBe(429)
    expect(await staffLogin(two.b, ip)).toBe(429)
    // Another address is not affected.
    expect(await staffLogin(two.b, freshIp())).toBe(401)
  })

  it('SMS codes asked by one address, half of each instance, meet one limit', async () => {
    const ip = freshIp()
    // A number per code: one number has its own resend wait; this is the per-caller limit.
    const sms = async (app: FastifyInstance) => {
      const mobile = nextMobile()
      const call = { method: 'POST' as const, path: '/passport/sms', body: { mobile } }
      const res = await app.inject({
        method: 'POST',
        url: `${MAIN_PREFIX}/passport/sms`,
        remoteAddress: ip,
        headers: two.a.sign(call),
        payload: { mobile },
      })
      return res.statusCode
    }
    const statuses = []
    for (let i = 0; i < LIMIT; i++) statuses.push(await sms(i % 2 ? two.b : two.a.app))
    expect(statuses).toEqual(Array(LIMIT).fill(200))
    expect(await sms(two.a.app)).toBe(429)
    expect(await sms(two.b)).toBe(429)
  })
})

describe.runIf(withRedis)('rate limits of two deployments sharing a Redis', () => {
  it('are counted apart: another database’s shop does not fill this one’s window', async () => {
    const kind = databases[0]!
    const run = Math.random().toString(36).slice(2, 8)
    const limits = { staffLogin: LIMIT, sms: 1000, smsPerCaller: 1000, login: 1000 }
    const shop = await createTestApp(kind, {
      redisUrl: REDIS_TEST_URL,
      deployment: `shop-${run}`,
      rateLimit: limits,
    })
    const staging = await createTestApp(kind, {
      redisUrl: REDIS_TEST_URL,
      deployment: `staging-${run}`,
      rateLimit: limits,
    })
    try {
      const ip = freshIp()
      for (let i = 0; i < LIMIT; i++) expect(await staffLogin(staging.app, ip)).toBe(401)
      expect(await staffLogin(staging.app, ip)).toBe(429)
      // The same address at the other shop: its own window, untouched.
      expect(await staffLogin(shop.app, ip)).toBe(401)
    } finally {
      await staging.close()
      await shop.close()
    }
  })
})

describe.each(databases)('rate limits without Redis on $name', (kind) => {
  let a: TestApp
  let b: TestApp

  beforeAll(async () => {
    a = await createTestApp(kind, { rateLimit: { staffLogin: LIMIT } })
    b = await createTestApp(kind, { rateLimit: { staffLogin: LIMIT } })
  })
  afterAll(async () => {
    await a.close()
    await b.close()
  })

  it('each instance counts alone (one instance: the whole shop)', async () => {
    const ip = freshIp()
    for (let i = 0; i < LIMIT; i++) {
      expect(await staffLogin(a.app, ip)).toBe(401)
      expect(await staffLogin(b.app, ip)).toBe(401)
    }
    expect(await staffLogin(a.app, ip)).toBe(429)
    expect(await staffLogin(b.app, ip)).toBe(429)
  })
})

describe.runIf(withRedis)('rate limits while Redis is away', () => {
  const sqlite = databases.find((d) => d.name === 'sqlite')!
  let relay: RedisRelay
  let t: TestApp
  const lines: { level: number; msg: string }[] = []

  beforeAll(async () => {
    relay = new RedisRelay(new URL(REDIS_TEST_URL))
    await relay.start()
    t = await createTestApp(sqlite, {
      redisUrl: `redis://127.0.0.1:${relay.port}`,
      rateLimit: { staffLogin: LIMIT },
      logger: {
        level: 'info',
        stream: {
          write: (line: string) => {
            lines.push(JSON.parse(line) as { level: number; msg: string })
          },
        },
      },
    })
  })
  afterAll(async () => {
    await t.close()
    await relay.stop()
  })

  it('are counted by the instance alone (never 500), the outage logged once', async () => {
    const ip = freshIp()
    expect(await staffLogin(t.app, ip)).toBe(401)
    await relay.stop()
    const statuses = []
    for (let i = 1; i < LIMIT + 3; i++) statuses.push(await staffLogin(t.app, ip))
    // The try Redis counted is not known here: the instance's own count starts again.
    expect(statuses).toEqual([...Array(LIMIT).fill(401), 429, 429])
    const warnings = lines.filter((l) => /rate limits counted per instance/.test(l.msg))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]!.level).toBe(40)

    await relay.start()
    const back = freshIp()
    const deadline = Date.now() + 8000
    while (!lines.some((l) => /rate limits shared/.test(l.msg)) && Date.now() < deadline) {
      await staffLogin(t.app, back)
      await new Promise((r) => setTimeout(r, 200))
    }
    expect(lines.some((l) => /rate limits shared by every instance/.test(l.msg))).toBe(true)
    expect(lines.filter((l) => l.level >= 50)).toEqual([])
  })
})
