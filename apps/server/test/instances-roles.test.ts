import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { artworkUrl } from '../src/modules/media/routes'
import { SMS_SANDBOX_PREFIX } from '../src/modules/sandbox/sms-sandbox'
import type { Role } from '../src/platform/roles'
import { createTestApp, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { listen, openPush } from './helpers/push-client'
import { REDIS_TEST_URL, redisAvailable } from './helpers/redis'
import { RedisRelay } from './helpers/redis-relay'
import { appWithRelayedBus } from './helpers/relayed-bus'

/**
 * ROLES and /svc/ready (issue 14, ADR 032): an instance registers only the services it is given,
 * every instance answers the process endpoints, and /svc/ready is 200 only while the database (and
 * Redis, when configured) answer and no shutdown has begun.
 */
const databases = await testDatabases()
const withRedis = await redisAvailable()

const status = async (t: TestApp, url: string) =>
  (await t.inject({ method: 'GET', url })).statusCode

/** Whether each service answers on this instance (404: not registered here). */
async function services(t: TestApp) {
  const main = await t.call({ method: 'GET', path: '/pub/@province?countryId=CN' })
  const search = await t.call({ method: 'GET', service: 'search', path: '/api/search/wechat' })
  const staff = await t.inject({
    method: 'POST',
    url: '/svc/main/admin/login',
    payload: { username: 'admin', password: 'not-the-password' },
  })
  const base = await listen(t.app)
  const push = await openPush(base).then(
    (inbox) => {
      inbox.socket.close()
      return true
    },
    (error: unknown) => {
      expect(String(error)).toMatch(/404/)
      return false
    },
  )
  return {
    main: main.statusCode !== 404,
    staff: staff.statusCode !== 404,
    // The web app's pages: index.html when main serves them (none built here: not a coded 404).
    web: !(await t.inject({ method: 'GET', url: '/lots/1' })).body.includes('NOT_FOUND'),
    sandbox: (await status(t, `${SMS_SANDBOX_PREFIX}/`)) !== 404,
    media:
      (await status(
        t,
        artworkUrl({
          kind: 'supply',
          seed: 1,
          tool: 'slab',
          label: 'PCGS',
          hue: 30,
          side: 'obverse',
        }),
      )) !== 404,
    search: search.statusCode !== 404,
    push,
  }
}

describe.each(databases)('ROLES on $name', (kind) => {
  const cases: { roles: Role[]; on: string[] }[] = [
    { roles: ['main'], on: ['main', 'staff', 'web', 'sandbox', 'media'] },
    { roles: ['search'], on: ['search'] },
    { roles: ['push'], on: ['push'] },
    { roles: ['main', 'search'], on: ['main', 'staff', 'web', 'sandbox', 'media', 'search'] },
    { roles: ['search', 'push'], on: ['search', 'push'] },
    {
      roles: ['main', 'search', 'push'],
      on: ['main', 'staff', 'web', 'sandbox', 'media', 'search', 'push'],
    },
  ]

  it.each(cases)('$roles serves exactly $on, and the process endpoints', async ({ roles, on }) => {
    const t = await createTestApp(kind, { roles })
    try {
      const answered = await services(t)
      expect(
        Object.entries(answered)
          .filter(([, yes]) => yes)
          .map(([name]) => name)
          .sort(),
      ).toEqual([...on].sort())
      for (const url of ['/svc/health', '/svc/ready', '/svc/client-config']) {
        expect(await status(t, url), url).toBe(200)
      }
      // An unknown path outside /svc is a page of the web app only where main serves it.
      const page = await t.inject({ method: 'GET', url: '/no-such-page' })
      if (!roles.includes('main')) expect(page.json()).toMatchObject({ code: 'NOT_FOUND' })
    } finally {
      await t.close()
    }
  })

  it('without ROLES an instance serves every service (the default of npm start)', async () => {
    const t = await createTestApp(kind)
    try {
      expect(Object.values(await services(t)).every(Boolean)).toBe(true)
    } finally {
      await t.close()
    }
  })
})

describe.each(databases)('GET /svc/ready on $name', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp(kind)
  })
  afterAll(() => t.close())

  it('is 200 while the database answers, 503 SERVICE_BUSY once shutdown has begun', async () => {
    const ready = await t.inject({ method: 'GET', url: '/svc/ready' })
    expect(ready.statusCode).toBe(200)
    expect(ready.json()).toEqual({ data: { status: 'ready' } })
    t.app.readiness.beginShutdown()
    const draining = await t.inject({ method: 'GET', url: '/svc/ready' })
    expect(draining.statusCode).toBe(503)
    expect(draining.json()).toMatchObject({
      code: 'SERVICE_BUSY',
      message: expect.any(String),
      details: { reason: 'shutting_down' },
    })
    // Liveness is another question: the process is alive until it exits.
    expect(await status(t, '/svc/health')).toBe(200)
  })

  it('is 503 naming the database once the database is closed', async () => {
    const other = await createTestApp(kind)
    expect(await status(other, '/svc/ready')).toBe(200)
    await other.database.close()
    const res = await other.inject({ method: 'GET', url: '/svc/ready' })
    expect(res.statusCode).toBe(503)
    expect(res.json()).toMatchObject({ code: 'SERVICE_BUSY', details: { reason: 'database' } })
    expect(await status(other, '/svc/health')).toBe(200)
    await other.app.close()
  })
})

