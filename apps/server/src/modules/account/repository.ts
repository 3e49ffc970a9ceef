import type { Kysely } from 'kysely'
import type { Dialect } from '../../platform/db'
import type { DB } from '../../platform/schema'
import type { Tx } from '../../platform/transactions'

/** A user's payment password as checking it needs: the hash never leaves the module. */
export interface StoredPayPassword {
  hash: string
  failedTries: number
  /** Epoch ms; payment is locked while it lies in the future (DESIGN §3). */
  lockedUntil: number | null
}

/**
 * The SQL of the payment password (table pay_passwords, migration 0009). Methods that take `tx` run
 * in the caller's write transaction; on PostgreSQL the row lock `lock` takes is what serialises
 * concurrent tries of one user (SQLite's BEGIN IMMEDIATE serialises every writer already).
 */
export class AccountRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  /** A plain read, before the slow hash check; decisions are taken again under `lock`. */
  async find(userId: number): Promise<StoredPayPassword | undefined> {
    const row = await this.db
      .selectFrom('pay_passwords')
      .select(['hash', 'failed_tries', 'locked_until'])
      .where('user_id', '=', userId)
      .executeTakeFirst()
    return row && toStored(row)
  }

  /** Reads the row for update in the caller's transaction. */
  async lock(tx: Tx, userId: number): Promise<StoredPayPassword | undefined> {
    let query = tx
      .selectFrom('pay_passwords')
      .select(['hash', 'failed_tries', 'locked_until'])
      .where('user_id', '=', userId)
    if (this.dialect === 'postgres') query = query.forUpdate()
    const row = await query.executeTakeFirst()
    return row && toStored(row)
  }

  /** Records the count of wrong tries and the lock they led to (or clears both). */
  async saveTries(
    tx: Tx,
    userId: number,
    tries: { failedTries: number; lockedUntil: number | null },
    now: number,
  ): Promise<void> {
    await tx
      .updateTable('pay_passwords')
      .set({ failed_tries: tries.failedTries, locked_until: tries.lockedUntil, updated_at: now })
      .where('user_id', '=', userId)
      .execute()
  }

  /** A first password; false when the user already has one (a concurrent first set won). */
  async insertIfMissing(userId: number, hash: string, now: number): Promise<boolean> {
    const inserted = await this.db
      .insertInto('pay_passwords')
      .values({ user_id: userId, hash, failed_tries: 0, locked_until: null, updated_at: now })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .returning('user_id')
      .executeTakeFirst()
    return inserted !== undefined
  }

  /**
   * Replaces the hash and starts the count of wrong tries afresh; a running lock stays (it ends in
   * its own time). With `expectedHash`, only while that is still the stored hash: false otherwise.
   */
  async replaceHash(
    userId: number,
    hash: string,
    now: number,
    expectedHash?: string,
  ): Promise<boolean> {
    let query = this.db
      .updateTable('pay_passwords')
      .set({ hash, failed_tries: 0, updated_at: now })
      .where('user_id', '=', userId)
    if (expectedHash !== undefined) query = query.where('hash', '=', expectedHash)
    const result = await query.executeTakeFirst()
    return result.numUpdatedRows === 1n
  }

  /** The user's own mobile number, where an SMS code proving them must have been sent. */
  async mobileOf(userId: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('users')
      .select('mobile')
      .where('id', '=', userId)
      .executeTakeFirst()
    return row?.mobile
  }
}

function toStored(row: {
  hash: string
  failed_tries: number
  locked_until: number | null
}): StoredPayPassword {
  return { hash: row.hash, failedTries: row.failed_tries, lockedUntil: row.locked_until }
}
