/**
 * Idle connections (issue 14, item 6): how many idle push WebSockets one server instance holds,
 * its memory per connection, and whether it still answers /svc/health promptly while it holds them.
 *
 * The server runs as its own process, as production runs it (SQLite); two watcher processes
 * (push-watchers.ts) open the sockets from loopback source addresses 127.0.x.y, 30 per address
 * (the push role's cap is 32), and each subscribes to one of 20 lots, as a page watching a lot
 * does, then stays silent. The count is what the server's open-files limit allows: every socket
 * is a file descriptor, so BENCH_CONNECTIONS (default 20,000) is lowered to the limit less the
 * descriptors the server already holds and a small reserve (health calls, the database).
 *
 *   node --import tsx bench/idle-connections.ts
 *   BENCH_CONNECTIONS=5000 BENCH_HOLD_SECONDS=5 node --import tsx bench/idle-connections.ts
 */
import fs from 'node:fs'
import http from 'node:http'
import { openDatabase } from '../apps/server/src/platform/db'
import {
  machine,
  openFilesLimitOf,
  openFilesOf,
  rssOf,
  startProductionServer,
  WatcherProcess,
  writeResult,
} from './push-harness'
import { insertOpenLots, percentile, round, scratchDatabase } from './support'

const WANTED = Number(process.env.BENCH_CONNECTIONS ?? 20_000)
/** 70 s: two rounds of the server's socket heartbeat (30 s), so holding includes pinging them all. */
const HOLD_SECONDS = Number(process.env.BENCH_HOLD_SECONDS ?? 70)
const PROCESSES = 2
const LOTS = 20
/** Descriptors kept free in the server: health calls, the database's files, a log line's pipe. */
const RESERVE_FDS = 24
const HEALTH_CALLS = 300

async function prepare(sqliteFile: string): Promise<number[]> {
  const database = await openDatabase({ sqliteFile })
  const ids = await insertOpenLots(database, 'idle bench', LOTS, (i) => `idle lot ${i + 1}`)
  await database.close()
  return ids
}

/** Sequential GET /svc/health on one kept-alive connection: latency percentiles in ms. */
async function health(base: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  const times: number[] = []
  let failures = 0
  for (let i = 0; i < HEALTH_CALLS; i++) {
    const started = performance.now()
    const status = await new Promise<number>((resolve) => {
      http
        .get(`${base}/svc/health`, { agent }, (res) => {
          res.resume()
          res.on('end', () => resolve(res.statusCode ?? 0))
        })
        .on('error', () => resolve(0))
    })
    times.push(performance.now() - started)
    if (status !== 200) failures += 1
  }
  agent.destroy()
  times.sort((a, b) => a - b)
  return {
    calls: HEALTH_CALLS,
    failures,
    p50: round(percentile(times, 50)),
    p99: round(percentile(times, 99)),
    max: round(times.at(-1) ?? 0),
  }
}

/** TCP memory of the whole machine, in KiB (/proc/net/sockstat counts pages; other programs too). */
function tcpKernelKiB(): number {
  const pages = /TCP: .* mem (\d+)/.exec(fs.readFileSync('/proc/net/sockstat', 'utf8'))
  return pages ? Number(pages[1]) * 4 : 0
}

