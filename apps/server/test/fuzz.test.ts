import { createHash } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { isErrorCode } from '@numisma/contracts/errors'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { StaffService } from '../src/modules/staff/service'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { injectedWechatPay } from './helpers/payments'
import { injectedWechatMp } from './helpers/wechat'
import {
  type FuzzRequest,
  type FuzzRoute,
  invalidRequest,
  type OpenApiDocument,
  prng,
  Rng,
  routesOf,
} from './helpers/fuzz/generate'

/**
 * Input fuzzing (issue 15, deliverable 1): every route the app registers gets generated invalid
 * requests, signed so they reach the handlers. None may answer 5xx, every refusal is a 4xx
 * `{code, message}` with a catalogued code, and no refused request may change the database.
 * FUZZ_REQUESTS and FUZZ_SEED change the run; the seed makes a failure reproducible.
 */
const databases = await testDatabases()
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10_000)
const SEED = Number(process.env.FUZZ_SEED ?? 20261126)
const HOUR = 3_600_000
/** Requests between two database snapshots (a multiple of PARALLEL). */
const BATCH = 20
/** Requests in flight at once: enough to overlap PostgreSQL's round trips on two cores. */
const PARALLEL = 4

/**
 * Registered routes deliberately left out of the fuzzing, each with its reason. A route the app
 * registers that is neither fuzzed nor listed here fails the first test, so a new route is fuzzed
 * without anyone remembering to add it.
 */
const EXCLUDED: { match: (method: string, path: string) => boolean; reason: string }[] = [
  {
    match: (_m, p) => p.startsWith('/svc/sandbox/'),
    reason:
      'stand-ins for the outside platforms (WeChat pay, official account, SMS gateway) that only our own clients call, mounted only while no real provider is configured; not our API',
  },
  {
    match: (_m, p) => p.startsWith('/svc/docs'),
    reason: "@fastify/swagger-ui's static pages and the OpenAPI document: no input of ours",
  },
  {
    match: (m) => m === 'HEAD',
    reason: 'Fastify answers HEAD with the GET handler, which is fuzzed',
  },
  {
    match: (_m, p) => p === '/svc/main/passport/logout' || p === '/svc/main/admin/logout',
    reason:
      'take no input and end the very session every other request signs with; passport and staff tests cover them',
  },
  {
    match: (_m, p) => WEBSOCKETS.includes(p),
    reason:
      'WebSocket upgrades (push, chat, staff chat): no body or query; a plain GET of each is checked below, their frames are flooded in push-flood.test.ts and the chat socket tests',
  },
  {
    match: (_m, p) => p === '/' || p === '/passport' || p.startsWith('/admin'),
    reason: 'the web app HTML shell: no input, not under /svc',
  },
]

const WEBSOCKETS = ['/svc/push/ws', '/svc/push/chat', '/svc/main/admin/chat/ws']

const excludedBecause = (method: string, path: string) =>
  EXCLUDED.find((e) => e.match(method, path))?.reason

/** `printRoutes({ commonPrefix: false })`'s tree as "METHOD /path" lines, `:name` as `{name}`. */
function registeredRoutes(tree: string): string[] {
  const out: string[] = []
  const stack: string[] = []
  for (const line of tree.split('\n')) {
    const m = /^([\s│]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line)
    if (!m) continue
    const depth = m[1]!.length / 4
    stack.length = depth
    stack[depth] = m[2]!
    if (!m[3]) continue
    let path = stack.join('').replace(/:([A-Za-z0-9_]+)/g, '{$1}')
    if (!path.startsWith('/')) path = `/${path}`
    for (const method of m[3].split(',').map((s) => s.trim())) out.push(`${method} ${path}`)
  }
  return out
}

