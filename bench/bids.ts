/**
 * Bid throughput and latency over HTTP with signed requests (issue: Auctions, item 7).
 *
 * The server runs as its own process (`apps/server/src/server.ts`, as `npm start` runs it); this
 * process is the load: C concurrent signed-in clients bidding for a fixed time, either all on one
 * hot lot or spread over many lots, on SQLite (synchronous=FULL) and on PostgreSQL. Fixtures
 * (users, sessions, deposits, lots) are written straight to the database before the server starts;
 * every measured request goes through HTTP, signing and the real bid transaction.
 *
 *   npm run bench:bids                 # both databases, results in bench/results/bids.json
 *   BENCH_SECONDS=5 BENCH_CLIENTS=32 npm run bench:bids
 *   BENCH_DB=postgres BENCH_MODE=hot npm run bench:bids   # one part only
 *   BENCH_PROFILE=/tmp/prof npm run bench:bids            # server CPU profile (--cpu-prof)
 *   BENCH_OUT=/tmp/bids.json …                            # write elsewhere
 *
 * A filtered run (BENCH_DB / BENCH_MODE) replaces only its own scenarios in the results file and
 * keeps the others, so one part can be re-measured without erasing the rest.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { osInfoHeader, signedHeaders } from '@numisma/contracts/signing'
import { nextAmount } from '@numisma/domain/increments'
import pg from 'pg'
import { CatalogRepository } from '../apps/server/src/modules/catalog/repository'
import { LedgerService } from '../apps/server/src/modules/ledger/service'
import { PassportRepository } from '../apps/server/src/modules/passport/repository'
import { systemClock } from '../apps/server/src/platform/clock'
import { randomToken, sha256Hex } from '../apps/server/src/platform/crypto'
import { openDatabase } from '../apps/server/src/platform/db'
import { loadPublicApps } from '../apps/server/src/platform/public-apps'
import { SettingsRepository } from '../apps/server/src/platform/settings-repository'

const root = path.resolve(import.meta.dirname, '..')
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8)
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 16)
const SPREAD_LOTS = 200
const PG_ADMIN = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const OUT = process.env.BENCH_OUT ?? path.join(root, 'bench', 'results', 'bids.json')

type DbKind = 'sqlite' | 'postgres'
type Mode = 'hot' | 'spread'

/** `BENCH_DB=sqlite|postgres`, `BENCH_MODE=hot|spread` (BENCH_ONLY is the older name of BENCH_DB). */
function filter<T extends string>(name: string, value: string | undefined, all: readonly T[]): T[] {
  if (!value) return [...all]
  if (!all.includes(value as T)) throw new Error(`${name} must be one of ${all.join(', ')}`)
  return [value as T]
}
const DB_ORDER: readonly DbKind[] = ['sqlite', 'postgres']
const MODE_ORDER: readonly Mode[] = ['hot', 'spread']
const DATABASES = filter('BENCH_DB', process.env.BENCH_DB ?? process.env.BENCH_ONLY, DB_ORDER)
const MODES = filter('BENCH_MODE', process.env.BENCH_MODE, MODE_ORDER)

interface Bidder {
  userId: number
  id: string
  key: string
  sid: string
}

interface Fixture {
  bidders: Bidder[]
  hotLot: number
  spreadLots: number[]
  apps: Awaited<ReturnType<typeof loadPublicApps>>
}

