#!/usr/bin/env node
// Brings the database to the schema of this checkout, then exits (docs/operations.md, Upgrades):
// the deploy step between "new code on disk" and "instances restarted". Every instance migrates
// on start anyway; running it first means a failing migration stops the deploy while the old
// instances still serve, and it says what the release changes.
//
//   node scripts/migrate.mjs            # the database of DATABASE_URL, else DATA_DIR/numisma.db
//
// Prints one JSON line: the dialect, the migrations applied now (none when already current; with
// two runs at once, those either applied) and the latest. Exit 1, naming the migration, if one
// fails; on PostgreSQL all pending migrations run in one transaction, so a failure leaves the
// schema as it was.
//
// On PostgreSQL it is safe beside starting instances and another migrate: Kysely's Migrator holds
// a session advisory lock (pg_advisory_lock) while it reads what is applied and applies the rest,
// so a second one waits, then finds nothing to do. On SQLite Kysely takes no lock between
// processes and runs migrations outside a transaction: run it while the (single) instance is
// stopped, after a backup.
import fs from 'node:fs'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import pg from 'pg'
import { register } from 'tsx/esm/api'

// The migrations are the server's TypeScript sources, one set for both dialects.
register()
const { openDatabase } = await import('../apps/server/src/platform/db.ts')

const url = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined
const sqliteFile = path.join(path.resolve(process.env.DATA_DIR ?? './data'), 'numisma.db')
const APPLIED = 'select name from kysely_migration order by name'

/** The migrations applied so far, read through a connection of its own (opening migrates). */
async function appliedNow() {
  if (url) {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      return (await client.query(APPLIED)).rows.map((row) => String(row.name))
    } catch {
      return [] // no migration table yet: a new database
    } finally {
      await client.end()
    }
  }
  if (!fs.existsSync(sqliteFile)) return []
  const db = new SQLite(sqliteFile, { fileMustExist: true, timeout: 5000 })
  try {
    return db.prepare(APPLIED).pluck().all().map(String)
  } catch {
    return []
  } finally {
    db.close()
  }
}

async function main() {
  const before = await appliedNow()
  const database = await openDatabase(url ? { url, poolSize: 1 } : { sqliteFile })
  await database.close()
  const after = await appliedNow()
  console.log(
    JSON.stringify({
      dialect: database.dialect,
      applied: after.filter((name) => !before.includes(name)),
      latest: after.at(-1) ?? null,
    }),
  )
}

main().catch((error) => {
  const cause = error?.cause instanceof Error ? `: ${error.cause.message}` : ''
  console.error(`migrate failed: ${error instanceof Error ? error.message : String(error)}${cause}`)
  process.exit(1)
})
