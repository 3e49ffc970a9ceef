/**
 * What one nonce claim costs in each store (ADR 029): sequential claims of fresh nonces, as the
 * signing hook makes them. PostgreSQL and Redis are measured when reachable.
 *
 *   node --import tsx bench/nonce-claims.ts
 *   BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/bench REDIS_URL=redis://127.0.0.1:6379 \
 *     node --import tsx bench/nonce-claims.ts
 */
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import { systemClock } from '../apps/server/src/platform/clock'
import { openDatabase } from '../apps/server/src/platform/db'
import {
  DatabaseNonceStore,
  MemoryNonceStore,
  type NonceStore,
  RedisNonceStore,
  SqliteNonceStore,
} from '../apps/server/src/platform/nonce-store'

const CLAIMS = Number(process.env.BENCH_CLAIMS ?? 20_000)

function report(name: string, started: bigint, claims: number): void {
  const us = Number(process.hrtime.bigint() - started) / 1000 / claims
  console.log(`${name.padEnd(40)} ${us.toFixed(1).padStart(7)} µs per claim (${claims} claims)`)
}

async function measure(name: string, store: NonceStore, claims = CLAIMS): Promise<void> {
  const nonces = Array.from({ length: claims }, () => `h5:${randomUUID()}`)
  for (let i = 0; i < 500; i++) await store.claim(`warm:${randomUUID()}`)
  const started = process.hrtime.bigint()
  for (const nonce of nonces) if (!(await store.claim(nonce))) throw new Error('claim refused')
  report(name, started, claims)
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'numisma-nonce-bench-'))
try {
  await measure('memory', new MemoryNonceStore(systemClock))
  const file = SqliteNonceStore.open(path.join(dir, 'nonces.db'), systemClock)
  await measure('SQLite file, WAL, synchronous=NORMAL', file)
  await file.close()

  // For comparison: the same row with synchronous=FULL, what a claim in the main database costs.
  const full = new SQLite(path.join(dir, 'full.db'))
  full.pragma('journal_mode = WAL')
  full.pragma('synchronous = FULL')
  full.exec('create table n (nonce text primary key, expires_at integer not null) without rowid')
  const insert = full.prepare('insert into n values (?, ?) on conflict do nothing')
  const fullClaims = Math.min(CLAIMS, 2000)
  const started = process.hrtime.bigint()
  for (let i = 0; i < fullClaims; i++) insert.run(`h5:${randomUUID()}`, Date.now())
  report('(same insert with synchronous=FULL)', started, fullClaims)
  full.close()

  if (process.env.BENCH_PG_URL) {
    const pg = await openDatabase({ url: process.env.BENCH_PG_URL, poolSize: 4 })
    await measure('PostgreSQL table', new DatabaseNonceStore(pg.db, systemClock), 5000)
    await pg.db.deleteFrom('request_nonces').execute()
    await pg.close()
  }
  if (process.env.REDIS_URL) {
    const redis = await RedisNonceStore.connect(process.env.REDIS_URL)
    await measure('Redis SET NX PX', redis, 5000)
    await redis.close()
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true })
}
