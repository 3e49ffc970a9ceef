import { createHash } from 'node:crypto'
import { AppError } from './errors'
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

  find(tx: Tx, owner: number, key: string) {
    return tx
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('user_id', '=', owner)
      .where('key', '=', key)
      .executeTakeFirst()
  }
}
