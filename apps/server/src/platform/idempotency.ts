import { createHash } from 'node:crypto'
import type { Clock } from './clock'
import { AppError } from './errors'
import { IntervalJob } from './interval-job'
import type { Tx } from './transactions'

/** How long a first result is kept and replayed for a retry (DESIGN §2). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000

export const requestHash = (body: unknown): string =>
  createHash('sha256').update(JSON.stringify(body)).digest('hex')

export type Claim<T> = { kind: 'new' } | { kind: 'replay'; result: T }

/**
 * The `Idempotency-Key` store for money- and bid-changing calls. `claim` inserts the key first, in
 * the caller's transaction: a concurrent request with the same key waits on that row (PostgreSQL)
 * or on the write lock (SQLite), then finds the finished result and replays it. A transaction that
 * fails takes its claim with it.
 */
export class IdempotencyStore {
  /** `db` serves reads outside a transaction (`committed`) and the purge. */
  constructor(private readonly db?: Tx) {}

  async claim<T>(tx: Tx, owner: number, key: string, hash: string, now: number): Promise<Claim<T>> {
    await tx
      .deleteFrom('idempotency_keys')
      .where('created_at', '<', now - IDEMPOTENCY_TTL_MS)
      .where('user_id', '=', owner)
      .where('key', '=', key)
      .execute()
    const inserted = await tx
      .insertInto('idempotency_keys')
      .values({ user_id: owner, key, request_hash: hash, status: 0, body: '', created_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst()
    if (inserted) return { kind: 'new' }
    const seen = await this.find(tx, owner, key)
    if (!seen || seen.request_hash !== hash) throw new AppError('IDEMPOTENCY_KEY_REUSED')
    return { kind: 'replay', result: JSON.parse(seen.body) as T }
  }

  async complete(tx: Tx, owner: number, key: string, result: unknown): Promise<void> {
    await tx
      .updateTable('idempotency_keys')
      .set({ status: 200, body: JSON.stringify(result) })
      .where('user_id', '=', owner)
      .where('key', '=', key)
      .execute()
  }

  /** A key whose first request has committed, read outside any transaction. */
  async committed(owner: number, key: string): Promise<boolean> {
    if (!this.db) throw new Error('IdempotencyStore: no database for reads outside a transaction')
    return (await this.find(this.db, owner, key)) !== undefined
  }

  /**
   * Deletes keys older than the replay window (DESIGN §2: 24 h), at most `batch` at a time so a
   * backlog never holds the write lock long; returns how many went.
   */
  async purgeExpired(now: number, batch = 1000): Promise<number> {
    if (!this.db) throw new Error('IdempotencyStore: no database to purge')
    const db = this.db
    const expired = db
      .selectFrom('idempotency_keys')
      .select(['user_id', 'key'])
      .where('created_at', '<', now - IDEMPOTENCY_TTL_MS)
      .limit(batch)
    const result = await db
      .deleteFrom('idempotency_keys')
      .where((eb) => eb(eb.refTuple('user_id', 'key'), 'in', expired.$asTuple('user_id', 'key')))
      .executeTakeFirst()
    return Number(result.numDeletedRows)
  }

  find(tx: Tx, owner: number, key: string) {
    return tx
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('user_id', '=', owner)
      .where('key', '=', key)
      .executeTakeFirst()
  }
}

/** Purges expired idempotency keys every few minutes (DESIGN §2: results are kept 24 h). */
export class IdempotencyPurger {
  private readonly job: IntervalJob

  constructor(store: IdempotencyStore, clock: Clock, onError: (error: unknown) => void) {
    this.job = new IntervalJob(async () => {
      // Batches until the backlog is gone; each batch is its own short statement.
      while ((await store.purgeExpired(clock.now())) > 0);
    }, onError)
  }

  start(intervalMs = 5 * 60_000): void {
    this.job.start(intervalMs)
  }

  stop(): Promise<void> {
    return this.job.stop()
  }
}
