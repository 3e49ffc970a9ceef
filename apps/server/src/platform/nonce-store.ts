import fs from 'node:fs'
import path from 'node:path'
import { NONCE_TTL_MS } from '@numisma/contracts/signing'
import SQLite from 'better-sqlite3'
import type { FastifyBaseLogger } from 'fastify'
import { Redis } from 'ioredis'
import type { Kysely } from 'kysely'
import type { Clock } from './clock'
import type { Database } from './db'
import { AppError } from './errors'
import type { DB } from './schema'

/**
 * Remembers request nonces for NONCE_TTL_MS (11 minutes: the ±300 s timestamp window's 10 and a
 * minute's margin); `claim` is true only the first time a nonce is seen.
 * Every store but the in-memory one outlives the process, so a captured request cannot be replayed
 * after a restart (docs/decisions/029-nonce-store.md).
 */
export interface NonceStore {
  claim(nonce: string): Promise<boolean>
  close?(): Promise<void>
}

/** How many nonces the in-memory store holds before it refuses new ones. */
export const MEMORY_NONCE_CAP = 1_000_000

/**
 * Only for `:memory:` databases and tests that inject it: forgotten on restart. Capped: beyond the
 * cap a new nonce is refused (SERVICE_BUSY, 503) rather than an old one evicted — eviction would
 * reopen a replay window for exactly the requests a flood pushed out.
 */
export class MemoryNonceStore implements NonceStore {
  private readonly seen = new Map<string, number>()
  private lastPurge = 0

  constructor(
    private readonly clock: Clock,
    private readonly cap = MEMORY_NONCE_CAP,
  ) {}

  claim(nonce: string): Promise<boolean> {
    const now = this.clock.now()
    // Entries are in insertion order, so expired ones sit at the front; sweep once a second.
    if (now - this.lastPurge >= 1000) {
      this.lastPurge = now
      this.purge(now)
    }
    const expires = this.seen.get(nonce)
    if (expires !== undefined && expires > now) return Promise.resolve(false)
    if (expires === undefined && this.seen.size >= this.cap) {
      this.purge(now)
      if (this.seen.size >= this.cap) return Promise.reject(new AppError('SERVICE_BUSY'))
    }
    // Deleted first so a reused nonce moves to the back and the front stays the oldest.
    this.seen.delete(nonce)
    this.seen.set(nonce, now + NONCE_TTL_MS)
    return Promise.resolve(true)
  }

  get size(): number {
    return this.seen.size
  }

  private purge(now: number): void {
    for (const [nonce, expires] of this.seen) {
      if (expires > now) break
      this.seen.delete(nonce)
    }
  }
}

/** Where a store reports its outages: the app's logger (pino). */
export type NonceStoreLog = Pick<FastifyBaseLogger, 'warn' | 'info'>

/**
 * One warning when a store starts failing (with the first error), one info line when it works
 * again, nothing per request in between: the calls it refuses answer 503 SERVICE_BUSY on their own.
 */
class OutageReporter {
  private down = false

  constructor(
    private readonly log: NonceStoreLog | undefined,
    private readonly what: { down: string; up: string },
  ) {}

  markDown(error: unknown): void {
    if (this.down) return
    this.down = true
    this.log?.warn(
      { err: error },
      `nonce store: ${this.what.down}; signed calls answer 503 SERVICE_BUSY until it is back`,
    )
  }

  markUp(): void {
    if (!this.down) return
    this.down = false
    this.log?.info(`nonce store: ${this.what.up}`)
  }
}

/**
 * How long a claim in the nonce file waits for its write lock. better-sqlite3 waits synchronously,
 * so the whole event loop waits with it. Only this process writes the file, so a lock held longer
 * means something else has it (a stray sqlite3 shell, a backup tool): refuse rather than freeze.
 */
export const SQLITE_NONCE_BUSY_TIMEOUT_MS = 200

/**
 * Embedded mode: a SQLite file of its own beside the main one (DATA_DIR/nonces.db), in WAL with
 * synchronous=NORMAL. A committed claim survives a crash of the process (it is in the WAL, handed
 * to the OS); only an OS crash or power cut can lose the last ones, which the ±300 s timestamp
 * window then bounds. The main database stays synchronous=FULL for money; a nonce does not need
 * an fsync per request. If the file fails (locked beyond SQLITE_NONCE_BUSY_TIMEOUT_MS, disk full,
 * corrupt) a claim answers SERVICE_BUSY (503), logged once per outage, like Redis (ADR 029).
 */
