import { type ChildProcess, execFile, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import SQLite from 'better-sqlite3'
import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../src/platform/db'
import { PG_ADMIN_URL, testDatabases } from './helpers/databases'

/**
 * What docs/operations.md promises an operator (issue 14 item 7): it lists every variable the
 * server reads; scripts/backup.mjs copies a live SQLite database that is being written to; and
 * scripts/migrate.mjs migrates and exits, also when two run at once on one PostgreSQL database.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..')
const run = promisify(execFile)
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'numisma-operations-'))
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))

/** A script run expected to fail: its exit code and stderr (a success fails the test). */
async function failure(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; stderr: string }> {
  try {
    await run(process.execPath, args, { cwd: ROOT, env: { PATH: process.env.PATH, ...env } })
  } catch (error) {
    return error as { code: number; stderr: string }
  }
  throw new Error(`${args.join(' ')} succeeded`)
}

/** The variables of EnvSchema in platform/config.ts: its `NAME: z…` keys. */
function configVariables(): string[] {
  const source = fs.readFileSync(path.join(ROOT, 'apps/server/src/platform/config.ts'), 'utf8')
  const start = source.indexOf('const EnvSchema = z.object({')
  const end = source.indexOf('\n})\n', start)
  expect(start).toBeGreaterThan(-1)
  return [...source.slice(start, end).matchAll(/^ {2}([A-Z][A-Z0-9_]*): z\b/gm)].map((m) => m[1]!)
}

/** The first column of the docs' environment table: rows `| \`NAME\` | …`. */
function documentedVariables(): string[] {
  const docs = fs.readFileSync(path.join(ROOT, 'docs/operations.md'), 'utf8')
  const section = docs.slice(docs.indexOf('## Environment variables'))
  const table = section.slice(0, section.indexOf('\n## ', 4))
  return [...table.matchAll(/^\| `([A-Z][A-Z0-9_]*)`/gm)].map((m) => m[1]!)
}

describe('docs/operations.md', () => {
  it('lists every environment variable config.ts reads, and no other', () => {
    const read = configVariables()
    // The parser itself: a schema this test can no longer read must fail it, not pass it empty.
    expect(read).toContain('DATABASE_URL')
    expect(read.length).toBeGreaterThan(30)
    const documented = documentedVariables()
    expect(documented.filter((name) => !read.includes(name))).toEqual([])
    expect(read.filter((name) => !documented.includes(name))).toEqual([])
    expect(new Set(documented).size).toBe(documented.length)
  })

  it('names files that exist', () => {
    const docs = fs.readFileSync(path.join(ROOT, 'docs/operations.md'), 'utf8')
    const named = [...docs.matchAll(/`((?:deploy|scripts|docs)\/[\w./@-]+)`/g)].map((m) => m[1]!)
    expect(named.length).toBeGreaterThan(5)
    expect(named.filter((file) => !fs.existsSync(path.join(ROOT, file)))).toEqual([])
  })

  it('cites ADRs that exist (docs/decisions/NNN-*.md), also from the deploy files', () => {
    const decisions = fs.readdirSync(path.join(ROOT, 'docs/decisions'))
    const sources = ['docs/operations.md', 'deploy/nginx/numisma.conf', 'deploy/compose.yaml']
    const cited = sources.flatMap((file) =>
      [...fs.readFileSync(path.join(ROOT, file), 'utf8').matchAll(/ADR (\d{3})\b/g)].map(
        (m) => m[1]!,
      ),
    )
    expect(cited).toContain('032')
    expect(cited.filter((n) => !decisions.some((file) => file.startsWith(`${n}-`)))).toEqual([])
  })
})

describe('deploy/ (containers)', () => {
  it('keeps secrets and local state out of the image for BuildKit and the legacy builder', () => {
    // compose builds with the repository root as context; the legacy builder reads only the
    // root .dockerignore, BuildKit a Dockerfile.dockerignore first, so there must be no second one.
    expect(fs.readFileSync(path.join(ROOT, 'deploy/compose.yaml'), 'utf8')).toMatch(
      /context: \.\.\n\s+dockerfile: deploy\/Dockerfile\n/,
    )
    expect(fs.existsSync(path.join(ROOT, 'deploy/Dockerfile.dockerignore'))).toBe(false)
    const ignored = fs.readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n')
    for (const entry of ['**/node_modules', 'deploy/*.env', 'deploy/.env', 'deploy/tls', '.git'])
      expect(ignored).toContain(entry)
  })

  it("points nginx's upstreams at the instances' fixed addresses, not at names resolved once", () => {
    const compose = fs.readFileSync(path.join(ROOT, 'deploy/compose.yaml'), 'utf8')
    for (const [app, port] of [
      ['app1', '8081'],
      ['app2', '8082'],
    ] as const) {
      const service = compose.slice(compose.indexOf(`\n  ${app}:\n`)).split('\n\n')[0]!
      const address = /ipv4_address: (172\.28\.0\.\d+)/.exec(service)?.[1]
      expect(address, app).toBeDefined()
      expect(compose).toContain(`s/127.0.0.1:${port}/${address}:8080/`)
    }
  })
})

// --- scripts/backup.mjs --------------------------------------------------------------------------

/**
 * Another process writing to numisma.db as the server does (WAL, synchronous=FULL): transactions of
 * 10 rows of 2 KB each, until killed. A copy torn between two transactions would hold a row count
 * that is not a multiple of 10, or a gap in the ids.
 */
const WRITER = `
const SQLite = require('better-sqlite3')
const db = new SQLite(process.argv[1], { timeout: 5000 })
db.pragma('journal_mode = WAL')
db.pragma('synchronous = FULL')
db.exec('create table if not exists backup_probe (id integer primary key, payload text not null)')
const insert = db.prepare('insert into backup_probe (payload) values (?)')
const batch = db.transaction(() => { for (let i = 0; i < 10; i++) insert.run('x'.repeat(2048)) })
let n = 0
const tick = () => { batch(); n++; if (n === 50) process.stdout.write('ready\\n'); setImmediate(tick) }
tick()
// Never outlives a test that failed before killing it.
setTimeout(() => process.exit(0), 60000)
`

async function startWriter(file: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', WRITER, file], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve()
    })
    child.once('exit', (code) => reject(new Error(`writer exited with ${code}`)))
  })
  return child
}

