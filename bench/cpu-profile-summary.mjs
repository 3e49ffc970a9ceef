/**
 * Where a server's time goes, from a V8 CPU profile (`BENCH_PROFILE=dir npm run bench:bids` writes
 * one per server process): every sample is attributed to the first frame, from the leaf up, that
 * belongs to a known area — native calls (better-sqlite3's run/all, and the fsync inside COMMIT)
 * count for the code that called them. Samples are wall-clock: blocked time (fsync) counts too.
 *
 *   node bench/cpu-profile-summary.mjs <file>.cpuprofile [requests] [accepted]
 */
import fs from 'node:fs'
const p = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'))
const requests = Number(process.argv[3] ?? 0),
  accepted = Number(process.argv[4] ?? 0)
const byId = new Map(p.nodes.map((n) => [n.id, n]))
const parent = new Map()
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
const area = (cf) => {
  const u = cf.url,
    f = cf.functionName
  if (f === '(idle)') return 'idle (waiting for I/O)'
  if (f === '(garbage collector)') return 'GC'
  if (
    /^node:internal\/(modules|bootstrap)|\/tsx\/|esbuild|cjs-module-lexer/.test(u) ||
    /compileSourceTextModule|wrapSafe/.test(f)
  )
    return 'startup (module loading)'
  if (/platform\/transactions/.test(u)) return 'COMMIT/BEGIN/SAVEPOINT (fsync)'
  if (/nonce-store/.test(u)) return 'nonce claim (SQLite nonce file)'
  if (/request-signing|@noble|contracts\/src\/signing|platform\/crypto/.test(u))
    return 'signature verification'
  if (
    /bidding\/(repository|reads-repository)|passport\/repository|notices\/repository|catalog\/repository|idempotency|settings-repository|platform\/db\.ts/.test(
      u,
    )
  )
    return 'SQL (repositories: build+run)'
  if (/kysely/.test(u)) return null // inherit: attributed to the repository that called it
  if (/better-sqlite3/.test(u)) return null
  if (/packages\/domain/.test(u)) return 'bid engine (domain)'
  if (/zod|secure-json-parse|fast-json-stringify|schemas|contracts\/src/.test(u))
    return 'JSON parse/validate/serialise'
  if (/pino|sonic-boom|redact/.test(u)) return 'logging'
  if (/helmet/.test(u)) return 'security headers (helmet)'
  if (
    /modules\/bidding|modules\/passport|platform\/(app|auth|guard|session)|apps\/server\/src/.test(
      u,
    )
  )
    return 'app code (routes, services, hooks)'
  if (
    /fastify|find-my-way|avvio|light-my-request|@fastify|content-type|node:http|_http|net|stream|events/.test(
      u,
    )
  )
    return 'HTTP (fastify, node http/net)'
  if (f === '(program)') return 'native (program)'
  return null
}
const totals = new Map()
let total = 0
for (let i = 0; i < p.samples.length; i++) {
  const d = p.timeDeltas[i] ?? 0
  total += d
  let id = p.samples[i],
    a = null
  while (id !== undefined && a === null) {
    a = area(byId.get(id).callFrame)
    id = parent.get(id)
  }
  a ??= 'other'
  totals.set(a, (totals.get(a) ?? 0) + d)
}
const startup = totals.get('startup (module loading)') ?? 0
console.log(
  `profile ${(total / 1e6).toFixed(1)} s, of which startup ${(startup / 1e6).toFixed(1)} s`,
)
for (const [k, t] of [...totals].sort((a, b) => b[1] - a[1])) {
  const per = requests ? `  ${(t / 1000 / requests).toFixed(3).padStart(6)} ms/request` : ''
  const perA = accepted ? `  ${(t / 1000 / accepted).toFixed(3).padStart(6)} ms/accepted` : ''
  console.log(
    `${(t / 1000).toFixed(0).padStart(6)} ms ${((100 * t) / (total - startup)).toFixed(1).padStart(5)}%${per}${perA}  ${k}`,
  )
}
