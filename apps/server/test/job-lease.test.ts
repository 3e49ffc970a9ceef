import type { FastifyBaseLogger } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClosingSweeper } from '../src/modules/bidding/closing'
import { REMINDER_LEAD_MS, ReminderJob } from '../src/modules/bidding/reminders'
import { randomToken } from '../src/platform/crypto'
import {
  LEASE_PREFIX,
  type LeaseBackend,
  LeasedJobs,
  leasePrefixFor,
  PostgresLeases,
  RedisLeases,
  singleInstanceLeases,
} from '../src/platform/job-lease'
import { createTestApp, nextMobile, type TestApp } from './helpers/app'
import { createLot } from './helpers/auction'
import { PG_ADMIN_URL, testDatabases } from './helpers/databases'
import { REDIS_TEST_URL, redisAvailable } from './helpers/redis'
import { RedisRelay } from './helpers/redis-relay'

/**
 * Job coordination (issue 14, ADR 032): with several instances on one database, each interval job
 * runs on the one instance holding its lease (Redis when configured, else a PostgreSQL advisory
 * lock; SQLite is one instance and always runs them); when that instance stops or dies another
 * takes over. The lease only saves duplicate work: a reminder goes out once either way.
 */
const databases = await testDatabases()
const withRedis = await redisAvailable()
const MINUTE = 60_000
const TTL = 600

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
async function until(check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await sleep(20)
  }
}

interface Backends {
  name: string
  /** A backend per instance, on a namespace of this run's own. */
  make: () => LeaseBackend
  shared: boolean
}

const prefix = `${LEASE_PREFIX}test-${randomToken(6)}:`
const backendKinds = (kind: 'sqlite' | 'postgres'): Backends[] =>
  kind === 'sqlite'
    ? [{ name: 'one SQLite instance', make: () => singleInstanceLeases, shared: false }]
    : [
        ...(withRedis
          ? [{ name: 'Redis', make: () => new RedisLeases(REDIS_TEST_URL, prefix), shared: true }]
          : []),
        { name: 'advisory lock', make: () => new PostgresLeases(PG_ADMIN_URL), shared: true },
      ]

/** A sweeper whose sweeps are counted, started every 50 ms by the lease holder. */
function countedSweeper(t: TestApp) {
  const sweeper = ClosingSweeper.forDatabase(t.database, t.clock, t.app.bus)
  const sweep = sweeper.sweep.bind(sweeper)
  const counter = { sweeps: 0 }
  sweeper.sweep = () => {
    counter.sweeps += 1
    return sweep()
  }
  return { job: { start: () => sweeper.start(50), stop: () => sweeper.stop() }, counter }
}

async function lotStatus(t: TestApp, lotId: number): Promise<string> {
  const row = await t.database.db
    .selectFrom('lots')
    .select('status')
    .where('id', '=', lotId)
    .executeTakeFirstOrThrow()
  return row.status
}

