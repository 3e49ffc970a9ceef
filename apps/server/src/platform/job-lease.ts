import { createHash } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import { Redis } from 'ioredis'
import pg from 'pg'
import { randomToken } from './crypto'
import { deploymentTag } from './deployment-tag'

/**
 * Who runs each interval job when several instances share a database (issue 14, ADR 032). A lease
 * saves duplicate work only: every job stays correct when two instances run it at once (closing
 * takes row locks and checks the status, reminders are claimed in the database), so a backend that
 * cannot tell — Redis away, a lost connection — lets the job run rather than stop the shop's lots
 * from closing.
 */
export interface LeaseBackend {
  /**
   * Takes the lease `name` for `token`, or renews it when `token` already holds it; false when
   * another holder has it. Throws when it cannot tell.
   */
  acquire(name: string, token: string, ttlMs: number): Promise<boolean>
  /** Gives the lease up if `token` holds it (another instance may take it at once). */
  release(name: string, token: string): Promise<void>
  close(): Promise<void>
}

export const LEASE_PREFIX = 'numisma:lease:'

/**
 * The lease keys of one shop: instances share a lease only when they share a database. A Redis
 * serving several databases (staging beside production, parallel test runs) must not let one
 * database's instance hold the jobs of another's, which would then never run.
 */
export function leasePrefixFor(database: { url?: string; sqliteFile?: string }): string {
  return `${LEASE_PREFIX}${deploymentTag(database)}:`
}

/** Takes the key when free, or extends it when this token holds it. */
const ACQUIRE = `
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if holder then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`
/** Deletes the key only when this token holds it: a lease another has taken since is kept. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`

/**
 * REDIS_URL: a key per job, `SET NX PX` with the instance's token, renewed (by the token) well
 * within its TTL. An instance that dies stops renewing; another takes the job once the key
 * expires, within one TTL.
 */
export class RedisLeases implements LeaseBackend {
  private readonly redis: Redis

  constructor(
    url: string,
    private readonly prefix = LEASE_PREFIX,
  ) {
    // A command waits for the connection (a background job can), at most a second: then the
    // job runs unsure rather than not at all.
    this.redis = new Redis(url, {
      connectTimeout: 1000,
      commandTimeout: 1000,
      maxRetriesPerRequest: 1,
    })
    // Outages reach the caller as failed acquires; ioredis must not print each reconnect.
    this.redis.on('error', () => undefined)
  }

  async acquire(name: string, token: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.eval(ACQUIRE, 1, `${this.prefix}${name}`, token, ttlMs)) === 1
  }

  async release(name: string, token: string): Promise<void> {
    await this.redis.eval(RELEASE, 1, `${this.prefix}${name}`, token)
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect())
  }
}

/** The two-int advisory lock key of a job: a class of our own and a hash of its name. */
const LOCK_CLASS = 1_456_812
function lockKey(name: string): number {
  return createHash('sha256').update(name).digest().readInt32BE(0)
}

/**
 * PostgreSQL without Redis: `pg_try_advisory_lock` on a connection of its own, held for as long as
 * the instance holds the job. The lock lives and dies with that session, so an instance that dies
 * (or loses its connection) frees its jobs at once, and a TTL is not needed. Renewing checks the
 * session still answers.
 */
export class PostgresLeases implements LeaseBackend {
  private client: pg.Client | undefined
  private readonly held = new Set<string>()
  private readonly timeoutMs: number

  constructor(
    private readonly url: string,
    /**
     * How long connecting and each query may take. A database that stops answering without
     * closing the connection would otherwise hang the lease round, and with it the shutdown.
     */
    options: { timeoutMs?: number } = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? POSTGRES_LEASE_TIMEOUT_MS
  }

  private async session(): Promise<pg.Client> {
    if (this.client) return this.client
    const client = new pg.Client({
      connectionString: this.url,
      connectionTimeoutMillis: this.timeoutMs,
      query_timeout: this.timeoutMs,
    })
    const lost = () => {
      // Its locks went with it: nothing is held any more.
      if (this.client === client) this.client = undefined
      this.held.clear()
    }
    client.on('error', lost)
    client.on('end', lost)
    await client.connect()
    this.client = client
    return client
  }