function probeRows(file: string): { count: number; maxId: number } {
  const db = new SQLite(file, { readonly: true })
  try {
    return db.prepare('select count(*) as count, max(id) as maxId from backup_probe').get() as {
      count: number
      maxId: number
    }
  } finally {
    db.close()
  }
}

const backupScript = path.join(ROOT, 'scripts/backup.mjs')

describe('scripts/backup.mjs', () => {
  it(
    'copies a database another process keeps writing to, and the copy opens',
    {
      timeout: 60_000,
    },
    async () => {
      const dataDir = path.join(tmp, 'live')
      const file = path.join(dataDir, 'numisma.db')
      // The server's own schema, as a live DATA_DIR has it.
      const live = await openDatabase({ sqliteFile: file })
      await live.db.insertInto('settings').values({ key: 'backup-test', value: 'kept' }).execute()
      await live.close()
      const writer = await startWriter(file)
      try {
        const destination = path.join(tmp, 'backups')
        const results = []
        for (let i = 0; i < 3; i++) {
          const { stdout } = await run(
            process.execPath,
            [backupScript, destination, '--data-dir', dataDir, '--keep', '2'],
            { cwd: ROOT, timeout: 30_000 },
          )
          results.push(JSON.parse(stdout) as { file: string; lastMigration: string; pages: number })
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
        // The writer went on meanwhile: the live file is ahead of the last copy.
        expect(writer.exitCode).toBeNull()
        const last = results.at(-1)!
        // Each copy is later than the one before.
        expect(probeRows(last.file).count).toBeGreaterThan(probeRows(results[1]!.file).count)
        const rows = probeRows(last.file)
        // One snapshot: whole transactions only, no gap.
        expect(rows.count % 10).toBe(0)
        expect(rows.maxId).toBe(rows.count)
        expect(rows.count).toBeGreaterThanOrEqual(500)
        expect(last.lastMigration).toMatch(/^\d{4}-/)
        // --keep 2: the oldest copy is gone, the two newest stay.
        expect(fs.existsSync(results[0]!.file)).toBe(false)
        expect(fs.readdirSync(destination).sort()).toEqual(
          results.slice(1).map((r) => path.basename(r.file)),
        )

        // The copy is a database the server opens: restored as a DATA_DIR, it migrates (nothing
        // left to do) and answers.
        const restored = path.join(tmp, 'restored')
        fs.mkdirSync(restored)
        fs.copyFileSync(last.file, path.join(restored, 'numisma.db'))
        const database = await openDatabase({ sqliteFile: path.join(restored, 'numisma.db') })
        try {
          const setting = await database.db
            .selectFrom('settings')
            .select('value')
            .where('key', '=', 'backup-test')
            .executeTakeFirst()
          expect(setting?.value).toBe('kept')
          const { rows: probe } = await sql<{
            n: number
          }>`select count(*) as n from backup_probe`.execute(database.db)
          expect(probe[0]!.n).toBe(rows.count)
        } finally {
          await database.close()
        }
      } finally {
        writer.kill('SIGKILL')
      }
      expect(probeRows(file).count).toBeGreaterThan(0)
    },
  )

  it('refuses PostgreSQL, a missing database and a bad --keep, leaving no file', async () => {
    const destination = path.join(tmp, 'refused')
    const fails = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
      const error = await failure([backupScript, destination, ...args], env)
      expect(error.code).toBe(1)
      return error.stderr
    }
    expect(await fails([], { DATABASE_URL: 'postgres://x@127.0.0.1/y' })).toMatch(/pg_dump/)
    expect(await fails(['--data-dir', path.join(tmp, 'nowhere')])).toMatch(/no database/)
    expect(await fails(['--data-dir', tmp, '--keep', '0'])).toMatch(/--keep/)
    // Only its owner backs a database up (root would leave -wal/-shm the server cannot open).
    if (process.getuid?.() === 0) {
      const foreign = path.join(tmp, 'foreign')
      fs.mkdirSync(foreign)
      new SQLite(path.join(foreign, 'numisma.db')).exec('create table t (x)').close()
      fs.chownSync(path.join(foreign, 'numisma.db'), 4242, 4242)
      expect(await fails(['--data-dir', foreign])).toMatch(/owner .* \(uid 4242\)/)
    }
    expect(fs.existsSync(destination) ? fs.readdirSync(destination) : []).toEqual([])
  })
})

