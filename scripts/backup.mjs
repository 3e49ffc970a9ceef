#!/usr/bin/env node
// An online backup of the SQLite database (docs/operations.md, Backups): a consistent copy of
// DATA_DIR/numisma.db taken while the server keeps running and writing.
//
//   node scripts/backup.mjs <destination dir> [--data-dir DIR] [--keep N]
//
// Writes <destination>/numisma-<UTC time>.db, checks the copy (integrity_check, the migrations it
// holds) and prints one JSON line describing it. --keep N then deletes all but the newest N
// backups there. Exit 0 only for a verified copy. PostgreSQL (DATABASE_URL=postgres://…) is
// refused: pg_dump is its backup.
//
// Why not `cp`: a copy of a WAL database taken mid-write can be torn (the main file and the -wal
// file copied at different moments). SQLite's online backup API (better-sqlite3's `db.backup()`)
// reads one snapshot. It copies every page in ONE step: the server writes through another
// connection, and SQLite restarts a stepwise backup whenever another connection writes between
// two steps, so under steady bidding a stepwise copy might never finish. In WAL mode the single
// step holds only a read snapshot: the server's writes go on meanwhile.
//
// DATA_DIR/nonces.db is not backed up: it holds only signed-request nonces, each kept 11 minutes to
// refuse a replay (ADR 029); nothing in it is needed after a restore (see Restore in the docs).
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import SQLite from 'better-sqlite3'

const DATABASE_FILE = 'numisma.db'
const BACKUP_NAME = /^numisma-\d{8}T\d{6}(\d{3})?Z\.db$/

/** All remaining pages in the next step (SQLite caps a step at 2^31 - 1 pages). */
const ALL_PAGES = 0x7fffffff

export async function backup({ dataDir, destination, keep, now = new Date() }) {
  const source = path.join(dataDir, DATABASE_FILE)
  if (!fs.existsSync(source)) throw new Error(`no database at ${source} (DATA_DIR=${dataDir})`)
  // Opening a WAL database creates its -wal and -shm files when the server is stopped: made by
  // another user (root), the server could not open them at its next start.
  const owner = fs.statSync(source).uid
  if (process.getuid !== undefined && process.getuid() !== owner) {
    throw new Error(`run as the owner of ${source} (uid ${owner}), e.g. sudo -u numisma`)
  }
  fs.mkdirSync(destination, { recursive: true })
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('.', '')
  const file = path.join(destination, `numisma-${stamp}.db`)
  // Written under a temporary name and renamed once verified: a half-written copy (a full disk, a
  // killed run) never looks like a backup.
  const partial = `${file}.partial`
  fs.rmSync(partial, { force: true })

  const started = Date.now()
  // Read-only, and with the server's busy timeout: a checkpoint holding the file for a moment
  // makes the copy wait rather than fail.
  const db = new SQLite(source, { readonly: true, fileMustExist: true, timeout: 5000 })
  let pages
  try {
    ;({ totalPages: pages } = await db.backup(partial, { progress: () => ALL_PAGES }))
  } finally {
    db.close()
  }
  const migrations = verify(partial)
  fsyncFile(partial)
  fs.renameSync(partial, file)
  fsyncFile(destination)

  const removed = keep === undefined ? [] : prune(destination, keep)
  return {
    file,
    bytes: fs.statSync(file).size,
    pages,
    lastMigration: migrations.at(-1),
    ms: Date.now() - started,
    removed,
  }
}

/**
 * Makes the copy one self-contained file and checks it as a restore would open it: every page
 * sound, the schema migrated. The copy inherits WAL mode from the live database, and each opening
 * would leave -wal and -shm files beside it; in rollback mode it leaves none (the server turns WAL
 * back on when it opens a restored copy).
 */
function verify(file) {
  const copy = new SQLite(file, { fileMustExist: true })
  try {
    copy.pragma('journal_mode = DELETE')
    const integrity = copy.pragma('integrity_check', { simple: true })
    if (integrity !== 'ok') throw new Error(`backup ${file} fails integrity_check: ${integrity}`)
    return copy.prepare('select name from kysely_migration order by name').pluck().all().map(String)
  } finally {
    copy.close()
  }
}

function fsyncFile(file) {
  const fd = fs.openSync(file, 'r')
  try {
    fs.fsyncSync(fd)
  } finally {
    fs.closeSync(fd)
  }
}

/** Deletes all but the newest `keep` backups in `destination` (names sort by time). */
function prune(destination, keep) {
  const backups = fs
    .readdirSync(destination)
    .filter((name) => BACKUP_NAME.test(name))
    .sort()
  const old = backups.slice(0, Math.max(0, backups.length - keep))
  for (const name of old) fs.rmSync(path.join(destination, name))
  return old
}

async function main() {
  const { values, positionals } = parseArgs({
    options: { 'data-dir': { type: 'string' }, keep: { type: 'string' } },
    allowPositionals: true,
  })
  if (positionals.length !== 1) {
    throw new Error('usage: node scripts/backup.mjs <destination dir> [--data-dir DIR] [--keep N]')
  }
  if (process.env.DATABASE_URL?.startsWith('postgres')) {
    throw new Error('DATABASE_URL is PostgreSQL: back it up with pg_dump (docs/operations.md)')
  }
  const keep = values.keep === undefined ? undefined : Number(values.keep)
  if (keep !== undefined && !(Number.isInteger(keep) && keep >= 1)) {
    throw new Error('--keep takes a whole number of backups, 1 or more')
  }
  const result = await backup({
    dataDir: path.resolve(values['data-dir'] ?? process.env.DATA_DIR ?? './data'),
    destination: path.resolve(positionals[0]),
    keep,
  })
  console.log(JSON.stringify(result))
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`backup failed: ${error instanceof Error ? error.message : String(error)}`)
    process.exit(1)
  })
}
