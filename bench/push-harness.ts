/**
 * What the push benchmarks (push-fanout.ts, idle-connections.ts) share: the server process, the
 * watcher processes (push-watchers.ts), the machine description and percentiles.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import type { WatcherCommand, WatcherReply } from './push-watchers'

export const root = path.resolve(import.meta.dirname, '..')
export const PG_ADMIN = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379'

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
 * `apps/server/src/server.ts` as production runs it (NUMISMA_ENV=production, JSON logs at warn).
 * BENCH_PROFILE=<dir> writes its CPU profile there (`--cpu-prof`) when it stops.
 */
export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort()
  const profile = process.env.BENCH_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
    : []
  const child = spawn(
    process.execPath,
    [...profile, '--import', 'tsx', 'apps/server/src/server.ts'],
    {
      cwd: root,
      env: {
        ...process.env,
        NUMISMA_ENV: 'production',
        SMS_PROVIDER: 'sandbox',
        PAY_PASSWORD_PEPPER: 'bench-pepper-0123456789',
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
        SEED: 'none',
        LOG_LEVEL: 'warn',
        NUMISMA_ADMIN_PASSWORD: 'bench-admin-password',
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
  for (let i = 0; i < 150; i++) {
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

/** A database for one run: a fresh PostgreSQL database, or a SQLite file in a fresh directory. */
export async function scratchDatabase(kind: 'sqlite' | 'postgres', prefix: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`))
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

/** What a watcher process answers to each command. */
type ReplyTo<C extends WatcherCommand> = Extract<
  WatcherReply,
  { ev: C extends { cmd: 'open' } ? 'opened' : C extends { cmd: 'status' } ? 'status' : 'report' }
>

/** A watcher process (push-watchers.ts) and a request/answer over its IPC channel. */
export class WatcherProcess {
  private readonly child: ChildProcess
  private readonly waiting: ((reply: WatcherReply) => void)[] = []

  constructor() {
    this.child = fork(path.join(root, 'bench', 'push-watchers.ts'), [], {
      cwd: root,
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, NUMISMA_BENCH_WATCHER: '1' },
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    this.child.on('message', (reply: WatcherReply) => this.waiting.shift()?.(reply))
  }

  ask<C extends WatcherCommand>(command: C, timeoutMs = 120_000): Promise<ReplyTo<C>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`watcher: no answer to ${command.cmd}`)),
        timeoutMs,
      )
      this.waiting.push((reply) => {
        clearTimeout(timer)
        resolve(reply as ReplyTo<C>)
      })
      this.child.send(command)
    })
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return
    const exited = new Promise((r) => this.child.once('exit', r))
    this.child.send({ cmd: 'close' } satisfies WatcherCommand)
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000)
    await exited
    clearTimeout(timer)
  }
}

/** Resident memory of a process in bytes (Linux /proc). */
export function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)
  return kb ? Number(kb[1]) * 1024 : 0
}

/** Open file descriptors of a process (Linux /proc). */
export function openFilesOf(pid: number): number {
  return fs.readdirSync(`/proc/${pid}/fd`).length
}

/** The open-files limit (soft, hard) of a process, from /proc/<pid>/limits. */
export function openFilesLimitOf(pid: number): { soft: number; hard: number } {
  const limits = fs.readFileSync(`/proc/${pid}/limits`, 'utf8')
  const line = /Max open files\s+(\d+)\s+(\d+)/.exec(limits)
  return { soft: Number(line?.[1] ?? 0), hard: Number(line?.[2] ?? 0) }
}

export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return 0
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

export const round = (n: number, digits = 2) => Number(n.toFixed(digits))

/** The machine's load when the benchmark started: other work on it skews every figure. */
const loadAtStart = os.loadavg()

export function machine() {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadAverageAtStart: loadAtStart.map((n) => round(n)),
    loadAverageAtEnd: os.loadavg().map((n) => round(n)),
    note:
      'loopback only; server, watcher processes and load share this machine, so their CPU ' +
      'competes; figures from a busy shared machine are noisy',
  }
}

export function writeResult(name: string, report: unknown): void {
  fs.mkdirSync(path.join(root, 'bench', 'results'), { recursive: true })
  fs.writeFileSync(
    path.join(root, 'bench', 'results', name),
    `${JSON.stringify(report, null, 2)}\n`,
  )
  console.log(`written bench/results/${name}`)
}