// --- scripts/migrate.mjs -------------------------------------------------------------------------

const migrateScript = path.join(ROOT, 'scripts/migrate.mjs')
const databases = (await testDatabases()).map((d) => d.name)

interface MigrateOutput {
  dialect: string
  applied: string[]
  latest: string
}

async function migrate(env: NodeJS.ProcessEnv): Promise<MigrateOutput> {
  const { stdout } = await run(process.execPath, [migrateScript], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...env },
    timeout: 60_000,
  })
  return JSON.parse(stdout) as MigrateOutput
}

describe('scripts/migrate.mjs', () => {
  it('migrates a new SQLite DATA_DIR, then has nothing to do', { timeout: 60_000 }, async () => {
    const dataDir = path.join(tmp, 'migrate-sqlite')
    const first = await migrate({ DATA_DIR: dataDir })
    expect(first.dialect).toBe('sqlite')
    expect(first.applied[0]).toBe('0001-foundation')
    expect(first.latest).toBe(first.applied.at(-1))
    expect(await migrate({ DATA_DIR: dataDir })).toEqual({ ...first, applied: [] })
  })

  it.runIf(databases.includes('postgres'))(
    'two at once on one new PostgreSQL database: both succeed, each migration runs once',
    { timeout: 90_000 },
    async () => {
      const name = `numisma_ops_${process.pid}`
      const admin = new pg.Client({ connectionString: PG_ADMIN_URL })
      await admin.connect()
      await admin.query(`drop database if exists ${name}`)
      await admin.query(`create database ${name}`)
      const url = new URL(PG_ADMIN_URL)
      url.pathname = `/${name}`
      try {
        const env = { DATABASE_URL: url.toString() }
        const [a, b] = await Promise.all([migrate(env), migrate(env)])
        expect(a.dialect).toBe('postgres')
        expect(a.latest).toBe(b.latest)
        const client = new pg.Client({ connectionString: url.toString() })
        await client.connect()
        try {
          const { rows } = await client.query<{ name: string; n: string }>(
            'select name, count(*) as n from kysely_migration group by name order by name',
          )
          expect(rows.length).toBeGreaterThan(15)
          expect(rows.every((row) => Number(row.n) === 1)).toBe(true)
          expect(rows.at(-1)!.name).toBe(a.latest)
        } finally {
          await client.end()
        }
        expect((await migrate(env)).applied).toEqual([])
      } finally {
        await admin.query(`drop database if exists ${name} with (force)`)
        await admin.end()
      }
    },
  )

  it('fails with exit 1 and the reason when the database cannot be reached', async () => {
    const error = await failure([migrateScript], {
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
    })
    expect(error.code).toBe(1)
    expect(error.stderr).toMatch(/^migrate failed: /)
  })
})

