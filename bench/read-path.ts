/**
 * Catalogue read throughput and latency over HTTP with signed requests (issue 14, item 6).
 *
 * The server runs as its own production-mode process (`apps/server/src/server.ts` with
 * NUMISMA_ENV=production, SEED=demo, Redis for nonces and the push bus); the load comes from
 * BENCH_WORKERS separate processes (this file, forked with `--worker`), each with BENCH_CONNECTIONS
 * keep-alive connections. Every request is signed as the web app signs it — anonymous with the
 * public app pair, signed-in with a session's key, user id and sid cookie — and carries a fresh
 * nonce the server claims in Redis. The mix is a visitor's: the home page's calls, special detail,
 * lot detail and search (buying list, mall list, keyword), a share signed in, half of the visitors
 * with a browser cache (they send If-None-Match for what they have seen).
 *
 * What the generator does not do per request is precomputed before the measured window: the
 * Authorization HMAC covers method, path and device only, so it is one per (client, path), and the
 * X-Sign hashes of nonce + timestamp are drawn from a pool made in advance (timestamps stay inside
 * the server's 300 s window since a run is far shorter). The generator's CPU share is reported:
 * on 2 cores it competes with the server.
 *
 *   node --import tsx bench/read-path.ts          # SQLite and PostgreSQL, bench/results/read-path.json
 *   BENCH_DB=sqlite BENCH_SECONDS=10 node --import tsx bench/read-path.ts
 *   BENCH_PROFILE=/tmp/prof …                     # server CPU profile (--cpu-prof)
 *   BENCH_OUT=/tmp/read-path.json …               # write elsewhere
 */
import { fork } from 'node:child_process'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import {
  authorizationHeader,
  HEADER,
  osInfoHeader,
  randomUuid,
  xSign,
} from '@numisma/contracts/signing'
import { openDatabase } from '../apps/server/src/platform/db'
import { loadPublicApps, type PublicApps } from '../apps/server/src/platform/public-apps'
import { SettingsRepository } from '../apps/server/src/platform/settings-repository'
import {
  cpuSecondsOf,
  insertUsers,
  machineInfo,
  percentile,
  pgAvailable,
  root,
  scratchDatabase,
  startServer,
  writeReport,
  type BenchUser,
} from './support'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 12)
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP ?? 3)
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16)
const USERS = 40
/** Share of main-service requests made signed in. */
const SIGNED_IN_SHARE = 0.3
/** Share of visitors whose browser keeps responses and revalidates them with If-None-Match. */
const CACHING_SHARE = 0.5
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
const OUT = process.env.BENCH_OUT ?? path.join(root, 'bench', 'results', 'read-path.json')
const TMP = process.env.BENCH_TMP ?? '/tmp/readpath-bench'
/**
 * `BENCH_SERVERS=before=/tmp/a,after=/tmp/b`: run each database against several checkouts of the
 * server (e.g. `git archive` of two commits, node_modules linked), back to back, so their ratio
 * comes from one run on one machine. Unset: this checkout only.
 */
const SERVERS: Array<{ label: string; root: string }> = process.env.BENCH_SERVERS
  ? process.env.BENCH_SERVERS.split(',').map((pair) => {
      const [label, dir] = pair.split('=')
      return { label: label!, root: path.resolve(dir!) }
    })
  : [{ label: 'current', root }]

type DbKind = 'sqlite' | 'postgres'
const DB_ORDER: readonly DbKind[] = ['sqlite', 'postgres']
const DATABASES: DbKind[] = process.env.BENCH_DB
  ? [process.env.BENCH_DB as DbKind].filter((d) => DB_ORDER.includes(d))
  : [...DB_ORDER]

type Group = 'home' | 'special' | 'lot' | 'search'
interface RouteSpec {
  name: string
  group: Group
  service: 'main' | 'search'
  /** Path after the service base, query included. */
  path: string
  weight: number
}
interface WorkerConfig {
  base: string
  seconds: number
  warmupSeconds: number
  connections: number
  routes: RouteSpec[]
  users: BenchUser[]
  apps: PublicApps
  seed: number
  /** Local address the worker's sockets bind to (ephemeral ports are per source address). */
  localAddress: string
}
interface WorkerResult {
  latencies: Record<string, number[]>
  statuses: Record<string, number>
  measuredSeconds: number
  cpuMs: number
  signedInRequests: number
  notModified: number
}

