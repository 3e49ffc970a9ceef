import fs from 'node:fs'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely'
import pg from 'pg'
import { migrateToLatest } from './migrations/index'
import type { DB } from './schema'

export type Dialect = 'sqlite' | 'postgres'

export interface Database {
  db: Kysely<DB>
  dialect: Dialect
  /** SQLite's file (not for `:memory:`): stores of its own sit beside it, like the nonces'. */
  sqliteFile?: string
  close(): Promise<void>
}

export interface DatabaseOptions {
  /** postgres://… for PostgreSQL; otherwise SQLite at `sqliteFile`. */
  url?: string | undefined
  sqliteFile?: string
  poolSize?: number
}

// int8 (fen amounts, epoch ms) as numbers: all our values stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v))

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const database = options.url?.startsWith('postgres')
    ? openPostgres(options.url, options.poolSize ?? 10)
    : openSqlite(options.sqliteFile ?? ':memory:')
  await migrateToLatest(database.db as Kysely<unknown>, database.dialect)
  return database
}

function openPostgres(url: string, max: number): Database {
  const pool = new pg.Pool({ connectionString: url, max })
  // A connection the server drops (restart, failover, admin) must not crash the process: the pool
  // replaces it and the next query retries on a fresh one.
  const ignore = (error: Error) => {
    if (process.env.NODE_ENV !== 'test') console.warn('postgres connection lost:', error.message)
  }
  pool.on('error', ignore)
  pool.on('connect', (client) => client.on('error', ignore))
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) })
  return { db, dialect: 'postgres', close: () => db.destroy() }
}

/** WAL with synchronous=FULL: an acknowledged bid or payment survives a power cut. */
function openSqlite(file: string): Database {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true })
  const sqlite = new SQLite(file)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('synchronous = FULL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: cachedStatements(sqlite) }) })
  return {
    db,
    dialect: 'sqlite',
    ...(file === ':memory:' ? {} : { sqliteFile: file }),
    close: () => db.destroy(),
  }
}

/**
 * Kysely prepares every statement afresh; preparing was the largest single cost of a bid in the
 * benchmark. The SQL texts are few (the query builder emits the same text for the same shape), so
 * a bounded cache of prepared statements removes that cost.
 */
function cachedStatements(sqlite: SQLite.Database, max = 1000) {
  const cache = new Map<string, SQLite.Statement>()
  return {
    prepare(sql: string): SQLite.Statement {
      let statement = cache.get(sql)
      if (!statement) {
        statement = sqlite.prepare(sql)
        if (cache.size >= max) cache.delete(cache.keys().next().value!)
        cache.set(sql, statement)
      }
      return statement
    },
    close(): void {
      cache.clear()
      sqlite.close()
    },
  }
}
