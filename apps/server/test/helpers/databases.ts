import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { randomToken } from '../../src/platform/crypto'
import { type Database, openDatabase } from '../../src/platform/db'

/**
 * The databases every integration suite runs on: SQLite always; PostgreSQL when it answers, and
 * always (failing loudly if absent) when REQUIRE_PG=1. Each call gives a fresh, empty database.
 */
export interface TestDatabase {
  name: 'sqlite' | 'postgres'
  open(): Promise<Database>
}

export const PG_ADMIN_URL = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

async function postgresAnswers(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 2000 })
  try {
    await client.connect()
    await client.query('select 1')
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => undefined)
  }
}

const sqlite: TestDatabase = {
  name: 'sqlite',
  async open() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'numisma-test-'))
    const database = await openDatabase({ sqliteFile: path.join(dir, 'numisma.db') })
    return {
      ...database,
      close: async () => {
        await database.close()
        fs.rmSync(dir, { recursive: true, force: true })
      },
    }
  },
}

export interface PostgresDatabase {
  name: string
  url: string
  drop(): Promise<void>
}

/**
 * A fresh, empty PostgreSQL database named `<prefix>_<random>`, that outlives any connection to it
 * (the server processes migrate it, or whoever opens it first).
 */
export async function createPostgresDatabase(prefix: string): Promise<PostgresDatabase> {
  const name = `${prefix}_${randomToken(8)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')}`
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(PG_ADMIN_URL)
  url.pathname = `/${name}`
  return {
    name,
    url: url.toString(),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: PG_ADMIN_URL })
      await cleanup.connect()
      await cleanup.query(`drop database if exists ${name} with (force)`)
      await cleanup.end()
    },
  }
}

const postgres: TestDatabase = {
  name: 'postgres',
  async open() {
    const created = await createPostgresDatabase('numisma_t')
    const database = await openDatabase({ url: created.url, poolSize: 12 })
    return {
      ...database,
      close: async () => {
        await database.close()
        await created.drop()
      },
    }
  },
}

export async function testDatabases(): Promise<TestDatabase[]> {
  if (await postgresAnswers()) return [sqlite, postgres]
  if (process.env.REQUIRE_PG === '1') {
    throw new Error(`REQUIRE_PG=1 but PostgreSQL does not answer at ${PG_ADMIN_URL}`)
  }
  console.warn(`\n*** PostgreSQL not reachable at ${PG_ADMIN_URL}: PostgreSQL suites SKIPPED ***\n`)
  return [sqlite]
}

/**
 * One database that outlives its connections, for restart tests: each `open()` connects afresh to
 * the same SQLite file or PostgreSQL database (closing only that connection); `dispose()` removes
 * it. Its `name` and `open` make it a TestDatabase for createTestApp.
 */
export interface PersistentDatabase extends TestDatabase {
  dispose(): Promise<void>
}

export async function persistentDatabase(kind: TestDatabase): Promise<PersistentDatabase> {
  if (kind.name === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'numisma-test-'))
    return {
      name: 'sqlite',
      open: () => openDatabase({ sqliteFile: path.join(dir, 'numisma.db') }),
      dispose: () => Promise.resolve(fs.rmSync(dir, { recursive: true, force: true })),
    }
  }
  const created = await createPostgresDatabase('numisma_t')
  return {
    name: 'postgres',
    open: () => openDatabase({ url: created.url, poolSize: 4 }),
    dispose: () => created.drop(),
  }
}