async function prepare(url: string | undefined, sqliteFile: string): Promise<Fixture> {
  const database = await openDatabase({ url, sqliteFile })
  const now = Date.now()
  const passport = new PassportRepository(database.db)
  const ledger = new LedgerService(database, systemClock)
  const catalog = new CatalogRepository(database.db)
  const bidders: Bidder[] = []
  for (let i = 0; i < CLIENTS; i++) {
    const user = await passport.findOrCreateUser(
      `1380000${String(i).padStart(4, '0')}`,
      `bench${i}`,
      now,
    )
    const sid = randomToken(32)
    const session = { id: `s_${randomToken(15)}`, key: randomToken(24) }
    await passport.insertSession({
      id: session.id,
      userId: user.id,
      key: session.key,
      sidHash: sha256Hex(sid),
      deviceId: `bench-${i}`,
      now,
      expiresAt: now + 86_400_000,
    })
    await ledger.creditDeposit(user.id, 10_000_000_000, 'bench deposit')
    bidders.push({ userId: user.id, id: session.id, key: session.key, sid })
  }
  const specialId = await catalog.insertSpecial({
    title: 'bench',
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
    Array.from({ length: SPREAD_LOTS + 1 }, (_, i) => ({
      special_id: specialId,
      lot_no: i + 1,
      category_id: null,
      title: `bench lot ${i + 1}`,
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
  const lots = (await catalog.lotsOfSpecial(specialId)).map((l) => l.id)
  const apps = await loadPublicApps(new SettingsRepository(database.db))
  await database.close()
  return { bidders, hotLot: lots[0]!, spreadLots: lots.slice(1), apps }
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer()
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

async function startServer(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; base: string }> {
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
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`${base}/svc/health`)).ok) return { child, base }
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  child.kill()
  throw new Error('server did not start')
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS * 2 })

function post(base: string, path: string, headers: Record<string, string>, body: string) {
  return new Promise<{ status: number; json: Record<string, unknown> }>((resolve, reject) => {
    const req = http.request(
      `${base}/svc/main${path}`,
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

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

/** CPU seconds (user + system) a process has used, from /proc (Linux); undefined elsewhere. */
function cpuSecondsOf(pid: number | undefined): number | undefined {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS
  } catch {
    return undefined
  }
}
const CLOCK_TICKS = 100

async function load(base: string, fixture: Fixture, mode: Mode, serverPid?: number) {
  const serverCpuBefore = cpuSecondsOf(serverPid)
  const loadCpuBefore = process.cpuUsage()
  const deadline = performance.now() + SECONDS * 1000
  const latencies: number[] = []
  const statuses: Record<string, number> = {}
  const minimum = new Map<number, number>()
  const client = async (bidder: Bidder, index: number) => {
    let turn = index
    while (performance.now() < deadline) {
      const lotId =
        mode === 'hot'
          ? fixture.hotLot
          : fixture.spreadLots[(turn++ * 7 + index) % fixture.spreadLots.length]!
      // On the hot lot the crowd uses proxy bids, each a different number of steps above the
      // minimum it last saw (a proxy at or above the minimum is accepted even when it does not
      // take the lead); spread over many lots, bidders place direct bids at the minimum.
      let amount = minimum.get(lotId) ?? 10_000
      const jumps = mode === 'hot' ? Math.floor(Math.random() * CLIENTS * 2) : 0
      for (let j = 0; j < jumps; j++) amount = nextAmount(amount)
      const body = JSON.stringify({ lotId, amount, proxy: mode === 'hot' })
      const headers = signedHeaders({
        method: 'POST',
        path: '/bidding/bid',
        appId: bidder.id,
        key: bidder.key,
        deviceId: `bench-${index}`,
        signSecret: fixture.apps.signSecret,
        osInfo: osInfoHeader(),
        userId: String(bidder.userId),
      })
      const started = performance.now()
      const res = await post(
        base,
        '/bidding/bid',
        { ...headers, cookie: `sid=${bidder.sid}` },
        body,
      )
      const elapsed = performance.now() - started
      const code = res.status === 200 ? 'accepted' : String(res.json.code)
      statuses[code] = (statuses[code] ?? 0) + 1
      latencies.push(elapsed)
      if (res.status === 200) {
        const data = res.json.data as { price: number; myMax: number | null }
        minimum.set(
          lotId,
          Math.max(minimum.get(lotId) ?? 0, nextAmount(Math.max(data.price, data.myMax ?? 0))),
        )
      } else if (res.json.code === 'BID_TOO_LOW') {
        const details = res.json.details as { minimum: number }
        minimum.set(lotId, Math.max(minimum.get(lotId) ?? 0, details.minimum))
      } else if (res.json.code === 'ALREADY_LEADING') {
        await new Promise((r) => setTimeout(r, 1))
      } else {
        throw new Error(`unexpected refusal ${res.status} ${JSON.stringify(res.json)}`)
      }
    }
  }
  const started = performance.now()
  await Promise.all(fixture.bidders.map((b, i) => client(b, i)))
  const seconds = (performance.now() - started) / 1000
  const serverCpuAfter = cpuSecondsOf(serverPid)
  const loadCpu = process.cpuUsage(loadCpuBefore)
  latencies.sort((a, b) => a - b)
  const accepted = statuses.accepted ?? 0
  // CPU per request and per accepted bid: on a shared machine these move far less than the rates,
  // and they say what a quiet core could do (a second process is the load on the same cores).
  const perRequest = (cpuSeconds: number) =>
    Number(((cpuSeconds * 1000) / Math.max(1, latencies.length)).toFixed(3))
  const serverCpu =
    serverCpuBefore === undefined || serverCpuAfter === undefined
      ? undefined
      : serverCpuAfter - serverCpuBefore
  const cpu = {
    serverSeconds: serverCpu === undefined ? null : Number(serverCpu.toFixed(2)),
    serverMsPerRequest: serverCpu === undefined ? null : perRequest(serverCpu),
    serverMsPerAccepted:
      serverCpu === undefined
        ? null
        : Number(((serverCpu * 1000) / Math.max(1, accepted)).toFixed(3)),
    loadMsPerRequest: perRequest((loadCpu.user + loadCpu.system) / 1e6),
  }
  return {
    mode,
    clients: fixture.bidders.length,
    seconds: Number(seconds.toFixed(2)),
    requests: latencies.length,
    accepted,
    acceptedPerSecond: Math.round(accepted / seconds),
    requestsPerSecond: Math.round(latencies.length / seconds),
    latencyMs: {
      p50: Number(percentile(latencies, 50).toFixed(2)),
      p99: Number(percentile(latencies, 99).toFixed(2)),
      max: Number((latencies.at(-1) ?? 0).toFixed(2)),
    },
    outcomes: statuses,
    cpu,
  }
}

async function pgAvailable(): Promise<boolean> {
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

async function run(database: DbKind) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'numisma-bench-'))
  let url: string | undefined
  let dbName = ''
  if (database === 'postgres') {
    dbName = `numisma_bench_${Date.now()}`
    const admin = new pg.Client({ connectionString: PG_ADMIN })
    await admin.connect()
    await admin.query(`create database ${dbName}`)
    await admin.end()
    const u = new URL(PG_ADMIN)
    u.pathname = `/${dbName}`
    url = u.toString()
  }
  const fixture = await prepare(url, path.join(dir, 'numisma.db'))
  const { child, base } = await startServer(
    url ? { DATABASE_URL: url, DATA_DIR: dir } : { DATA_DIR: dir, DATABASE_URL: '' },
  )
  try {
    const results = []
    for (const mode of MODES) {
      const result = await load(base, fixture, mode, child.pid)
      console.log(
        `${database} ${mode}: ${result.acceptedPerSecond} accepted bids/s, p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms, server CPU ${result.cpu.serverMsPerRequest} ms/request ${result.cpu.serverMsPerAccepted} ms/accepted, load CPU ${result.cpu.loadMsPerRequest} ms/request`,
        result.outcomes,
      )
      results.push({ database, ...result })
    }
    return results
  } finally {
    child.kill('SIGTERM')
    await new Promise((r) => child.once('exit', r))
    fs.rmSync(dir, { recursive: true, force: true })
    if (dbName) {
      const admin = new pg.Client({ connectionString: PG_ADMIN })
      await admin.connect()
      await admin.query(`drop database if exists ${dbName} with (force)`)
      await admin.end()
    }
  }
}

const results: Array<Awaited<ReturnType<typeof run>>[number]> = []
for (const database of DATABASES) {
  if (database === 'postgres' && !(await pgAvailable())) {
    console.warn('PostgreSQL not reachable: PostgreSQL scenarios skipped')
    continue
  }
  results.push(...(await run(database)))
}
agent.destroy()

// A filtered run keeps the scenarios it did not measure from the previous file.
const previous = (() => {
  try {
    return (JSON.parse(fs.readFileSync(OUT, 'utf8')) as { results?: typeof results }).results ?? []
  } catch {
    return []
  }
})()
const measured = new Set(results.map((r) => `${r.database}/${r.mode}`))
const kept = previous.filter((r) => !measured.has(`${r.database}/${r.mode}`))
if (kept.length > 0 && results.length > 0) {
  console.warn(
    `kept from the previous ${path.basename(OUT)}: ${kept.map((r) => `${r.database}/${r.mode}`).join(', ')}`,
  )
}

const report = {
  benchmark: 'bids over HTTP (signed requests, one server process, load from a second process)',
  date: new Date().toISOString(),
  machine: {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
  },
  settings: {
    seconds: SECONDS,
    clients: CLIENTS,
    spreadLots: SPREAD_LOTS,
    sqlite: 'WAL, synchronous=FULL',
    ...(kept.length > 0 ? { measuredNow: [...measured] } : {}),
  },
  results: [...kept, ...results].sort(
    (a, b) =>
      DB_ORDER.indexOf(a.database) - DB_ORDER.indexOf(b.database) ||
      MODE_ORDER.indexOf(a.mode) - MODE_ORDER.indexOf(b.mode),
  ),
}
fs.mkdirSync(path.dirname(OUT), { recursive: true })
fs.writeFileSync(OUT, `${JSON.stringify(report, null, 2)}\n`)
console.log(`written ${path.relative(process.cwd(), OUT)}`)
