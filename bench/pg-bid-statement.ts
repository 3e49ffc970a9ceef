/**
 * Where a bid's time goes inside PostgreSQL (issue 14, item 1; ADR 030): the bid statement
 * `numisma_place_bids` called directly from one connection — no HTTP, no server — with
 * `track_functions = 'all'`, so PostgreSQL reports each PL/pgSQL port's own time. Three scenarios:
 * accepted bids each on its own statement, over 200 lots (`spread`) and on one lot (`hot`), and
 * stale bids (below the minimum) sixteen to a statement, as they queue on a hot lot (`stale`).
 *
 *   node --import tsx bench/pg-bid-statement.ts       # bench/results/pg-bid-statement.json
 *   BENCH_BIDS=4000 BENCH_OUT=/tmp/s.json node --import tsx bench/pg-bid-statement.ts
 *
 * `wallMsPerBid` includes the round trip and the commit (fsync) of each statement; the functions'
 * `selfMs` are PostgreSQL's own CPU in each, the statements they run included.
 */
import path from 'node:path'
import { nextAmount } from '@numisma/domain/increments'
import pg from 'pg'
import { openDatabase } from '../apps/server/src/platform/db'
import {
  insertOpenLots,
  insertUsers,
  machineInfo,
  pgAvailable,
  root,
  round,
  scratchDatabase,
  writeReport,
} from './support'

const BIDS = Number(process.env.BENCH_BIDS ?? 1600)
const OUT = process.env.BENCH_OUT ?? path.join(root, 'bench', 'results', 'pg-bid-statement.json')
const STALE_BATCH = 16
const LOTS = 200
const BIDDERS = 16

type Scenario = 'spread' | 'hot' | 'stale'

interface Bid {
  lotId: number
  userId: number
  amount: number
  proxy: boolean
  key: null
  hash: string
}

async function measure(scenario: Scenario) {
  const database = await scratchDatabase('postgres', 'numisma-pg-statement')
  try {
    const opened = await openDatabase({ url: database.url, sqliteFile: database.sqliteFile })
    const bidders = await insertUsers(
      opened,
      BIDDERS,
      (i) => ({
        phone: `1390000${String(i).padStart(4, '0')}`,
        nickname: `statement${i}`,
        deviceId: `statement-${i}`,
      }),
      10_000_000_000,
    )
    const lots = await insertOpenLots(opened, 'statement', LOTS + 1, (i) => `lot ${i + 1}`)
    await opened.close()

    const client = new pg.Client({ connectionString: database.url })
    await client.connect()
    const place = async (bids: Bid[]) => {
      const { rows } = await client.query<{ results: Array<{ error?: string }> }>(
        'select numisma_place_bids($1::jsonb, $2, 10, 86400000) as results',
        [JSON.stringify(bids), Date.now()],
      )
      return rows[0]!.results
    }
    const bid = (lotId: number, i: number, amount: number): Bid => ({
      lotId,
      userId: bidders[i % BIDDERS]!.userId,
      amount,
      proxy: false,
      key: null,
      hash: '0'.repeat(64),
    })

    // Each bid is its lot's next minimum on the default grid, from another bidder.
    const next = new Map<number, number>()
    const accepted = (lotId: number, i: number) => {
      const amount = next.get(lotId) ?? 10_000
      next.set(lotId, nextAmount(amount))
      return bid(lotId, i, amount)
    }
    if (scenario === 'stale') await place([bid(lots[0]!, 0, 1_000_000)])

    await client.query("set track_functions = 'all'")
    const outcomes: Record<string, number> = {}
    const started = performance.now()
    for (let i = 0; i < BIDS;) {
      const batch =
        scenario === 'stale'
          ? // Anyone but the leader (bidder 0), far below the price.
            Array.from({ length: STALE_BATCH }, (_, j) =>
              bid(lots[0]!, 1 + (j % (BIDDERS - 1)), 10_000),
            )
          : [accepted(scenario === 'hot' ? lots[0]! : lots[1 + (i % LOTS)]!, i)]
      for (const result of await place(batch)) {
        const outcome = result.error ?? 'accepted'
        outcomes[outcome] = (outcomes[outcome] ?? 0) + 1
      }
      i += batch.length
    }
    const wallMs = performance.now() - started
    // The session's function counters reach the shared statistics when it is told to flush.
    await client.query('select pg_stat_force_next_flush()')
    await client.query('select 1')
    const { rows } = await client.query<{
      funcname: string
      calls: string
      self_time: number
      total_time: number
    }>('select funcname, calls, self_time, total_time from pg_stat_user_functions')
    await client.end()
    const bids = Object.values(outcomes).reduce((a, b) => a + b, 0)
    return {
      scenario,
      bids,
      bidsPerStatement: scenario === 'stale' ? STALE_BATCH : 1,
      outcomes,
      wallMsPerBid: round(wallMs / bids, 3),
      functions: rows
        .sort((a, b) => b.self_time - a.self_time)
        .map((r) => ({
          name: r.funcname,
          callsPerBid: round(Number(r.calls) / bids, 2),
          selfMsPerBid: round(r.self_time / bids, 3),
          totalMsPerBid: round(r.total_time / bids, 3),
        })),
    }
  } finally {
    await database.drop()
  }
}

if (!(await pgAvailable())) {
  console.warn('PostgreSQL not reachable: pg-bid-statement skipped')
  process.exit(0)
}
const results = []
for (const scenario of ['spread', 'hot', 'stale'] as const) {
  const result = await measure(scenario)
  const top = result.functions
    .slice(0, 3)
    .map((f) => `${f.name} ${f.selfMsPerBid}`)
    .join(', ')
  console.log(
    `${scenario}: ${result.wallMsPerBid} ms per bid (wall, ${result.bidsPerStatement} per statement); self ms per bid: ${top}`,
    result.outcomes,
  )
  results.push(result)
}
writeReport(OUT, {
  benchmark:
    'numisma_place_bids called directly on one connection, track_functions = all (ADR 030)',
  date: new Date().toISOString(),
  machine: machineInfo(),
  settings: { bids: BIDS, lots: LOTS, bidders: BIDDERS, staleBidsPerStatement: STALE_BATCH },
  results,
})