describe.each(databases)('interval jobs on two instances ($name)', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp(kind)
  })
  afterAll(() => t.close())

  describe.each(backendKinds(kind.name))('with $name', ({ make, shared }) => {
    it('one instance sweeps; when it stops the other takes over', async () => {
      const name = `closing-${randomToken(6)}`
      const a = countedSweeper(t)
      const b = countedSweeper(t)
      const leasesA = new LeasedJobs(make(), { ttlMs: TTL }).add(name, a.job)
      const leasesB = new LeasedJobs(make(), { ttlMs: TTL }).add(name, b.job)
      await leasesA.start()
      await leasesB.start()
      try {
        const lotId = await createLot(t, { endsAt: t.clock.now() + MINUTE })
        t.clock.advance(2 * MINUTE)
        await until(async () => (await lotStatus(t, lotId)) !== 'open')
        await sleep(300)
        if (!shared) {
          // SQLite: one instance by definition; each runs its jobs.
          expect(leasesA.runs(name) && leasesB.runs(name)).toBe(true)
          return
        }
        expect(leasesA.runs(name)).toBe(true)
        expect(leasesB.runs(name)).toBe(false)
        expect(a.counter.sweeps).toBeGreaterThan(0)
        expect(b.counter.sweeps).toBe(0)

        // The holder shuts down: it gives the lease up, the other takes it at its next try.
        await leasesA.stop()
        const sweepsOfA = a.counter.sweeps
        await until(() => leasesB.runs(name), TTL)
        const next = await createLot(t, { endsAt: t.clock.now() + MINUTE })
        t.clock.advance(2 * MINUTE)
        await until(async () => (await lotStatus(t, next)) !== 'open')
        expect(b.counter.sweeps).toBeGreaterThan(0)
        expect(a.counter.sweeps).toBe(sweepsOfA)
      } finally {
        await leasesA.stop().catch(() => undefined)
        await leasesB.stop()
      }
    })

    it.runIf(shared)('a holder that dies without giving up its lease is replaced', async () => {
      const name = `dies-${randomToken(6)}`
      const a = make()
      const b = make()
      try {
        expect(await a.acquire(name, 'a', TTL)).toBe(true)
        expect(await a.acquire(name, 'a', TTL)).toBe(true)
        expect(await b.acquire(name, 'b', TTL)).toBe(false)
        // "Dies": renews no more, its connection gone (nothing released).
        await a.close()
        const died = Date.now()
        await until(() => b.acquire(name, 'b', TTL), TTL * 3)
        expect(Date.now() - died).toBeLessThan(TTL * 2)
        expect(
          await make()
            .acquire(name, 'c', TTL)
            .catch(() => false),
        ).toBe(false)
      } finally {
        await b.close()
      }
    })

    it('a watcher is reminded once, whichever instances run the job', async () => {
      const name = `reminders-${randomToken(6)}`
      const events: number[] = []
      const stopListening = t.app.bus.subscribe((event) => {
        if (event.type === 'reminder') events.push(event.userId)
      })
      const reminderJob = () => {
        const job = ReminderJob.forDatabase(t.database, t.clock, t.app.bus)
        return { start: () => job.start(30), stop: () => job.stop() }
      }
      const leasesA = new LeasedJobs(make(), { ttlMs: TTL }).add(name, reminderJob())
      const leasesB = new LeasedJobs(make(), { ttlMs: TTL }).add(name, reminderJob())
      await leasesA.start()
      await leasesB.start()
      try {
        const endsAt = t.clock.now() + 20 * MINUTE
        const lotId = await createLot(t, { endsAt })
        const user = await t.database.db
          .insertInto('users')
          .values({
            mobile: nextMobile(),
            display: '藏友',
            avatar: null,
            created_at: t.clock.now(),
          })
          .returning('id')
          .executeTakeFirstOrThrow()
        await t.database.db
          .insertInto('watches')
          .values({ user_id: user.id, lot_id: lotId, created_at: t.clock.now() })
          .execute()
        t.clock.set(endsAt - REMINDER_LEAD_MS + 1000)
        await until(() => events.includes(user.id))
        await sleep(300)
        expect(events.filter((id) => id === user.id)).toHaveLength(1)
      } finally {
        stopListening()
        await leasesA.stop()
        await leasesB.stop()
      }
    })
  })
})

describe.runIf(withRedis)('job leases while Redis is away', () => {
  it('run the jobs (duplicates are safe; lots that never close are not), said once', async () => {
    const warnings: string[] = []
    const log = {
      warn: (_o: unknown, msg: string) => warnings.push(msg),
      info: () => undefined,
    } as unknown as FastifyBaseLogger
    const started: string[] = []
    const leases = new LeasedJobs(new RedisLeases('redis://127.0.0.1:1', prefix), {
      ttlMs: TTL,
      log,
    }).add('closing', { start: () => started.push('closing'), stop: () => Promise.resolve() })
    await leases.start()
    await sleep(TTL)
    await leases.stop()
    expect(started).toEqual(['closing'])
    expect(warnings).toHaveLength(1)
  })
})