export class SqliteNonceStore implements NonceStore {
  private readonly insert: SQLite.Statement<[string, number, number]>
  private readonly expired: SQLite.Statement<[number]>
  private readonly outage: OutageReporter
  private lastPurge = 0

  private constructor(
    private readonly sqlite: SQLite.Database,
    private readonly clock: Clock,
    file: string,
    log: NonceStoreLog | undefined,
  ) {
    const name = path.basename(file)
    this.outage = new OutageReporter(log, {
      down: `${name} fails (${file})`,
      up: `${name} works again`,
    })
    // A nonce already held is taken again only once it has expired (the row is then updated).
    this.insert = sqlite.prepare(
      `insert into request_nonces (nonce, expires_at) values (?, ?)
       on conflict (nonce) do update set expires_at = excluded.expires_at
       where request_nonces.expires_at <= ?`,
    )
    this.expired = sqlite.prepare('delete from request_nonces where expires_at <= ?')
  }

  /** Refuses to open, naming the file and what to do, if it is not a usable SQLite database. */
  static open(file: string, clock: Clock, log?: NonceStoreLog): SqliteNonceStore {
    let sqlite: SQLite.Database | undefined
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true })
      sqlite = new SQLite(file, { timeout: SQLITE_NONCE_BUSY_TIMEOUT_MS })
      sqlite.pragma('journal_mode = WAL')
      sqlite.pragma('synchronous = NORMAL')
      sqlite.exec(
        `create table if not exists request_nonces (
           nonce text primary key not null,
           expires_at integer not null
         ) without rowid;
         create index if not exists request_nonces_expires_at on request_nonces (expires_at);`,
      )
      return new SqliteNonceStore(sqlite, clock, file, log)
    } catch (error) {
      sqlite?.close()
      const reason = error instanceof Error ? error.message : String(error)
      throw new Error(
        `The nonce file ${file} cannot be used: ${reason}. Signed calls cannot be checked against ` +
          'replay without it; free the file (or the disk), or move it aside if it is damaged — ' +
          `it holds only the nonces of the last ${NONCE_TTL_MS / 60_000} minutes.`,
        { cause: error },
      )
    }
  }

  claim(nonce: string): Promise<boolean> {
    const now = this.clock.now()
    let claimed: boolean
    try {
      if (now - this.lastPurge >= 60_000) {
        this.lastPurge = now
        this.expired.run(now)
      }
      claimed = this.insert.run(nonce, now + NONCE_TTL_MS, now).changes === 1
    } catch (error) {
      // Locked, full, corrupt, I/O: the file's trouble, not this request's. Anything else is a bug.
      if (!(error instanceof SQLite.SqliteError)) throw error
      this.outage.markDown(error)
      return Promise.reject(new AppError('SERVICE_BUSY'))
    }
    this.outage.markUp()
    return Promise.resolve(claimed)
  }

  close(): Promise<void> {
    this.sqlite.close()
    return Promise.resolve()
  }
}

/** Several instances on PostgreSQL: the primary key decides which instance saw a nonce first. */
export class DatabaseNonceStore implements NonceStore {
  private lastPurge = 0

  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
  ) {}

  async claim(nonce: string): Promise<boolean> {
    const now = this.clock.now()
    if (now - this.lastPurge > 60_000) {
      this.lastPurge = now
      await this.db.deleteFrom('request_nonces').where('expires_at', '<=', now).execute()
    }
    const inserted = await this.db
      .insertInto('request_nonces')
      .values({ nonce, expires_at: now + NONCE_TTL_MS })
      .onConflict((oc) =>
        oc
          .column('nonce')
          .doUpdateSet({ expires_at: now + NONCE_TTL_MS })
          .where('request_nonces.expires_at', '<=', now),
      )
      .returning('nonce')
      .executeTakeFirst()
    return inserted !== undefined
  }
}

export const REDIS_NONCE_PREFIX = 'numisma:nonce:'

/**
 * The nonce keys of one deployment (platform/deployment-tag.ts), like its lease keys: a nonce
 * claimed at staging must not be refused by production sharing its Redis, nor the other way.
 */
export const redisNoncePrefixFor = (tag: string): string => `${REDIS_NONCE_PREFIX}${tag}:`