  /**
   * A query that timed out leaves the session in doubt: it is dropped (its locks go with it once
   * the database sees the connection close), and the next round opens another.
   */
  private async query<R extends pg.QueryResultRow>(
    client: pg.Client,
    text: string,
    values?: unknown[],
  ): Promise<pg.QueryResult<R>> {
    try {
      return await client.query<R>(text, values)
    } catch (error) {
      if (this.client === client) {
        this.client = undefined
        this.held.clear()
      }
      destroy(client)
      throw error
    }
  }

  async acquire(name: string): Promise<boolean> {
    const client = await this.session()
    if (this.held.has(name)) {
      await this.query(client, 'select 1')
      return this.held.has(name)
    }
    const { rows } = await this.query<{ locked: boolean }>(
      client,
      'select pg_try_advisory_lock($1, $2) as locked',
      [LOCK_CLASS, lockKey(name)],
    )
    if (rows[0]?.locked) this.held.add(name)
    return rows[0]?.locked === true
  }

  async release(name: string): Promise<void> {
    if (!this.held.delete(name) || !this.client) return
    await this.query(this.client, 'select pg_advisory_unlock($1, $2)', [LOCK_CLASS, lockKey(name)])
  }

  async close(): Promise<void> {
    const client = this.client
    this.client = undefined
    this.held.clear()
    if (!client) return
    // A database that does not answer the goodbye must not hold the shutdown.
    const ended = await withinMs(
      client.end().then(() => true),
      this.timeoutMs,
    )
    if (!ended) destroy(client)
  }
}

/** Connecting or a lease query to PostgreSQL, at most (then the round runs the job unsure). */
export const POSTGRES_LEASE_TIMEOUT_MS = 2000

/** Cuts a client's socket without a goodbye (pg keeps it as `connection.stream`). */
function destroy(client: pg.Client): void {
  const stream = (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection
    ?.stream
  stream?.destroy()
  client.end().catch(() => undefined)
}

/** `promise`'s value, or false when it has not settled in `ms` (a rejection counts as false). */
async function withinMs<T>(promise: Promise<T>, ms: number): Promise<T | false> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms)
  })
  try {
    return await Promise.race([promise.catch(() => false as const), late])
  } finally {
    clearTimeout(timer)
  }
}

/** SQLite: one instance owns the file, so it runs every job. */
export const singleInstanceLeases: LeaseBackend = {
  acquire: () => Promise.resolve(true),
  release: () => Promise.resolve(),
  close: () => Promise.resolve(),
}

/** An interval job as the modules make them (IntervalJob underneath). */
export interface StartableJob {
  start(): void
  stop(): Promise<void>
}

export interface LeasedJobsOptions {
  /** How long a lease outlives its last renewal (Redis): the takeover time after a crash. */
  ttlMs?: number
  /** How often leases are taken or renewed (default a third of the TTL). */
  renewEveryMs?: number
  log?: Pick<FastifyBaseLogger, 'warn' | 'info'>
  /** This instance's token (default random). */
  token?: string
  /** How long `stop` waits for a round in progress and for the leases' release (default 2 s). */
  stopWaitMs?: number
  /** Milliseconds now (tests move it). */
  now?: () => number
}

export const DEFAULT_LEASE_TTL_MS = 15_000
const DEFAULT_STOP_WAIT_MS = 2000

interface Entry {
  name: string
  job: StartableJob
  running: boolean
  /**
   * Until when the lease is surely ours: the TTL from when the last successful renewal was sent.
   * Infinity while the backend cannot tell (the job runs regardless, by choice).
   */
  heldUntil: number
}

/**
 * Runs each job on the instance holding its lease: tries every lease at start and then every
 * `renewEveryMs`, starting a job when its lease is won and stopping it when it is lost. `stop`
 * stops the jobs, then gives their leases up, so another instance takes over at its next try
 * rather than after the TTL.
 */
export class LeasedJobs {
  private readonly entries: Entry[] = []
  private timer: NodeJS.Timeout | undefined
  private round: Promise<void> | undefined
  private stopped = false
  private unsure = false
  private readonly ttlMs: number
  private readonly renewEveryMs: number
  private readonly stopWaitMs: number
  private readonly now: () => number
  readonly token: string

