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
 *   BENCH_DB=postgres+redis …          # PostgreSQL with Redis nonces and bus, as instances run
 *   BENCH_PROFILE=/tmp/prof npm run bench:bids            # server CPU profile (--cpu-prof)
 *   BENCH_OUT=/tmp/bids.json …                            # write elsewhere
 *
 * A filtered run (BENCH_DB / BENCH_MODE) replaces only its own scenarios in the results file and
 * keeps the others, so one part can be re-measured without erasing the rest.
 */
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { nextAmount } from '@numisma/domain/increments'
import { openDatabase } from '../apps/server/src/platform/db'
import { loadPublicApps } from '../apps/server/src/platform/public-apps'
import { SettingsRepository } from '../apps/server/src/platform/settings-repository'
import {
  cpuSecondsBetween,
  cpuSecondsOf,
  cpuSnapshotOf,
  insertOpenLots,
  insertUsers,
  machineInfo,
  percentile,
  pgAvailable,
  postJson,
  REDIS_URL,
  root,
  scratchDatabase,
  serviceProcesses,
  signedInHeaders,
  startServer,
  writeReport,
  type BenchUser,
} from './support'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8)
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 16)
const SPREAD_LOTS = 200
const OUT = process.env.BENCH_OUT ?? path.join(root, 'bench', 'results', 'bids.json')

/**
 * `postgres+redis` is PostgreSQL as several instances run it (docs/operations.md): nonces and
 * the push bus in Redis, so a request's nonce claim is not a PostgreSQL write.
 */
type DbKind = 'sqlite' | 'postgres' | 'postgres+redis'
type Mode = 'hot' | 'spread'

/** `BENCH_DB=sqlite|postgres`, `BENCH_MODE=hot|spread` (BENCH_ONLY is the older name of BENCH_DB). */
function filter<T extends string>(name: string, value: string | undefined, all: readonly T[]): T[] {
  if (!value) return [...all]
  if (!all.includes(value as T)) throw new Error(`${name} must be one of ${all.join(', ')}`)
  return [value as T]
}
const DB_ORDER: readonly DbKind[] = ['sqlite', 'postgres', 'postgres+redis']
const MODE_ORDER: readonly Mode[] = ['hot', 'spread']
const DATABASES = filter('BENCH_DB', process.env.BENCH_DB ?? process.env.BENCH_ONLY, DB_ORDER)
const MODES = filter('BENCH_MODE', process.env.BENCH_MODE, MODE_ORDER)

interface Fixture {
  bidders: BenchUser[]
  hotLot: number
  spreadLots: number[]
  apps: Awaited<ReturnType<typeof loadPublicApps>>
}

async function prepare(url: string | undefined, sqliteFile: string): Promise<Fixture> {
  const database = await openDatabase({ url, sqliteFile })
  const bidders = await insertUsers(
    database,
    CLIENTS,
    (i) => ({
      phone: `1380000${String(i).padStart(4, '0')}`,
      nickname: `bench${i}`,
      deviceId: `bench-${i}`,
    }),
    10_000_000_000,
  )
  const lots = await insertOpenLots(database, 'bench', SPREAD_LOTS + 1, (i) => `bench lot ${i + 1}`)
  const apps = await loadPublicApps(new SettingsRepository(database.db))
  await database.close()
  return { bidders, hotLot: lots[0]!, spreadLots: lots.slice(1), apps }
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS * 2 })

async function load(base: string, fixture: Fixture, mode: Mode, serverPid?: number) {
  const serverCpuBefore = cpuSecondsOf(serverPid)
  const loadCpuBefore = process.cpuUsage()
  const services = await serviceProcesses()
  const postgresBefore = cpuSnapshotOf(services.postgres)
  const redisBefore = cpuSnapshotOf(services.redis)
  const deadline = performance.now() + SECONDS * 1000
  const latencies: number[] = []
  const statuses: Record<string, number> = {}
  const minimum = new Map<number, number>()
  const client = async (bidder: BenchUser, index: number) => {
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
      const headers = signedInHeaders(
        bidder,
        fixture.apps.signSecret,
        `bench-${index}`,
        'POST',
        '/bidding/bid',
      )
      const started = performance.now()
      const res = await postJson(agent, `${base}/svc/main/bidding/bid`, headers, body)
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
  const postgresCpu = cpuSecondsBetween(postgresBefore, cpuSnapshotOf(services.postgres))
  const redisCpu = cpuSecondsBetween(redisBefore, cpuSnapshotOf(services.redis))
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
    // The PostgreSQL and Redis servers on the same cores (about 0 when the scenario does not use
    // them; null when they are not on this machine): with the server's and the load's, what one
    // request costs the machine in all.
    postgresMsPerRequest: postgresCpu === null ? null : perRequest(postgresCpu),
    redisMsPerRequest: redisCpu === null ? null : perRequest(redisCpu),
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

async function run(kind: DbKind) {
  const database = await scratchDatabase(kind === 'sqlite' ? 'sqlite' : 'postgres', 'numisma-bench')
  const fixture = await prepare(database.url, database.sqliteFile)
  // Not database.env: only postgres+redis sets Redis (nonces and the push bus).
  const server = await startServer({
    DATABASE_URL: database.url ?? '',
    DATA_DIR: database.dir,
    REDIS_URL: kind === 'postgres+redis' ? REDIS_URL : '',
  })
  try {
    const results = []
    for (const mode of MODES) {
      const result = await load(server.base, fixture, mode, server.child.pid)
      console.log(
        `${kind} ${mode}: ${result.acceptedPerSecond} accepted bids/s, p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms, server CPU ${result.cpu.serverMsPerRequest} ms/request ${result.cpu.serverMsPerAccepted} ms/accepted, load CPU ${result.cpu.loadMsPerRequest} ms/request, PostgreSQL ${result.cpu.postgresMsPerRequest}, Redis ${result.cpu.redisMsPerRequest} ms/request`,
        result.outcomes,
      )
      results.push({ database: kind, ...result })
    }
    return results
  } finally {
    await server.stop()
    await database.drop()
  }
}

const results: Array<Awaited<ReturnType<typeof run>>[number]> = []
for (const database of DATABASES) {
  if (database !== 'sqlite' && !(await pgAvailable())) {
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
  machine: machineInfo(),
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
writeReport(OUT, report)