/** Every table's rows as a hash, to tell whether a batch of refused requests changed anything. */
async function snapshot(t: TestApp): Promise<Map<string, string>> {
  const tables =
    t.database.dialect === 'postgres'
      ? await sql<{
          name: string
        }>`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`.execute(
          t.database.db,
        )
      : await sql<{
          name: string
        }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(
          t.database.db,
        )
  const hashes = new Map<string, string>()
  for (const { name } of tables.rows) {
    if (UNTRACKED_TABLES.has(name)) continue
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(
      t.database.db,
    )
    const lines = rows.rows
      .map((r) =>
        JSON.stringify(r, (_k, v: unknown) => (Buffer.isBuffer(v) ? v.toString('hex') : v)),
      )
      .sort()
    hashes.set(name, createHash('sha256').update(lines.join('\n')).digest('hex'))
  }
  return hashes
}

/**
 * Tables a refused request changes by design; nothing else is excluded (rate limits live in
 * memory, and sessions are not touched by a refused request).
 * - request_nonces: every signed request claims its nonce before any validation, so replay
 *   protection does not depend on the body (ADR 029).
 * - staff_audit: every staff write, accepted or refused, is logged with its status (ADR 021).
 * - wechat_oauth_codes: a sign-in code is claimed before the platform is asked, so a code is
 *   exchanged once however it answers; a code the platform refuses stays claimed, like a nonce.
 */
const UNTRACKED_TABLES = new Set(['request_nonces', 'staff_audit', 'wechat_oauth_codes'])

function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  const names = new Set([...before.keys(), ...after.keys()])
  return [...names].filter((n) => before.get(n) !== after.get(n))
}

/**
 * The pay platform's notice: the platform, not a client of ours, reads its handler's answers, so
 * the handler refuses with the platform's own `<xml><return_code>FAIL…` document; what Fastify
 * refuses before the handler (content type, malformed body) is `{code, message}` like elsewhere.
 */
const PAY_NOTIFY = '/svc/main/pay/notify/wechat'

type Caller = 'staff' | 'buyer' | 'search' | 'unsigned'

function callerOf(path: string): Caller {
  if (path.startsWith('/svc/main/admin')) return 'staff'
  // The platform's pay notice is verified by the platform's own signature, not ours.
  if (path === PAY_NOTIFY) return 'unsigned'
  if (path.startsWith('/svc/main/')) return 'buyer'
  if (path.startsWith('/svc/search/')) return 'search'
  return 'unsigned'
}

interface Problem {
  request: FuzzRequest
  status: number
  body: string
  why: string
}

const clip = (s: string | undefined, n = 300) =>
  s && s.length > n ? `${s.slice(0, n)}…(${s.length})` : s

