/**
 * Push fan-out (issue 14, item 6): one bid reaches the WebSocket watchers of a lot; target p99 ≤
 * 200 ms for 5,000 watchers.
 *
 * The server runs as its own process, as production runs it; 5,000 anonymous watchers of one lot
 * are held by two watcher processes (push-watchers.ts, spread over loopback source addresses);
 * this process places BENCH_BIDS signed bids over HTTP, one at a time, each once every watcher has
 * the previous one. Each delivery's latency is the time from the bid's HTTP send to the watcher's
 * receipt. SQLite (in-process bus) and, when reachable, PostgreSQL with the Redis bus, which is
 * production's path: the event goes out through Redis and comes back to the instance's sockets.
 *
 *   node --import tsx bench/push-fanout.ts
 *   BENCH_WATCHERS=2000 BENCH_BIDS=10 BENCH_ONLY=sqlite node --import tsx bench/push-fanout.ts
 *   BENCH_PROFILE=/tmp/prof node --import tsx bench/push-fanout.ts   # server CPU profile
 */
import http from 'node:http'
import { nextAmount } from '@numisma/domain/increments'
import { openDatabase } from '../apps/server/src/platform/db'
import { loadPublicApps } from '../apps/server/src/platform/public-apps'
import { SettingsRepository } from '../apps/server/src/platform/settings-repository'
import { machine, startProductionServer, WatcherProcess, writeResult } from './push-harness'
import { wallClock } from './push-watchers'
import {
  insertOpenLots,
  insertUsers,
  percentile,
  pgAvailable,
  postJson,
  round,
  scratchDatabase,
  signedInHeaders,
  type BenchUser,
} from './support'

const WATCHERS = Number(process.env.BENCH_WATCHERS ?? 5000)
const BIDS = Number(process.env.BENCH_BIDS ?? 20)
const PROCESSES = Number(process.env.BENCH_WATCHER_PROCESSES ?? 2)
/** How long one bid may take to reach every watcher before the run counts it missing. */
const DELIVERY_TIMEOUT_MS = 5000
const TARGET_P99_MS = 200

async function prepare(url: string | undefined, sqliteFile: string) {
  const database = await openDatabase({ url, sqliteFile })
  // Two bidders taking turns: a leader's second bid would be ALREADY_LEADING.
  const bidders = await insertUsers(
    database,
    2,
    (i) => ({ phone: `1390000${i}000`, nickname: `fanout${i}`, deviceId: `fanout-${i}` }),
    10_000_000_000,
  )
  const [lotId] = await insertOpenLots(database, 'fan-out bench', 1, () => 'fan-out lot')
  const apps = await loadPublicApps(new SettingsRepository(database.db))
  await database.close()
  return { bidders, lotId: lotId!, signSecret: apps.signSecret }
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 })

function bid(base: string, bidder: BenchUser, signSecret: string, body: string) {
  const headers = signedInHeaders(
    bidder,
    signSecret,
    `fanout-${bidder.userId}`,
    'POST',
    '/bidding/bid',
  )
  return postJson(agent, `${base}/svc/main/bidding/bid`, headers, body)
}