// ---------------------------------------------------------------------------------------------
// The worker: one process, `connections` loops over one keep-alive agent.

function mulberry32(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

async function runWorker(config: WorkerConfig): Promise<WorkerResult> {
  const random = mulberry32(config.seed)
  const agent = new http.Agent({
    keepAlive: true,
    maxSockets: config.connections,
    localAddress: config.localAddress,
  })
  const osInfo = osInfoHeader()
  // The X-Sign pool: enough for the whole run at a rate above any this machine reaches.
  const poolSize = Math.ceil((config.seconds + config.warmupSeconds) * 8_000)
  const timestamp = String(Date.now())
  const signs: Array<{ nonce: string; sign: string }> = new Array<{ nonce: string; sign: string }>(
    poolSize,
  )
  for (let i = 0; i < poolSize; i++) {
    const nonce = randomUuid()
    signs[i] = { nonce, sign: xSign(nonce, timestamp, config.apps.signSecret) }
  }
  let nextSign = 0
  const takeSign = () => {
    if (nextSign < poolSize) return signs[nextSign++]!
    const nonce = randomUuid()
    const now = String(Date.now())
    return { nonce, sign: xSign(nonce, now, config.apps.signSecret), timestamp: now }
  }
  // Route choice by cumulative weight.
  const total = config.routes.reduce((s, r) => s + r.weight, 0)
  const cumulative: number[] = []
  let acc = 0
  for (const r of config.routes) cumulative.push((acc += r.weight / total))
  const pick = () => {
    const x = random()
    for (let i = 0; i < cumulative.length; i++) if (x < cumulative[i]!) return config.routes[i]!
    return config.routes.at(-1)!
  }
  // Authorization per (credential, path): the HMAC covers method, path and device only.
  const authCache = new Map<string, string>()
  const authorization = (appId: string, key: string, signedPath: string, device: string) => {
    const k = `${appId}|${signedPath}|${device}`
    let v = authCache.get(k)
    if (v === undefined) {
      v = authorizationHeader(appId, key, 'GET', signedPath, device)
      authCache.set(k, v)
    }
    return v
  }

  const latencies: Record<string, number[]> = {}
  for (const r of config.routes) latencies[r.name] = []
  const statuses: Record<string, number> = {}
  let signedInRequests = 0
  let notModified = 0
  let measuring = false
  const start = performance.now()
  const measureFrom = start + config.warmupSeconds * 1000
  const deadline = measureFrom + config.seconds * 1000
  const cpuAtStart = { value: process.cpuUsage() }
  setTimeout(() => {
    measuring = true
    // The coordinator reads the server's CPU time from here, not from when it forked us.
    process.send?.({ measuring: true })
    cpuAtStart.value = process.cpuUsage()
  }, config.warmupSeconds * 1000)

  const visitor = async (index: number) => {
    const device = `bench-device-${config.seed}-${index}`
    const browserCache = random() < CACHING_SHARE ? new Map<string, string>() : undefined
    const user = config.users[index % config.users.length]!
    while (performance.now() < deadline) {
      const route = pick()
      const signedIn = route.service === 'main' && random() < SIGNED_IN_SHARE
      const cut = route.path.indexOf('?')
      const signedPath = cut === -1 ? route.path : route.path.slice(0, cut)
      const {
        nonce,
        sign,
        timestamp: ts,
      } = takeSign() as {
        nonce: string
        sign: string
        timestamp?: string
      }
      const appId = signedIn
        ? user.id
        : route.service === 'main'
          ? config.apps.h5.id
          : config.apps.search.id
      const key = signedIn
        ? user.key
        : route.service === 'main'
          ? config.apps.h5.key
          : config.apps.search.key
      const headers: Record<string, string> = {
        [HEADER.appId]: appId,
        [HEADER.deviceId]: device,
        [HEADER.osInfo]: osInfo,
        [HEADER.authorization]: authorization(appId, key, signedPath, device),
        [HEADER.nonce]: nonce,
        [HEADER.timestamp]: ts ?? timestamp,
        [HEADER.sign]: sign,
        'accept-encoding': 'gzip, deflate, br',
        'accept-language': 'zh-CN',
      }
      if (signedIn) {
        headers[HEADER.userId] = String(user.userId)
        headers.cookie = `sid=${user.sid}`
      }
      const cacheKey = `${signedIn ? 'u' : 'a'}${route.service}${route.path}`
      const etag = browserCache?.get(cacheKey)
      if (etag) headers['if-none-match'] = etag
      const url = `${config.base}/svc/${route.service}${route.path}`
      const began = performance.now()
      const res = await new Promise<{ status: number; etag: string | undefined }>(
        (resolve, reject) => {
          const req = http.request(url, { agent, headers }, (response) => {
            response.on('data', () => undefined)
            response.on('end', () =>
              resolve({
                status: response.statusCode ?? 0,
                etag: response.headers.etag,
              }),
            )
          })
          req.on('error', reject)
          req.end()
        },
      ).catch(() => ({ status: 0, etag: undefined }))
      const elapsed = performance.now() - began
      if (!measuring || began < measureFrom) continue
      latencies[route.name]!.push(elapsed)
      statuses[res.status] = (statuses[res.status] ?? 0) + 1
      if (signedIn) signedInRequests++
      if (res.status === 304) notModified++
      if (browserCache && res.status === 200 && res.etag) browserCache.set(cacheKey, res.etag)
    }
  }
  await Promise.all(Array.from({ length: config.connections }, (_, i) => visitor(i)))
  const cpu = process.cpuUsage(cpuAtStart.value)
  agent.destroy()
  return {
    latencies,
    statuses,
    measuredSeconds: (performance.now() - measureFrom) / 1000,
    cpuMs: (cpu.user + cpu.system) / 1000,
    signedInRequests,
    notModified,
  }
}

if (process.argv.includes('--worker')) {
  process.once('message', (config: WorkerConfig) => {
    runWorker(config).then(
      (result) => process.send!(result, () => process.exit(0)),
      (error: unknown) => {
        console.error(error)
        process.exit(1)
      },
    )
  })
} else {
  await main()
}

// ---------------------------------------------------------------------------------------------
// The coordinator.

/** User + system CPU time of a process so far, in ms (Linux /proc). */
function processCpuMs(pid: number): number {
  return (cpuSecondsOf(pid) ?? 0) * 1000
}

/** Sessions written straight to the database, as bids.ts does: signing in is not what is measured. */
async function prepareUsers(url: string | undefined, sqliteFile: string) {
  const database = await openDatabase({ url, sqliteFile })
  const users = await insertUsers(database, USERS, (i) => ({
    phone: `1390000${String(i).padStart(4, '0')}`,
    nickname: `reader${i}`,
    deviceId: `bench-user-${i}`,
  }))
  const apps = await loadPublicApps(new SettingsRepository(database.db))
  await database.close()
  return { users, apps }
}

/** One signed anonymous GET, to learn the seeded ids. */
async function signedGet<T>(base: string, apps: PublicApps, service: 'main' | 'search', p: string) {
  const appPair = service === 'main' ? apps.h5 : apps.search
  const nonce = randomUuid()
  const timestamp = String(Date.now())
  const res = await fetch(`${base}/svc/${service}${p}`, {
    headers: {
      [HEADER.appId]: appPair.id,
      [HEADER.deviceId]: 'bench-setup',
      [HEADER.osInfo]: osInfoHeader(),
      [HEADER.authorization]: authorizationHeader(
        appPair.id,
        appPair.key,
        'GET',
        p.split('?')[0]!,
        'bench-setup',
      ),
      [HEADER.nonce]: nonce,
      [HEADER.timestamp]: timestamp,
      [HEADER.sign]: xSign(nonce, timestamp, apps.signSecret),
    },
  })
  if (!res.ok) throw new Error(`GET ${p}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

async function routesOf(base: string, apps: PublicApps): Promise<RouteSpec[]> {
  const specials = await signedGet<{ data: Array<{ id: number; status: string }> }>(
    base,
    apps,
    'main',
    '/special/V1',
  )
  const specialIds = specials.data.map((s) => s.id)
  const lotIds: number[] = []
  for (const id of specialIds) {
    const detail = await signedGet<{ data: { lots: Array<{ id: number }> } }>(
      base,
      apps,
      'main',
      `/special/${id}`,
    )
    lotIds.push(...detail.data.lots.map((l) => l.id))
  }
  if (specialIds.length === 0 || lotIds.length === 0) throw new Error('the demo seed has no lots')
  // The home page's calls (spec §7 "Home and info") once per visit, then what a visitor opens.
  const routes: RouteSpec[] = [
    {
      name: 'home: /meta/@category',
      group: 'home',
      service: 'main',
      path: '/meta/@category',
      weight: 4,
    },
    {
      name: 'home: /mall/categoryTree',
      group: 'home',
      service: 'main',
      path: '/mall/categoryTree',
      weight: 4,
    },
    {
      name: 'home: /mall/advertis/0',
      group: 'home',
      service: 'main',
      path: '/mall/advertis/0',
      weight: 4,
    },
    { name: 'home: /special/V1', group: 'home', service: 'main', path: '/special/V1', weight: 4 },
    { name: 'home: /pub/@time', group: 'home', service: 'main', path: '/pub/@time', weight: 4 },
    {
      name: 'home: buying list (search)',
      group: 'search',
      service: 'search',
      path: '/api/search/wechat?type=auction&status=live&page=1&pageSize=20',
      weight: 4,
    },
    {
      name: 'home: mall list (search)',
      group: 'search',
      service: 'search',
      path: '/api/search/wechat?type=mall&page=1&pageSize=20',
      weight: 4,
    },
  ]
  const specialShare = 12 / specialIds.length
  for (const id of specialIds) {
    routes.push({
      name: '/special/{id}',
      group: 'special',
      service: 'main',
      path: `/special/${id}`,
      weight: specialShare,
    })
  }
  const lotShare = 30 / lotIds.length
  for (const id of lotIds) {
    routes.push({
      name: '/auction/{id}',
      group: 'lot',
      service: 'main',
      path: `/auction/${id}`,
      weight: lotShare,
    })
  }
  const searches = [
    '/api/search/wechat?type=auction&keyword=%E9%93%B6%E5%85%83&status=all',
    '/api/search/wechat?type=auction&status=live&sort=price_desc&page=2',
    '/api/search/wechat?type=auction&status=live&sort=bids',
    '/api/search/wechat?type=mall&keyword=%E9%92%B1%E5%B8%81',
  ]
  for (const p of searches) {
    routes.push({
      name: 'search (keyword, sort, page)',
      group: 'search',
      service: 'search',
      path: p,
      weight: 10 / searches.length,
    })
  }
  return routes
}

function summary(values: number[], seconds: number) {
  const sorted = Float64Array.from(values).sort()
  return {
    requests: sorted.length,
    requestsPerSecond: Math.round(sorted.length / seconds),
    latencyMs: {
      p50: Number(percentile(sorted, 50).toFixed(2)),
      p99: Number(percentile(sorted, 99).toFixed(2)),
      max: Number((sorted.at(-1) ?? 0).toFixed(2)),
    },
  }
}

async function run(kind: DbKind, server: { label: string; root: string }) {
  const database = await scratchDatabase(kind, 'readpath-bench', TMP)
  const serverProcess = await startServer(
    {
      DATABASE_URL: database.url ?? '',
      NUMISMA_ENV: 'production',
      NODE_ENV: 'production',
      SEED: 'demo',
      SMS_PROVIDER: 'sandbox',
      PAY_PASSWORD_PEPPER: 'read-path-bench-pepper-0123456789',
      NUMISMA_ADMIN_PASSWORD: 'read-path-bench-admin',
      REDIS_URL,
      DATA_DIR: database.dir,
    },
    // The demo seed takes longer to start than an empty database.
    { cwd: server.root, attempts: 300 },
  )
  const { child, base } = serverProcess
  try {
    const { users, apps } = await prepareUsers(database.url, database.sqliteFile)
    const routes = await routesOf(base, apps)
    const serverCpuBefore = { value: 0 }
    const started = Date.now()
    const results = await Promise.all(
      Array.from({ length: WORKERS }, (_, w) => {
        const worker = fork(path.join(root, 'bench', 'read-path.ts'), ['--worker'], {
          cwd: root,
          execArgv: ['--import', 'tsx'],
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        })
        const config: WorkerConfig = {
          base,
          seconds: SECONDS,
          warmupSeconds: WARMUP_SECONDS,
          connections: CONNECTIONS,
          routes,
          users,
          apps,
          seed: 1000 + w,
          localAddress: `127.0.0.${2 + w}`,
        }
        worker.send(config)
        return new Promise<WorkerResult>((resolve, reject) => {
          worker.on('message', (m: WorkerResult | { measuring: true }) => {
            if (!('measuring' in m)) return resolve(m)
            // The first worker to start measuring starts the server's CPU window.
            if (serverCpuBefore.value === 0) serverCpuBefore.value = processCpuMs(child.pid!)
          })
          worker.once('exit', (code) => code !== 0 && reject(new Error(`worker exited ${code}`)))
        })
      }),
    )
    const serverCpuMs = processCpuMs(child.pid!) - serverCpuBefore.value
    const seconds = Math.max(...results.map((r) => r.measuredSeconds))
    const byRoute: Record<string, number[]> = {}
    const byGroup: Record<string, number[]> = {}
    const all: number[] = []
    const statuses: Record<string, number> = {}
    for (const r of results) {
      for (const [name, values] of Object.entries(r.latencies)) {
        ;(byRoute[name] ??= []).push(...values)
        const group = routes.find((x) => x.name === name)!.group
        ;(byGroup[group] ??= []).push(...values)
        all.push(...values)
      }
      for (const [s, n] of Object.entries(r.statuses)) statuses[s] = (statuses[s] ?? 0) + n
    }
    const generatorCpuMs = results.reduce((s, r) => s + r.cpuMs, 0)
    const overall = summary(all, seconds)
    const result = {
      database: kind,
      server: server.label,
      catalogue: {
        specials: routes.filter((r) => r.group === 'special').length,
        lots: routes.filter((r) => r.group === 'lot').length,
      },
      seconds: Number(seconds.toFixed(2)),
      workers: WORKERS,
      connections: WORKERS * CONNECTIONS,
      overall,
      statuses,
      signedInRequests: results.reduce((s, r) => s + r.signedInRequests, 0),
      notModified: results.reduce((s, r) => s + r.notModified, 0),
      cpu: {
        // Shares of the machine's cores over the measured window (1.0 = one core busy).
        server: Number((serverCpuMs / 1000 / seconds).toFixed(2)),
        generator: Number((generatorCpuMs / 1000 / seconds).toFixed(2)),
        cores: os.cpus().length,
      },
      groups: Object.fromEntries(Object.entries(byGroup).map(([k, v]) => [k, summary(v, seconds)])),
      routes: Object.fromEntries(Object.entries(byRoute).map(([k, v]) => [k, summary(v, seconds)])),
    }
    console.log(
      `${kind} (${server.label}): ${overall.requestsPerSecond} req/s, p50 ${overall.latencyMs.p50} ms, p99 ${overall.latencyMs.p99} ms, max ${overall.latencyMs.max} ms; cpu server ${result.cpu.server}, generator ${result.cpu.generator}`,
      statuses,
      `(${((Date.now() - started) / 1000).toFixed(1)} s)`,
    )
    return result
  } finally {
    await serverProcess.stop()
    await database.drop()
  }
}

async function main() {
  const results = []
  for (const database of DATABASES) {
    if (database === 'postgres' && !(await pgAvailable())) {
      console.warn('PostgreSQL not reachable: PostgreSQL skipped')
      continue
    }
    for (const server of SERVERS) results.push(await run(database, server))
  }
  const report = {
    benchmark:
      'catalogue reads over HTTP (signed, production mode, Redis nonces; one server process, load from separate processes on the same machine)',
    date: new Date().toISOString(),
    machine: {
      ...machineInfo(),
      loadAverage1m: Number(os.loadavg()[0]!.toFixed(2)),
      note: process.env.BENCH_NOTE ?? '',
    },
    settings: {
      seconds: SECONDS,
      warmupSeconds: WARMUP_SECONDS,
      workers: WORKERS,
      connectionsPerWorker: CONNECTIONS,
      signedInShare: SIGNED_IN_SHARE,
      revalidatingVisitorShare: CACHING_SHARE,
      target: '≥ 5,000 req/s overall with p99 ≤ 50 ms',
      servers: process.env.BENCH_SERVERS_NOTE ?? SERVERS.map((s) => s.label).join(', '),
    },
    results,
  }
  writeReport(OUT, report)
}