describe.runIf(withRedis)('GET /svc/ready with REDIS_URL', () => {
  const sqlite = databases.find((d) => d.name === 'sqlite')!
  let relay: RedisRelay
  let t: TestApp

  beforeAll(async () => {
    relay = new RedisRelay(new URL(REDIS_TEST_URL))
    await relay.start()
    t = await createTestApp(sqlite, { redisUrl: `redis://127.0.0.1:${relay.port}` })
  })
  afterAll(async () => {
    await t.close()
    await relay.stop()
  })

  it('is 503 naming Redis while it does not answer, and 200 again once it does', async () => {
    expect(await status(t, '/svc/ready')).toBe(200)
    await relay.stop()
    const started = Date.now()
    const res = await t.inject({ method: 'GET', url: '/svc/ready' })
    expect(res.statusCode).toBe(503)
    expect(res.json()).toMatchObject({ code: 'SERVICE_BUSY', details: { reason: 'redis' } })
    expect(Date.now() - started).toBeLessThan(2000)
    // A Redis that accepts connections but does not answer is not ready either.
    await relay.start()
    await waitFor(async () => (await status(t, '/svc/ready')) === 200)
    relay.hold()
    const stuck = await t.inject({ method: 'GET', url: '/svc/ready' })
    expect(stuck.statusCode).toBe(503)
    relay.release()
    await waitFor(async () => (await status(t, '/svc/ready')) === 200)
  })
})

describe.runIf(withRedis)('GET /svc/ready with the Redis push bus', () => {
  const sqlite = databases.find((d) => d.name === 'sqlite')!
  let relayed: Awaited<ReturnType<typeof appWithRelayedBus>>
  let relay: RedisRelay
  let t: TestApp

  beforeAll(async () => {
    relayed = await appWithRelayedBus(sqlite)
    ;({ relay, t } = relayed)
  })
  afterAll(() => relayed.close())

  it('is 503 naming Redis while the bus’s connections are down or stuck, 200 once back', async () => {
    expect(await status(t, '/svc/ready')).toBe(200)
    await relay.stop()
    const res = await t.inject({ method: 'GET', url: '/svc/ready' })
    expect(res.statusCode).toBe(503)
    expect(res.json()).toMatchObject({ code: 'SERVICE_BUSY', details: { reason: 'redis' } })
    await relay.start()
    await waitFor(async () => (await status(t, '/svc/ready')) === 200)
    relay.hold()
    expect(await status(t, '/svc/ready')).toBe(503)
    relay.release()
    await waitFor(async () => (await status(t, '/svc/ready')) === 200)
  })
})

async function waitFor(check: () => Promise<boolean>, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error('condition not met in time')
}