async function run(kind: 'sqlite' | 'postgres') {
  const database = await scratchDatabase(kind, 'numisma-fanout')
  const fixture = await prepare(database.url, database.sqliteFile)
  const server = await startProductionServer(database.env)
  const watchers = Array.from({ length: PROCESSES }, () => new WatcherProcess())
  try {
    // Open every watcher; each subscribes to the lot and waits for its snapshot.
    const share = Math.ceil(WATCHERS / PROCESSES)
    const opened = await Promise.all(
      watchers.map((w, i) =>
        w.ask({
          cmd: 'open',
          base: server.base,
          lotIds: [fixture.lotId],
          count: Math.min(share, WATCHERS - i * share),
          firstIndex: i * share,
          concurrency: 50,
          expectedEvents: BIDS + 2,
        }),
      ),
    )
    const open = opened.reduce((n, o) => n + o.open, 0)
    console.log(
      `${kind}: ${open} watchers subscribed in ${round(Math.max(...opened.map((o) => o.ms)) / 1000, 1)} s`,
      opened.flatMap((o) => o.errors).slice(0, 3),
    )

    const sentAt = new Map<number, number>()
    const acceptedMs: number[] = []
    const allDeliveredMs: number[] = []
    let amount = 10_000
    let missing = 0
    for (let i = 0; i < BIDS; i++) {
      const bidder = fixture.bidders[i % 2]!
      const body = JSON.stringify({ lotId: fixture.lotId, amount, proxy: false })
      const started = wallClock()
      const res = await bid(server.base, bidder, fixture.signSecret, body)
      const answered = wallClock()
      if (res.status !== 200) throw new Error(`bid refused: ${JSON.stringify(res.json)}`)
      const data = res.json.data as { price: number; bidCount: number }
      sentAt.set(data.bidCount, started)
      acceptedMs.push(answered - started)
      amount = nextAmount(data.price)
      // The next bid once every watcher has this one, so deliveries of two bids do not overlap.
      const deadline = started + DELIVERY_TIMEOUT_MS
      for (;;) {
        const statuses = await Promise.all(
          watchers.map((w) => w.ask({ cmd: 'status', bidCount: data.bidCount })),
        )
        const have = statuses.reduce((n, s) => n + s.have, 0)
        if (have >= open) {
          allDeliveredMs.push(wallClock() - started)
          break
        }
        if (wallClock() > deadline) {
          missing += open - have
          break
        }
        await new Promise((r) => setTimeout(r, 5))
      }
    }

    const reports = await Promise.all(watchers.map((w) => w.ask({ cmd: 'report' })))
    const latencies: number[] = []
    let unmatched = 0
    for (const report of reports) {
      for (let i = 0; i < report.deliveries; i++) {
        const sent = sentAt.get(report.bidCounts[i]!)
        if (sent === undefined) unmatched += 1
        else latencies.push(report.times[i]! - sent)
      }
    }
    latencies.sort((a, b) => a - b)
    acceptedMs.sort((a, b) => a - b)
    const result = {
      database: kind,
      bus: kind === 'postgres' ? 'redis' : 'in-process',
      watchers: open,
      watcherProcesses: PROCESSES,
      bids: BIDS,
      deliveries: latencies.length,
      expectedDeliveries: open * BIDS,
      missing,
      unmatched,
      stillOpenAtEnd: reports.reduce((n, r) => n + r.open, 0),
      closeCodes: reports.map((r) => r.closeCodes),
      deliveryMs: {
        p50: round(percentile(latencies, 50)),
        p99: round(percentile(latencies, 99)),
        max: round(latencies.at(-1) ?? 0),
      },
      bidAnsweredMs: {
        p50: round(percentile(acceptedMs, 50)),
        max: round(acceptedMs.at(-1) ?? 0),
      },
      /** Per bid, the time until the last watcher had it (polled every ~5 ms, so a bound). */
      lastWatcherMs: {
        p50: round(
          percentile(
            [...allDeliveredMs].sort((a, b) => a - b),
            50,
          ),
        ),
        max: round(Math.max(...allDeliveredMs)),
      },
      targetP99Ms: TARGET_P99_MS,
      meetsTarget: percentile(latencies, 99) <= TARGET_P99_MS && missing === 0,
    }
    console.log(
      `${kind}: ${result.deliveries}/${result.expectedDeliveries} deliveries, p50 ${result.deliveryMs.p50} ms, ` +
        `p99 ${result.deliveryMs.p99} ms, max ${result.deliveryMs.max} ms`,
    )
    return result
  } finally {
    await Promise.all(watchers.map((w) => w.close()))
    await server.stop()
    await database.drop()
  }
}

const only = process.env.BENCH_ONLY
const results = only === 'postgres' ? [] : [await run('sqlite')]
if (only === 'sqlite') console.warn('BENCH_ONLY=sqlite: PostgreSQL + Redis skipped')
else if (await pgAvailable()) results.push(await run('postgres'))
else console.warn('PostgreSQL not reachable: PostgreSQL + Redis skipped')
agent.destroy()

writeResult('push-fanout.json', {
  benchmark:
    'push fan-out: one signed bid over HTTP to the WebSocket watchers of its lot (one server ' +
    'process in production mode, watchers in separate processes, loopback)',
  command: 'node --import tsx bench/push-fanout.ts',
  date: new Date().toISOString(),
  machine: machine(),
  settings: {
    watchers: WATCHERS,
    bids: BIDS,
    watcherProcesses: PROCESSES,
    latency:
      "from the bid's HTTP send (bench process) to the watcher's receipt (watcher process), " +
      'wall clock shared by the processes; bids one at a time, the next once every watcher ' +
      'has the previous one',
    sourceAddresses: 'watchers spread over 127.0.x.y, 30 per address (push cap: 32 per address)',
  },
  results,
})