/**
 * Bounded so a claim fails within about a second when Redis is away, rather than queueing until
 * it is back: no offline queue (a command while disconnected fails at once), a 1 s connect and
 * command timeout (a Redis that accepts but does not answer), one retry. ioredis keeps
 * reconnecting in the background (its default backoff, at most 2 s apart). Claims made in the same
 * turn of the event loop go to Redis as one pipeline (one socket write for many requests: the
 * write per claim was a tenth of the read path's server CPU, ADR 033).
 */
export const REDIS_NONCE_OPTIONS = {
  lazyConnect: true,
  enableAutoPipelining: true,
  enableOfflineQueue: false,
  connectTimeout: 1000,
  commandTimeout: 1000,
  maxRetriesPerRequest: 1,
} as const

/** The URL without its password, for a message. */
function redisWhere(url: string): string {
  try {
    const u = new URL(url)
    return `${u.protocol}//${u.host}`
  } catch {
    return 'REDIS_URL'
  }
}

/**
 * REDIS_URL set: one `SET … NX PX` per request, so a nonce seen by any instance is refused by every
 * other; Redis expires it after NONCE_TTL_MS by its own clock (the minute's margin beyond the
 * timestamp window absorbs the instances' skew against it). If Redis cannot be reached the claim
 * fails with SERVICE_BUSY (503) — never let through unchecked — and the outage is logged once, as a
 * warning, with one line more when Redis answers again (ADR 029).
 */
export class RedisNonceStore implements NonceStore {
  private readonly outage: OutageReporter

  constructor(
    private readonly redis: Redis,
    log?: NonceStoreLog,
    private readonly prefix = REDIS_NONCE_PREFIX,
  ) {
    this.outage = new OutageReporter(log, {
      down: 'Redis unreachable',
      up: 'Redis reachable again',
    })
    // Without a listener ioredis prints "[ioredis] Unhandled error event" on every reconnect.
    redis.on('error', (error: unknown) => this.outage.markDown(error))
    redis.on('ready', () => this.outage.markUp())
  }

  /** Refuses to open (a clear message, no reconnect loop left behind) if Redis does not answer. */
  static async connect(
    url: string,
    log?: NonceStoreLog,
    prefix = REDIS_NONCE_PREFIX,
  ): Promise<RedisNonceStore> {
    const redis = new Redis(url, REDIS_NONCE_OPTIONS)
    // Listened to before connecting: a refused connection emits 'error' as well as rejecting.
    redis.on('error', () => {})
    try {
      await redis.connect()
    } catch (error) {
      redis.disconnect()
      const reason = error instanceof Error ? error.message : String(error)
      throw new Error(
        `Redis for the nonce store (REDIS_URL, ${redisWhere(url)}) does not answer: ${reason}. ` +
          'Signed calls cannot be checked against replay without it; start Redis or unset REDIS_URL.',
        { cause: error },
      )
    }
    redis.removeAllListeners('error')
    return new RedisNonceStore(redis, log, prefix)
  }

  async claim(nonce: string): Promise<boolean> {
    let set: string | null
    try {
      set = await this.redis.set(`${this.prefix}${nonce}`, '1', 'PX', NONCE_TTL_MS, 'NX')
    } catch (error) {
      this.outage.markDown(error)
      throw new AppError('SERVICE_BUSY')
    }
    this.outage.markUp()
    return set === 'OK'
  }

  close(): Promise<void> {
    // Not quit(): it would wait on a Redis that may be away or stuck, and every claim it
    // acknowledged is already kept.
    this.redis.disconnect()
    return Promise.resolve()
  }
}

/**
 * The store for this process: Redis when configured (shared by every instance), else the database
 * (PostgreSQL's table; SQLite's file beside the main one), else memory (a `:memory:` database).
 */
export async function openNonceStore(deps: {
  database: Database
  clock: Clock
  redisUrl?: string | undefined
  /** The deployment's tag: its nonce keys in a Redis other shops may share (unset: the shared ones). */
  deployment?: string | undefined
  log?: NonceStoreLog
}): Promise<NonceStore> {
  const { database, clock } = deps
  if (deps.redisUrl) {
    const prefix = deps.deployment ? redisNoncePrefixFor(deps.deployment) : REDIS_NONCE_PREFIX
    return RedisNonceStore.connect(deps.redisUrl, deps.log, prefix)
  }
  if (database.dialect === 'postgres') return new DatabaseNonceStore(database.db, clock)
  if (database.sqliteFile !== undefined) {
    const file = path.join(path.dirname(database.sqliteFile), 'nonces.db')
    return SqliteNonceStore.open(file, clock, deps.log)
  }
  return new MemoryNonceStore(clock)
}
