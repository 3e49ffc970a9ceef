/**
 * The write path alone, without HTTP: C concurrent callers each run bid-shaped write transactions
 * (read a lot row, insert a bid row, update the lot) through `writeTransaction` on a SQLite file in
 * WAL with synchronous=FULL, for a fixed time. Says what sharing the fsync buys on this disk
 * (docs/decisions/031-sqlite-group-commit.md), apart from everything else a bid request costs.
 *
 *   node --import tsx bench/group-commit.ts          # BENCH_SECONDS=3 BENCH_CLIENTS=16
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { openDatabase } from '../apps/server/src/platform/db'
import { writeTransaction } from '../apps/server/src/platform/transactions'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3)
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 16)

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'numisma-gc-bench-'))
const database = await openDatabase({ sqliteFile: path.join(dir, 'numisma.db') })
await sql`create table gc_lots (id integer primary key, price integer not null)`.execute(
  database.db,
)
await sql`create table gc_bids (id integer primary key, lot_id integer, amount integer, at integer)`.execute(
  database.db,
)
await sql`insert into gc_lots values (1, 0)`.execute(database.db)

const latencies: number[] = []
const deadline = performance.now() + SECONDS * 1000
const cpuBefore = process.cpuUsage()
const started = performance.now()
await Promise.all(
  Array.from({ length: CLIENTS }, async () => {
    while (performance.now() < deadline) {
      const t0 = performance.now()
      await writeTransaction(database, async (tx) => {
        const lot = await sql<{ price: number }>`select price from gc_lots where id = 1`.execute(tx)
        const price = lot.rows[0]!.price + 1
        await sql`insert into gc_bids (lot_id, amount, at) values (1, ${price}, ${Date.now()})`.execute(
          tx,
        )
        await sql`update gc_lots set price = ${price} where id = 1`.execute(tx)
      })
      latencies.push(performance.now() - t0)
    }
  }),
)
const seconds = (performance.now() - started) / 1000
const cpu = process.cpuUsage(cpuBefore)
latencies.sort((a, b) => a - b)
const p = (q: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!
const final = await sql<{ price: number }>`select price from gc_lots where id = 1`.execute(
  database.db,
)
if (final.rows[0]!.price !== latencies.length) throw new Error('lost or doubled writes')
console.log(
  JSON.stringify({
    clients: CLIENTS,
    transactionsPerSecond: Math.round(latencies.length / seconds),
    p50: Number(p(0.5).toFixed(2)),
    p99: Number(p(0.99).toFixed(2)),
    cpuMsPerTransaction: Number(((cpu.user + cpu.system) / 1000 / latencies.length).toFixed(3)),
  }),
)
await database.close()
fs.rmSync(dir, { recursive: true, force: true })