describe.each(databases)('fuzzing every route with invalid input on $name', (kind) => {
  let t: TestApp
  let buyer: Session
  let staffCookie: string
  let otherMember: number
  let routes: FuzzRoute[]

  beforeAll(async () => {
    const many = 1_000_000
    // The platform's sandboxes (official account, pay) reached through inject: this app never
    // listens on a port, and a call that needs its address would fail for that reason alone.
    const wechat = injectedWechatMp()
    const pay = injectedWechatPay()
    t = await createTestApp(kind, {
      wechatMp: wechat.options,
      wechatPay: pay.options,
      rateLimit: {
        sms: many,
        smsPerCaller: many,
        login: many,
        staffLogin: many,
        remittance: many,
        payPassword: many,
      },
    })
    wechat.attach(t.app)
    pay.attach(t.app)
    const password = 'staff-fuzz-password'
    await StaffService.forDatabase(t.database, t.clock).bootstrap(password)
    const login = await t.inject({
      method: 'POST',
      url: '/svc/main/admin/login',
      payload: { username: 'admin', password },
    })
    staffCookie = login.cookies.find((c) => c.name === 'staff_sid')?.value ?? ''
    expect(staffCookie).not.toBe('')
    buyer = await t.signIn()
    otherMember = (
      await StaffService.forDatabase(t.database, t.clock).create({
        username: 'fuzz-member',
        password,
        roles: ['cashier'],
      })
    ).id
    // Something for the ids to name, so requests with one bad piece reach past "not found".
    const admin = (url: string, payload: object) =>
      t.inject({
        method: 'POST',
        url: `/svc/main/admin${url}`,
        cookies: { staff_sid: staffCookie },
        payload,
      })
    const special = await admin('/specials', {
      title: '测试专场',
      startsAt: new Date(t.clock.now() - HOUR).toISOString(),
      endsAt: new Date(t.clock.now() + 2 * HOUR).toISOString(),
    })
    const specialId = special.json<{ data: { id: number } }>().data.id
    expect(
      (await admin('/lots', { specialId, title: '拍品', startPrice: 10_000 })).statusCode,
    ).toBe(200)
    expect((await admin('/mall-items', { title: '商品', price: 1000, stock: 5 })).statusCode).toBe(
      200,
    )
    routes = routesOf(t.app.swagger() as unknown as OpenApiDocument).filter(
      (r) => !excludedBecause(r.method, r.path),
    )
  }, 60_000)
  afterAll(() => t?.close())

  it('fuzzes every registered route but those excluded with a reason', () => {
    // Parameter names aside: the router prints one node for `/auction/:id` and `/auction/:ids`.
    const shape = (line: string) => line.replace(/\{[^/]*\}/g, '{}')
    const fuzzed = new Set(routes.map((r) => shape(`${r.method} ${r.path}`)))
    const missed = registeredRoutes(t.app.printRoutes({ commonPrefix: false })).filter((line) => {
      const [method, path] = line.split(' ') as [string, string]
      return !fuzzed.has(shape(line)) && !excludedBecause(method, path)
    })
    expect(missed).toEqual([])
    expect(routes.length).toBeGreaterThan(150)
  })

  it('refuses a plain GET (no upgrade) of every socket route with a coded 404', async () => {
    for (const url of WEBSOCKETS) {
      const res = await t.inject({
        method: 'GET',
        url,
        cookies: { sid: buyer.sid, staff_sid: staffCookie },
      })
      expect({ url, status: res.statusCode, code: res.json<{ code?: string }>().code }).toEqual({
        url,
        status: 404,
        code: 'NOT_FOUND',
      })
    }
  })

  it(`answers ${REQUESTS} invalid requests with coded 4xx refusals and leaves the database as it was`, async () => {
    const rng = new Rng(prng(SEED))
    const fixed = { userId: buyer.userId, id: '1', orderId: '1', specialId: '1', lotId: '1' }
    // A staff member's id names another one, not the admin signing the requests: an accepted
    // change of roles or password would otherwise end the session every staff request uses.
    const memberFixed = { ...fixed, id: String(otherMember) }
    const fixedFor = (route: FuzzRoute) =>
      route.path.includes('/staff-members/') ? memberFixed : fixed
    const tally = new Map<number, number>()
    const byKind = new Map<string, number>()
    const problems: Problem[] = []
    let accepted = 0
    const codes = new Map<string, number>()
    const acceptedWrites = new Map<string, number>()
    let verifiedBatches = 0
    let skippedBatches = 0
    const started = Date.now()

    const send = async (route: FuzzRoute, request: FuzzRequest) => {
      const caller = callerOf(route.path)
      const pathOnly = request.url.split('?')[0]!
      const headers: Record<string, string> = {}
      if (request.contentType) headers['content-type'] = request.contentType
      if (caller === 'buyer' || caller === 'search') {
        const prefix = caller === 'buyer' ? '/svc/main' : '/svc/search'
        Object.assign(
          headers,
          t.sign({
            method: request.method,
            path: pathOnly.slice(prefix.length),
            ...(caller === 'buyer' ? { as: buyer } : { service: 'search' as const }),
          }),
        )
      }
      const cookies: Record<string, string> =
        caller === 'staff'
          ? { staff_sid: staffCookie }
          : caller === 'buyer'
            ? { sid: buyer.sid }
            : {}
      return t.inject({
        method: request.method,
        url: request.url,
        headers,
        cookies,
        ...(request.payload === undefined ? {} : { payload: request.payload }),
      })
    }

    let before = await snapshot(t)
    let batchAccepted = false
    for (let first = 0; first < REQUESTS; first += PARALLEL) {
      // Generated in order (the seed decides every request), sent a few at a time.
      const group = Array.from({ length: Math.min(PARALLEL, REQUESTS - first) }, (_, k) => {
        const route = routes[(first + k) % routes.length]!
        return { route, request: invalidRequest(route, rng, fixedFor(route)) }
      })
      const answers = await Promise.all(group.map((g) => send(g.route, g.request)))
      for (const [k, { route, request }] of group.entries()) {
        const i = first + k
        const res = answers[k]!
        byKind.set(request.kind, (byKind.get(request.kind) ?? 0) + 1)
        tally.set(res.statusCode, (tally.get(res.statusCode) ?? 0) + 1)
        if (res.statusCode >= 400) {
          const code = res.body.startsWith('{')
            ? String(res.json<{ code?: unknown }>().code)
            : 'other'
          codes.set(code, (codes.get(code) ?? 0) + 1)
        }
        const problem = (why: string) =>
          problems.push({ request, status: res.statusCode, body: clip(res.body, 400)!, why })
        if (res.statusCode >= 500) {
          problem('5xx')
        } else if (res.statusCode >= 400) {
          let body: { code?: unknown; message?: unknown } | undefined
          try {
            body = res.json()
          } catch {
            body = undefined
          }
          if (route.path === PAY_NOTIFY && res.body.includes('<return_code><![CDATA[FAIL]]>')) {
            // the platform's own refusal document
          } else if (!String(res.headers['content-type']).startsWith('application/json'))
            problem('not JSON')
          else if (
            !body ||
            !isErrorCode(body.code) ||
            typeof body.message !== 'string' ||
            !body.message
          ) {
            problem('refusal without a catalogued {code, message}')
          }
        } else {
          // The generator breaks one piece of a request it cannot always prove breaks the contract
          // (an extra query key that is ignored, a string field that takes any text). An accepted GET
          // changes nothing, so its batch is still checked; any other accepted request may change
          // the database, so its batch is not.
          accepted++
          if (request.method !== 'GET') {
            batchAccepted = true
            acceptedWrites.set(
              `${request.method} ${route.path}`,
              (acceptedWrites.get(`${request.method} ${route.path}`) ?? 0) + 1,
            )
          }
        }
        if ((i + 1) % BATCH === 0 || i === REQUESTS - 1) {
          const after = await snapshot(t)
          if (batchAccepted) {
            skippedBatches++
          } else {
            verifiedBatches++
            const changed = changedTables(before, after)
            if (changed.length) {
              problems.push({
                request,
                status: 0,
                body: '',
                why: `refused requests ${i + 1 - BATCH}–${i} changed ${changed.join(', ')}`,
              })
            }
          }
          before = after
          batchAccepted = false
        }
      }
    }

    const seconds = (Date.now() - started) / 1000
    const statuses = [...tally.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`)
    console.log(
      `[fuzz ${kind.name}] ${REQUESTS} requests over ${routes.length} routes in ${seconds.toFixed(1)} s (seed ${SEED})\n` +
        `  statuses ${statuses.join(', ')}\n` +
        `  codes ${[...codes.entries()]
          .sort(([, a], [, b]) => b - a)
          .map(([c, n]) => `${c}: ${n}`)
          .join(', ')}\n` +
        `  mutations ${[...byKind.entries()].map(([k, n]) => `${k}: ${n}`).join(', ')}\n` +
        `  accepted ${accepted}; database checked after ${verifiedBatches} batches of refusals (${skippedBatches} batches held an accepted write)`,
    )
    if (process.env.FUZZ_DUMP) {
      const dump = { acceptedWrites: [...acceptedWrites.entries()], problems }
      writeFileSync(`${process.env.FUZZ_DUMP}-${kind.name}.json`, JSON.stringify(dump, null, 1))
    }
    const report = problems.slice(0, 25).map((p) => ({
      why: p.why,
      status: p.status,
      kind: p.request.kind,
      request: `${p.request.method} ${clip(p.request.url, 200)}`,
      contentType: p.request.contentType,
      payload: clip(p.request.payload, 200),
      body: p.body,
    }))
    expect(report).toEqual([])
  }, 240_000)
})