const database = await scratchDatabase('sqlite', 'numisma-idle')
const lotIds = await prepare(database.sqliteFile)
const server = await startProductionServer(database.env)
const pid = server.child.pid!
const watchers = Array.from({ length: PROCESSES }, () => new WatcherProcess())
try {
  // A first round warms the server up (compilation); the second is the idle figure.
  await health(server.base)
  const healthIdle = await health(server.base)
  const limit = openFilesLimitOf(pid)
  const baselineFds = openFilesOf(pid)
  const rssBefore = rssOf(pid)
  const kernelBefore = tcpKernelKiB()
  const target = Math.min(WANTED, limit.soft - baselineFds - RESERVE_FDS)
  console.log(
    `server: open-files limit ${limit.soft}/${limit.hard}, ${baselineFds} descriptors at rest: ` +
      `opening ${target} of the ${WANTED} sockets asked for`,
  )

  const share = Math.ceil(target / PROCESSES)
  const opened = await Promise.all(
    watchers.map((w, i) =>
      w.ask(
        {
          cmd: 'open',
          base: server.base,
          lotIds,
          count: Math.min(share, target - i * share),
          firstIndex: i * share,
          concurrency: 100,
          expectedEvents: 0,
        },
        300_000,
      ),
    ),
  )
  const open = opened.reduce((n, o) => n + o.open, 0)
  const openSeconds = Math.max(...opened.map((o) => o.ms)) / 1000
  console.log(
    `${open} sockets open and subscribed in ${round(openSeconds, 1)} s`,
    opened.flatMap((o) => o.errors).slice(0, 3),
  )

  await new Promise((r) => setTimeout(r, HOLD_SECONDS * 1000))
  const rssHolding = rssOf(pid)
  const fdsHolding = openFilesOf(pid)
  const kernelHolding = tcpKernelKiB()
  const healthHolding = await health(server.base)
  const statuses = await Promise.all(watchers.map((w) => w.ask({ cmd: 'status', bidCount: 0 })))
  const stillOpen = statuses.reduce((n, s) => n + s.open, 0)
  const perConnection = (rssHolding - rssBefore) / Math.max(1, open)
  const result = {
    connectionsAsked: WANTED,
    openFilesLimit: limit,
    serverDescriptorsAtRest: baselineFds,
    reserveDescriptors: RESERVE_FDS,
    connectionsOpened: open,
    failed: opened.reduce((n, o) => n + o.failed, 0),
    whyNotMore:
      open < WANTED
        ? `one socket is one descriptor: the server's open-files limit (${limit.soft}, hard ` +
          `${limit.hard}, not raisable here) less the ${baselineFds} it holds at rest and a ` +
          `reserve of ${RESERVE_FDS}`
        : null,
    secondsToOpenAndSubscribe: round(openSeconds, 1),
    heldSeconds: HOLD_SECONDS,
    stillOpenAfterHold: stillOpen,
    serverDescriptorsHolding: fdsHolding,
    serverRssMiB: {
      atRest: round(rssBefore / 2 ** 20, 1),
      holding: round(rssHolding / 2 ** 20, 1),
    },
    rssPerConnectionKiB: round(perConnection / 1024, 1),
    kernelTcpMemoryKiB: {
      before: kernelBefore,
      holding: kernelHolding,
      note: 'whole machine (/proc/net/sockstat), both ends of every socket and other programs',
    },
    extrapolated: {
      connections: 20_000,
      serverRssMiB: round((rssBefore + perConnection * 20_000) / 2 ** 20, 0),
      note:
        'linear from the measured RSS per connection; needs an open-files limit above ~20,100 ' +
        '(LimitNOFILE), which this machine cannot grant',
    },
    healthMs: { idleServer: healthIdle, holdingConnections: healthHolding },
  }
  console.log(
    `${open} idle sockets: RSS ${result.serverRssMiB.atRest} → ${result.serverRssMiB.holding} MiB ` +
      `(${result.rssPerConnectionKiB} KiB per connection); health p99 ${healthIdle.p99} → ` +
      `${healthHolding.p99} ms; ${stillOpen} still open after ${HOLD_SECONDS} s`,
  )
  writeResult('idle-connections.json', {
    benchmark:
      'idle push WebSockets held by one server process (production mode, SQLite), clients in ' +
      'two other processes, loopback',
    command: 'node --import tsx bench/idle-connections.ts',
    date: new Date().toISOString(),
    machine: machine(),
    settings: {
      holdSeconds: HOLD_SECONDS,
      lots: LOTS,
      sourceAddresses: 'sockets spread over 127.0.x.y, 30 per address (push cap: 32 per address)',
      healthCalls: `${HEALTH_CALLS} sequential GET /svc/health on one keep-alive connection`,
    },
    result,
  })
} finally {
  await Promise.all(watchers.map((w) => w.close()))
  await server.stop()
  await database.drop()
}
