/**
 * What the benchmarks share (bids.ts, read-path.ts, push-fanout.ts, idle-connections.ts): the
 * server process, a scratch database, fixtures written straight to the database (signing in and
 * creating lots are not what is measured), signed requests, the machine's description and
 * percentiles. Push-only parts (watcher processes, /proc descriptor counts) are in push-harness.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { osInfoHeader, signedHeaders } from '@numisma/contracts/signing'
import { Redis } from 'ioredis'
import pg from 'pg'
import { CatalogRepository } from '../apps/server/src/modules/catalog/repository'
import { LedgerService } from '../apps/server/src/modules/ledger/service'
import { PassportRepository } from '../apps/server/src/modules/passport/repository'
import { systemClock } from '../apps/server/src/platform/clock'
import { randomToken, sha256Hex } from '../apps/server/src/platform/crypto'
import type { Database } from '../apps/server/src/platform/db'

export const root = path.resolve(import.meta.dirname, '..')
export const PG_ADMIN = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379'

/** What production mode needs besides a database (see the push benchmarks). */
export const PRODUCTION_ENV = {
  NUMISMA_ENV: 'production',
  SMS_PROVIDER: 'sandbox',
  PAY_PASSWORD_PEPPER: 'bench-pepper-0123456789',
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer()
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

export interface ServerProcess {
  child: ChildProcess
  base: string
  stop(): Promise<void>
}

/**
 * `apps/server/src/server.ts` as `npm start` runs it, on a free loopback port, logging at warn;
 * SEED=none unless `env` says otherwise. `cwd` runs another checkout's server (read-path.ts's
 * BENCH_SERVERS). BENCH_PROFILE=<dir> writes its CPU profile there (`--cpu-prof`) when it stops.
 */
export async function startServer(
  env: Record<string, string>,
  options: { cwd?: string; attempts?: number } = {},
): Promise<ServerProcess> {
  const port = await freePort()
  const profile = process.env.BENCH_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
    : []
  const child = spawn(
    process.execPath,
    [...profile, '--import', 'tsx', 'apps/server/src/server.ts'],
    {
      cwd: options.cwd ?? root,
      env: {
        ...process.env,
        SEED: 'none',
        NUMISMA_ADMIN_PASSWORD: 'bench-admin-password',
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  )
  const base = `http://127.0.0.1:${port}`
  const stop = async () => {
    if (child.exitCode !== null) return
    const exited = new Promise((r) => child.once('exit', r))
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
    await exited
    clearTimeout(timer)
  }
  for (let i = 0; i < (options.attempts ?? 150); i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`)
    try {
      if ((await fetch(`${base}/svc/health`)).ok) return { child, base, stop }
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  await stop()
  throw new Error('server did not start')
}

/**
 * A database for one run: a fresh PostgreSQL database, or a SQLite file in a fresh directory
 * (under `parent`, the system's temporary directory unless given).
 */
export async function scratchDatabase(
  kind: 'sqlite' | 'postgres',
  prefix: string,
  parent = os.tmpdir(),
) {
  fs.mkdirSync(parent, { recursive: true })
  const dir = fs.mkdtempSync(path.join(parent, `${prefix}-`))
  let url: string | undefined
  let dbName = ''
  if (kind === 'postgres') {
    dbName = `${prefix.replace(/-/g, '_')}_${Date.now()}`
    const admin = new pg.Client({ connectionString: PG_ADMIN })
    await admin.connect()
    await admin.query(`create database ${dbName}`)
    await admin.end()
    const u = new URL(PG_ADMIN)
    u.pathname = `/${dbName}`
    url = u.toString()
  }
  return {
    dir,
    url,
    sqliteFile: path.join(dir, 'numisma.db'),
    /** The server's environment: SQLite in `dir`, or PostgreSQL with the Redis bus. */
    env: url
      ? { DATABASE_URL: url, REDIS_URL, DATA_DIR: dir }
      : { DATABASE_URL: '', REDIS_URL: '', DATA_DIR: dir },
    async drop() {
      fs.rmSync(dir, { recursive: true, force: true })
      if (!dbName) return
      const admin = new pg.Client({ connectionString: PG_ADMIN })
      await admin.connect()
      await admin.query(`drop database if exists ${dbName} with (force)`)
      await admin.end()
    },
  }
}

export async function pgAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_ADMIN, connectionTimeoutMillis: 2000 })
  try {
    await client.connect()
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => undefined)
  }
}

/** A signed-in user: the session's app id and key, and the sid cookie's value. */
export interface BenchUser {
  userId: number
  id: string
  key: string
  sid: string
}

/** Users with a session each, and a deposit when `deposit` is given (in fen). */
export async function insertUsers(
  database: Database,
  count: number,
  naming: (i: number) => { phone: string; nickname: string; deviceId: string },
  deposit?: number,
): Promise<BenchUser[]> {
  const now = Date.now()
  const passport = new PassportRepository(database.db)
  const ledger = new LedgerService(database, systemClock)
  const users: BenchUser[] = []
  for (let i = 0; i < count; i++) {
    const { phone, nickname, deviceId } = naming(i)
    const user = await passport.findOrCreateUser(phone, nickname, now)
    const sid = randomToken(32)
    const session = { id: `s_${randomToken(15)}`, key: randomToken(24) }
    await passport.insertSession({
      id: session.id,
      userId: user.id,
      key: session.key,
      sidHash: sha256Hex(sid),
      deviceId,
      now,
      expiresAt: now + 86_400_000,
    })
    if (deposit !== undefined) await ledger.creditDeposit(user.id, deposit, 'bench deposit')
    users.push({ userId: user.id, id: session.id, key: session.key, sid })
  }
  return users
}

/** One open special (running a day) with `count` open lots; their ids in lot order. */
export async function insertOpenLots(
  database: Database,
  specialTitle: string,
  count: number,
  lotTitle: (i: number) => string,
): Promise<number[]> {
  const now = Date.now()
  const catalog = new CatalogRepository(database.db)
  const specialId = await catalog.insertSpecial({
    title: specialTitle,
    subtitle: '',
    description: '',
    cover: '',
    starts_at: now - 60_000,
    ends_at: now + 86_400_000,
    stagger_seconds: 0,
    soft_close_window_seconds: 300,
    soft_close_extend_seconds: 300,
    created_at: now,
  })
  await catalog.insertLots(
    Array.from({ length: count }, (_, i) => ({
      special_id: specialId,
      lot_no: i + 1,
      category_id: null,
      title: lotTitle(i),
      subtitle: '',
      description: '',
      images: '[]',
      grade_code: 0,
      grading_service: null,
      cert_no: null,
      year: '',
      denomination: '',
      material: '',
      start_price: 10_000,
      reserve_price: null,
      starts_at: now - 60_000,
      ends_at: now + 86_400_000,
      export_banned: 0,
      status: 'open',
      price: null,
      bid_count: 0,
      leader_id: null,
      created_at: now,
    })),
  )
  return (await catalog.lotsOfSpecial(specialId)).map((l) => l.id)
}

/** The headers a signed-in client sends: the request's signature and the sid cookie. */
export function signedInHeaders(
  user: BenchUser,
  signSecret: string,
  deviceId: string,
  method: string,
  signedPath: string,
): Record<string, string> {
  return {
    ...signedHeaders({
      method,
      path: signedPath,
      appId: user.id,
      key: user.key,
      deviceId,
      signSecret,
      osInfo: osInfoHeader(),
      userId: String(user.userId),
    }),
    cookie: `sid=${user.sid}`,
  }
}

/** POST a JSON body through `agent`; the answer's status and parsed body. */
export function postJson(
  agent: http.Agent,
  url: string,
  headers: Record<string, string>,
  body: string,
) {
  return new Promise<{ status: number; json: Record<string, unknown> }>((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            json: JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>,
          }),
        )
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

/** CPU seconds (user + system) a process has used, from /proc (Linux); undefined elsewhere. */
export function cpuSecondsOf(pid: number | undefined): number | undefined {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS
  } catch {
    return undefined
  }
}
/** CLK_TCK, 100 on Linux. */
const CLOCK_TICKS = 100

/** Each process's parent and CPU seconds so far, from /proc (pid → [ppid, seconds]). */
function processTable(): Map<number, [number, number]> {
  const table = new Map<number, [number, number]>()
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
      // After the command's closing parenthesis: state, ppid, …, utime (12th), stime (13th).
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      table.set(Number(entry), [
        Number(fields[1]),
        (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS,
      ])
    } catch {
      // The process ended while we looked.
    }
  }
  return table
}

/**
 * The CPU of the PostgreSQL server the benchmarks use (the postmaster of PG_ADMIN's server and
 * its children: backends, WAL writer, checkpointer) and of the Redis server at REDIS_URL, found
 * by their pids so other clusters on the machine do not count. A source that is not on this
 * machine (another container, a remote host) or not reachable is null.
 */
export async function serviceProcesses(): Promise<{
  postgres: number | null
  redis: number | null
}> {
  let postgres: number | null
  try {
    const client = new pg.Client({ connectionString: PG_ADMIN, connectionTimeoutMillis: 2000 })
    await client.connect()
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid')
    // Read while this backend lives: its parent is the postmaster.
    postgres = processTable().get(rows[0]!.pid)?.[0] ?? null
    await client.end()
  } catch {
    postgres = null
  }
  let redis: number | null
  try {
    const client = new Redis(REDIS_URL, {
      lazyConnect: true,
      connectTimeout: 2000,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    })
    await client.connect()
    const info = await client.info('server')
    client.disconnect()
    const pid = Number(/process_id:(\d+)/.exec(info)?.[1])
    redis = processTable().has(pid) ? pid : null
  } catch {
    redis = null
  }
  return { postgres, redis }
}

/**
 * CPU seconds used so far by `root` and its children (pid → seconds), so a run can subtract a
 * snapshot taken before it: a process that started meanwhile counts from zero; one that ended
 * is left out (the server's pool keeps its backends for a run).
 */
export function cpuSnapshotOf(root: number | null): Map<number, number> | null {
  if (root === null) return null
  const snapshot = new Map<number, number>()
  for (const [pid, [ppid, seconds]] of processTable())
    if (pid === root || ppid === root) snapshot.set(pid, seconds)
  return snapshot
}

/** CPU seconds used between two snapshots of {@link cpuSnapshotOf} (null if either is). */
export function cpuSecondsBetween(
  before: Map<number, number> | null,
  after: Map<number, number> | null,
) {
  if (!before || !after) return null
  let seconds = 0
  for (const [pid, now] of after) seconds += now - (before.get(pid) ?? 0)
  return seconds
}

export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return 0
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

export const round = (n: number, digits = 2) => Number(n.toFixed(digits))

/** The machine the figures come from; each benchmark adds its load and notes. */
export function machineInfo() {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
  }
}

/** Writes a results file (pretty JSON, trailing newline) and says where. */
export function writeReport(file: string, report: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`)
  console.log(`written ${path.relative(process.cwd(), file)}`)
}