describe('lease keys', () => {
  it('are the database’s own: instances on other databases sharing a Redis do not compete', () => {
    const shop = leasePrefixFor({ url: 'postgres://app:secret@db.example:5432/shop' })
    expect(leasePrefixFor({ url: 'postgres://other:pw@db.example:5432/shop' })).toBe(shop)
    expect(leasePrefixFor({ url: 'postgres://app:secret@db.example:5432/staging' })).not.toBe(shop)
    expect(leasePrefixFor({ sqliteFile: '/srv/a/numisma.db' })).not.toBe(
      leasePrefixFor({ sqliteFile: '/srv/b/numisma.db' }),
    )
    expect(shop).toMatch(/^numisma:lease:[0-9a-f]{12}:$/)
    expect(shop).not.toContain('secret')
  })
})

/** A backend answering as told: every acquire held, each release taking `releaseMs`. */
function scriptedBackend(acquire: () => Promise<boolean>, releaseMs = 0): LeaseBackend {
  return {
    acquire,
    release: async () => {
      await sleep(releaseMs)
    },
    close: () => Promise.resolve(),
  }
}

const job = (log: string[], name: string) => ({
  start: () => log.push(`start ${name}`),
  stop: () => {
    log.push(`stop ${name}`)
    return Promise.resolve()
  },
})

describe('lease rounds', () => {
  it('give the leases up together on stop: seven slow releases take one release’s time', async () => {
    const leases = new LeasedJobs(
      scriptedBackend(() => Promise.resolve(true), 400),
      { ttlMs: TTL },
    )
    const log: string[] = []
    for (let i = 0; i < 7; i++) leases.add(`job-${i}`, job(log, `job-${i}`))
    await leases.start()
    const began = Date.now()
    await leases.stop()
    expect(Date.now() - began).toBeLessThan(1200)
    expect(log.filter((l) => l.startsWith('stop'))).toHaveLength(7)
  })

  it('stop waiting for releases that never come (the lease expires by its TTL)', async () => {
    const backend = scriptedBackend(() => Promise.resolve(true))
    backend.release = () => new Promise(() => undefined)
    const leases = new LeasedJobs(backend, { ttlMs: TTL, stopWaitMs: 200 }).add('a', job([], 'a'))
    await leases.start()
    const began = Date.now()
    await leases.stop()
    expect(Date.now() - began).toBeLessThan(1000)
  })

  it('stop a job whose lease lapsed while its renewal hangs, and start it again once renewed', async () => {
    let hang: ((held: boolean) => void) | undefined
    let calls = 0
    const backend = scriptedBackend(() => {
      calls += 1
      if (calls === 1) return Promise.resolve(true)
      return new Promise<boolean>((resolve) => (hang = resolve))
    })
    const log: string[] = []
    const leases = new LeasedJobs(backend, { ttlMs: 200, renewEveryMs: 50, stopWaitMs: 200 })
    leases.add('closing', job(log, 'closing'))
    await leases.start()
    expect(leases.runs('closing')).toBe(true)
    await until(() => !leases.runs('closing'), 2000)
    expect(log).toEqual(['start closing', 'stop closing'])
    // The renewal answers at last: the lease is ours, the job runs again.
    hang?.(true)
    await until(() => leases.runs('closing'), 2000)
    await leases.stop()
    expect(log).toEqual(['start closing', 'stop closing', 'start closing', 'stop closing'])
  })

  it.runIf(databases.some((d) => d.name === 'postgres'))(
    'on PostgreSQL, a database that stops answering fails the round in bounded time, and stop too',
    async () => {
      const relay = new RedisRelay(new URL(PG_ADMIN_URL))
      await relay.start()
      const url = new URL(PG_ADMIN_URL)
      url.hostname = '127.0.0.1'
      url.port = String(relay.port)
      const backend = new PostgresLeases(url.toString(), { timeoutMs: 300 })
      try {
        expect(await backend.acquire(`relay-${randomToken(4)}`)).toBe(true)
        relay.hold()
        const began = Date.now()
        await expect(backend.acquire(`relay-${randomToken(4)}`)).rejects.toThrow()
        expect(Date.now() - began).toBeLessThan(1500)
        const leases = new LeasedJobs(backend, { stopWaitMs: 300 }).add('a', job([], 'a'))
        await leases.start()
        const stopping = Date.now()
        await leases.stop()
        expect(Date.now() - stopping).toBeLessThan(1500)
      } finally {
        relay.release()
        await relay.stop()
        await backend.close()
      }
    },
  )
})
