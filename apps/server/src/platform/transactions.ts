import { type Kysely, sql, type Transaction } from 'kysely'
import type { Database } from './db'
import type { DB } from './schema'

export type Tx = Kysely<DB> | Transaction<DB>

const RETRYABLE = new Set(['40001', '40P01'])
const MAX_ATTEMPTS = 5

const isRetryable = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  'code' in error &&
  RETRYABLE.has(String(error.code))

/**
 * Runs `work` in a write transaction that serialises with every other writer of the rows it locks:
 * SQLite takes the write lock up front (`BEGIN IMMEDIATE`, so two bids never both read then both
 * write); PostgreSQL relies on the row locks the work takes (`SELECT … FOR UPDATE`) and the whole
 * transaction is retried on a serialisation failure or deadlock (40001 / 40P01).
 *
 * Inside `work`, query only through `tx`: SQLite has one connection, and a query on the outer
 * `db` would wait for it forever (bidding.test.ts guards the case that once did).
 */
export async function writeTransaction<T>(
  database: Database,
  work: (tx: Tx) => Promise<T>,
): Promise<T> {
  if (database.dialect === 'sqlite') {
    return database.db.connection().execute(async (conn) => {
      await sql`begin immediate`.execute(conn)
      try {
        const result = await work(conn)
        await sql`commit`.execute(conn)
        return result
      } catch (error) {
        await sql`rollback`.execute(conn)
        throw error
      }
    })
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await database.db.transaction().execute(work)
    } catch (error) {
      if (!isRetryable(error) || attempt >= MAX_ATTEMPTS) throw error
      await new Promise((resolve) => setTimeout(resolve, attempt * 5 + Math.random() * 10))
    }
  }
}

/** `writeTransaction` bound to a database: what services take, so specs can pass a fake. */
export type Transact = <T>(work: (tx: Tx) => Promise<T>) => Promise<T>

export const transactor =
  (database: Database): Transact =>
  (work) =>
    writeTransaction(database, work)