// --- the PostgreSQL restore of docs/operations.md §13 ----------------------------------------------

let hasPgDump = true
try {
  await run('pg_dump', ['--version'])
} catch {
  hasPgDump = false
}

describe('PostgreSQL dump and restore (docs §13)', () => {
  it.runIf(databases.includes('postgres') && hasPgDump)(
    'deploy/pg-dump.sh, pg_restore into a new database: migrate finds nothing to do, data kept',
    { timeout: 90_000 },
    async () => {
      const source = `numisma_ops_src_${process.pid}`
      const restored = `numisma_ops_restored_${process.pid}`
      const admin = new pg.Client({ connectionString: PG_ADMIN_URL })
      await admin.connect()
      const urlOf = (name: string) => {
        const url = new URL(PG_ADMIN_URL)
        url.pathname = `/${name}`
        return url.toString()
      }
      try {
        for (const name of [source, restored]) {
          await admin.query(`drop database if exists ${name} with (force)`)
          await admin.query(`create database ${name}`)
        }
        const live = await openDatabase({ url: urlOf(source), poolSize: 1 })
        await live.db.insertInto('settings').values({ key: 'dump-test', value: 'kept' }).execute()
        await live.close()

        // deploy/pg-dump.sh, as numisma-pg-dump.service runs it.
        const { stdout } = await run(path.join(ROOT, 'deploy/pg-dump.sh'), [tmp, '14'], {
          env: { PATH: process.env.PATH, DATABASE_URL: urlOf(source) },
        })
        const dump = stdout.trim()
        expect(path.basename(dump)).toMatch(/^numisma-\d{8}T\d{6}Z\.dump$/)
        expect(fs.readdirSync(tmp).filter((name) => name.endsWith('.partial'))).toEqual([])
        await run('pg_restore', ['--no-owner', `--dbname=${urlOf(restored)}`, dump])

        const after = await migrate({ DATABASE_URL: urlOf(restored) })
        expect(after.applied).toEqual([])
        const database = await openDatabase({ url: urlOf(restored), poolSize: 1 })
        try {
          const setting = await database.db
            .selectFrom('settings')
            .select('value')
            .where('key', '=', 'dump-test')
            .executeTakeFirst()
          expect(setting?.value).toBe('kept')
        } finally {
          await database.close()
        }
      } finally {
        for (const name of [source, restored]) {
          await admin.query(`drop database if exists ${name} with (force)`)
        }
        await admin.end()
      }
    },
  )
})
