import { performance } from 'node:perf_hooks'
import { setImmediate } from 'node:timers'
import { CompiledQuery, type Kysely, type Transaction } from 'kysely'
import type { Database } from './db'
import type { DB } from './schema'

export type Tx = Kysely<DB> | Transaction<DB>

const RETRYABLE = new Set(['40001', '40P01'])
/** Attempts at a PostgreSQL transaction (or statement) that keeps failing retryably. */
export const MAX_ATTEMPTS = 5

/** A PostgreSQL serialisation failure or deadlock (40001 / 40P01): worth running again. */
export const isRetryable = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  'code' in error &&
  RETRYABLE.has(String(error.code))

/**
 * Runs `work` in a write transaction that serialises with every other writer of the rows it locks:
 * SQLite takes the write lock up front (`BEGIN IMMEDIATE`, so two bids never both read then both
 * write) and shares it, and its fsync, with the works queued at the same time (`SqliteGroupCommit`);
 * PostgreSQL relies on the row locks the work takes (`SELECT … FOR UPDATE`) and the whole
 * transaction is retried on a serialisation failure or deadlock (40001 / 40P01).
 *
 * Inside `work`, query only through `tx`, and never start another `writeTransaction`: SQLite has
 * one connection, and a query on the outer `db` (or a nested transaction) would wait for it
 * forever (bidding.test.ts guards the case that once did).
 */
export async function writeTransaction<T>(
  database: Database,
  work: (tx: Tx) => Promise<T>,
): Promise<T> {
  if (database.dialect === 'sqlite') return groupCommitOf(database.db).run(work)
  for (let attempt = 1; ; attempt++) {
    try {
      return await database.db.transaction().execute(work)
    } catch (error) {
      if (!isRetryable(error) || attempt >= MAX_ATTEMPTS) throw error
      await new Promise((resolve) => setTimeout(resolve, attempt * 5 + Math.random() * 10))
    }
  }
}

export interface GroupCommitOptions {
  /** Most works in one transaction. */
  maxWorks?: number
  /** No further work joins a batch that has run this long (ms): bounds the wait of its first. */
  maxMs?: number
}

interface Pending {
  work: (tx: Tx) => Promise<unknown>
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

const raw = (text: string) => CompiledQuery.raw(text)
const BEGIN = raw('begin immediate')
const COMMIT = raw('commit')
const ROLLBACK = raw('rollback')
const SAVEPOINT = raw('savepoint work')
const RELEASE = raw('release work')
const ROLLBACK_TO = raw('rollback to work')

/**
 * Group commit for SQLite (docs/decisions/031-sqlite-group-commit.md). Every commit in WAL with
 * synchronous=FULL is an fsync that blocks the one thread; works that queue while one runs are
 * applied one after another inside ONE `BEGIN IMMEDIATE … COMMIT`, each in its own savepoint:
 *
 * - a work that throws is rolled back to its savepoint alone and its caller rejected;
 * - the others resolve only after the shared COMMIT returned (an acknowledged bid is on disk), in
 *   the order they ran, so what callers do after commit (pushes) keeps commit order;
 * - a failed COMMIT, or SQLite rolling the whole transaction back on its own (SQLITE_FULL, IOERR…),
 *   rejects every work of the batch that had not failed already: none of them was kept.
 *
 * A batch starts on the next turn of the event loop (`setImmediate`: no timer, no wait when idle),
 * after the requests already read from the sockets have queued their works; it holds the
 * connection only while its works run, so reads outside a transaction wait for at most one batch.
 * Works run exactly as in a transaction of their own: one at a time, each seeing what the works
 * before it wrote, so the idempotency claim (which relies on the write lock) behaves the same.
 */
export class SqliteGroupCommit {
  private readonly queue: Pending[] = []
  private scheduled = false
  /** Batches committed and works they held: what the tests and the benchmark read. */
  readonly stats = { commits: 0, works: 0 }
  private readonly maxWorks: number
  private readonly maxMs: number

  constructor(
    private readonly db: Kysely<DB>,
    options: GroupCommitOptions = {},
  ) {
    this.maxWorks = options.maxWorks ?? 32
    this.maxMs = options.maxMs ?? 5
  }

  run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject })
      this.schedule()
    })
  }

  private schedule(): void {
    if (this.scheduled || this.queue.length === 0) return
    this.scheduled = true
    setImmediate(() => {
      void this.db
        .connection()
        .execute((conn) => this.batch(conn))
        .catch((error: unknown) => this.failQueued(error))
        .finally(() => {
          this.scheduled = false
          this.schedule()
        })
    })
  }

  /** The connection itself failed (closed database): nobody queued can run. */
  private failQueued(error: unknown): void {
    for (const pending of this.queue.splice(0)) pending.reject(error)
  }

  private async batch(conn: Kysely<DB>): Promise<void> {
    const exec = (query: CompiledQuery) => conn.executeQuery(query)
    try {
      await exec(BEGIN)
    } catch (error) {
      // Locked by another process beyond busy_timeout: the first caller gets the error, as its own
      // BEGIN would have given it; the rest try again in the next batch.
      this.queue.shift()?.reject(error)
      return
    }
    const started = performance.now()
    const done: Array<{ pending: Pending; value: unknown }> = []
    let ran = 0
    let current: Pending | undefined
    try {
      while (
        this.queue.length > 0 &&
        ran < this.maxWorks &&
        (ran === 0 || performance.now() - started < this.maxMs)
      ) {
        current = this.queue.shift()!
        ran++
        await exec(SAVEPOINT)
        let value: unknown
        try {
          value = await current.work(conn)
        } catch (error) {
          const failed = current
          current = undefined
          try {
            await exec(ROLLBACK_TO)
            await exec(RELEASE)
          } catch {
            // SQLite rolled the whole transaction back itself (SQLITE_FULL, IOERR, NOMEM…): the
            // savepoint is gone, and the works before this one went with it.
            failed.reject(error)
            throw error
          }
          failed.reject(error)
          continue
        }
        await exec(RELEASE)
        done.push({ pending: current, value })
        current = undefined
      }
      await exec(COMMIT)
      this.stats.commits++
      this.stats.works += done.length
    } catch (error) {
      // Nothing of this batch was kept: every caller not yet answered gets the error.
      current?.reject(error)
      for (const { pending } of done) pending.reject(error)
      await exec(ROLLBACK).catch(() => undefined)
      return
    }
    for (const { pending, value } of done) pending.resolve(value)
  }
}

const groupCommits = new WeakMap<Kysely<DB>, SqliteGroupCommit>()

/** The one group commit of a SQLite database (one connection, one queue). */
export function groupCommitOf(db: Kysely<DB>): SqliteGroupCommit {
  let group = groupCommits.get(db)
  if (!group) {
    group = new SqliteGroupCommit(db)
    groupCommits.set(db, group)
  }
  return group
}

/** `writeTransaction` bound to a database: what services take, so specs can pass a fake. */
export type Transact = <T>(work: (tx: Tx) => Promise<T>) => Promise<T>

export const transactor =
  (database: Database): Transact =>
  (work) =>
    writeTransaction(database, work)