  constructor(
    private readonly backend: LeaseBackend,
    private readonly options: LeasedJobsOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? DEFAULT_LEASE_TTL_MS
    this.renewEveryMs = options.renewEveryMs ?? Math.max(10, Math.floor(this.ttlMs / 3))
    this.token = options.token ?? randomToken(16)
    this.stopWaitMs = options.stopWaitMs ?? DEFAULT_STOP_WAIT_MS
    this.now = options.now ?? Date.now
  }

  add(name: string, job: StartableJob): this {
    this.entries.push({ name, job, running: false, heldUntil: 0 })
    return this
  }

  /** Whether this instance runs `name` now. */
  runs(name: string): boolean {
    return this.entries.some((e) => e.name === name && e.running)
  }

  /** Takes what it can at once, then keeps trying and renewing. */
  async start(): Promise<void> {
    await this.tick()
    this.timer = setInterval(() => {
      this.stopLapsed()
      this.tick().catch((error: unknown) =>
        this.options.log?.warn({ err: error }, 'job lease round failed'),
      )
    }, this.renewEveryMs)
    this.timer.unref()
  }

  /** Stops every job (waiting for runs in progress), gives the leases up, closes the backend. */
  async stop(): Promise<void> {
    this.stopped = true
    clearInterval(this.timer)
    // A round stuck on a backend that does not answer must not hold the shutdown.
    if (this.round) await withinMs(this.round, this.stopWaitMs)
    // Together, and bounded: one by one, seven releases to a Redis that is away took 7 s of the
    // 10 s shutdown budget. A release that does not come leaves the lease to expire by its TTL.
    await withinMs(
      Promise.all(
        this.entries
          .filter((entry) => entry.running)
          .map(async (entry) => {
            entry.running = false
            await entry.job.stop()
            await this.backend.release(entry.name, this.token).catch(() => undefined)
          }),
      ),
      this.stopWaitMs,
    )
    await withinMs(this.backend.close(), this.stopWaitMs)
  }

  /**
   * A job whose lease lapsed (a TTL since its last renewal, the round slow or stuck) stops here:
   * another instance may hold it by now. Correctness never depended on it, but duplicate sweeps
   * and reminders are saved. The next round that wins the lease starts it again.
   */
  private stopLapsed(): void {
    const now = this.now()
    for (const entry of this.entries) {
      if (!entry.running || now <= entry.heldUntil) continue
      entry.running = false
      this.options.log?.warn({ job: entry.name }, 'job lease lapsed: job stopped here')
      entry.job
        .stop()
        .catch((error: unknown) =>
          this.options.log?.warn({ err: error, job: entry.name }, 'stopping a lapsed job failed'),
        )
    }
  }

  private tick(): Promise<void> {
    if (this.round || this.stopped) return this.round ?? Promise.resolve()
    this.round = this.renew().finally(() => (this.round = undefined))
    return this.round
  }

  private async renew(): Promise<void> {
    for (const entry of this.entries) {
      if (this.stopped) return
      let held: boolean
      const sentAt = this.now()
      try {
        held = await this.backend.acquire(entry.name, this.token, this.ttlMs)
        entry.heldUntil = sentAt + this.ttlMs
        this.markSure()
      } catch (error) {
        // Cannot tell who holds it: run it (duplicates are safe, a shop whose lots never close
        // is not), and say so once.
        held = true
        entry.heldUntil = Number.POSITIVE_INFINITY
        this.markUnsure(error)
      }
      if (this.stopped) return
      if (held && !entry.running) {
        entry.running = true
        entry.job.start()
      } else if (!held && entry.running) {
        entry.running = false
        await entry.job.stop()
      }
    }
  }

  private markUnsure(error: unknown): void {
    if (this.unsure) return
    this.unsure = true
    this.options.log?.warn(
      { err: error },
      'job leases unavailable: running the interval jobs here until they answer',
    )
  }

  private markSure(): void {
    if (!this.unsure) return
    this.unsure = false
    this.options.log?.info('job leases available again')
  }
}
