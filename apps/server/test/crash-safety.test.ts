import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { COOKIE } from '@numisma/contracts/cookies'
import { HEADER, osInfoHeader, signedHeaders } from '@numisma/contracts/signing'
import { nextAmount, type PriceStep } from '@numisma/domain/increments'
import { afterAll, describe, expect, it } from 'vitest'
import { type Database, openDatabase } from '../src/platform/db'
import { createPostgresDatabase, type PostgresDatabase, testDatabases } from './helpers/databases'
import { expectLedgerSound } from './helpers/ledger'
import { readLotRecord } from './helpers/lot-record'
import {
  type Answer,
  fetchSigningConfig,
  type SessionCredentials,
  sendSigned,
  ServerProcess,
  type SigningConfig,
  signRequest,
  sleep,
} from './helpers/server-process'

/**
 * Crash safety (issue 15, deliverable 2): the real server process takes bids, mall orders,
 * balance payments and staff's counter credits from concurrent clients over HTTP, and is killed
 * with SIGKILL while requests are in flight, then restarted on the same data — three times per
 * database. Afterwards every acknowledged bid, order, payment and credit is there exactly once;
 * every request lost in a kill was applied entirely or not at all (its Idempotency-Key retries,
 * two at once, answer for it); nothing is half-applied: the ledger balances, each buyer's balance
 * is what the acknowledged credits and payments make it, stock + units ordered = initial, and
 * each lot's price and leader are those its bid history gives.
 */
const ADMIN_PASSWORD = 'crash-safety-admin-password'
const PAY_PASSWORD = '246802'
const BUYERS = 8
const WORKERS_PER_BUYER = 2
const LOTS = 4
const START_PRICE = 1_000
const CLOSING_LOTS = 6
const CLOSING_STAGGER_SECONDS = 3
const MALL_ITEMS = 3
const MALL_STOCK = 120
const MALL_PRICE = 1_500
const CYCLES = 3
const DEPOSIT = 50_000_000
const BALANCE = 5_000_000

const databases = (await testDatabases()).map((d) => d.name)

// --- Signed HTTP clients -----------------------------------------------------------------------

type Buyer = SessionCredentials

class Api {
  config!: SigningConfig
  staffCookie = ''

  constructor(private readonly server: ServerProcess) {}

  /** After each (re)start: the public signing config and a fresh staff session. */
  async connect(): Promise<void> {
    this.config = await fetchSigningConfig(this.server.baseUrl)
    const login = await fetch(`${this.server.baseUrl}/svc/main/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    })
    if (!login.ok) throw new Error(`staff login → ${login.status} ${await login.text()}`)
    this.staffCookie = login.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ')
  }

  /** A call signed like the web client (a fresh nonce and timestamp every time). */
  call(
    method: 'GET' | 'POST',
    pathAfterBase: string,
    options: { as?: Buyer; body?: unknown; key?: string; deviceId?: string } = {},
  ): Promise<Answer> {
    return sendSigned(
      this.server.baseUrl,
      signRequest(this.config, method, pathAfterBase, {
        deviceId: 'crash-safety',
        ...options,
      }),
    )
  }

  /** A staff call under an Idempotency-Key, answered whatever its status. */
  async staffCall(pathAfterSvcMain: string, body: unknown, key: string): Promise<Answer> {
    const res = await fetch(`${this.server.baseUrl}/svc/main${pathAfterSvcMain}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: this.staffCookie,
        [HEADER.idempotencyKey]: key,
      },
      body: JSON.stringify(body),
    })
    return { status: res.status, body: await res.json() }
  }

  async staff(pathAfterAdmin: string, body: unknown): Promise<unknown> {
    const res = await fetch(`${this.server.baseUrl}/svc/main/admin${pathAfterAdmin}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: this.staffCookie },
      body: JSON.stringify(body),
    })
    const json = (await res.json()) as { data: unknown }
    if (!res.ok) throw new Error(`staff ${pathAfterAdmin} → ${res.status} ${JSON.stringify(json)}`)
    return json.data
  }

  async signIn(mobile: string): Promise<Buyer> {
    const deviceId = `device-${mobile}`
    const sent = await this.call('POST', '/passport/sms', { body: { mobile }, deviceId })
    const devCode = (sent.body as { data?: { devCode?: string } }).data?.devCode
    if (sent.status !== 200 || !devCode) throw new Error(`sms → ${JSON.stringify(sent)}`)
    const res = await fetch(`${this.server.baseUrl}/svc/main/passport/login`, {
      method: 'POST',
      headers: {
        ...signedHeaders({
          method: 'POST',
          path: '/passport/login',
          appId: this.config.apps.h5.id,
          key: this.config.apps.h5.key,
          deviceId,
          signSecret: this.config.signSecret,
          osInfo: osInfoHeader(),
        }),
        'content-type': 'application/json',
      },
      body: JSON.stringify({ mobile, code: devCode, agreement: true }),
    })
    const json = (await res.json()) as { data: { userId: string; id: string; key: string } }
    if (!res.ok) throw new Error(`login → ${res.status} ${JSON.stringify(json)}`)
    const sid = res.headers
      .getSetCookie()
      .map((line) => line.split(';')[0]!.split('='))
      .find(([name]) => name === COOKIE.sid)?.[1]
    if (!sid) throw new Error('no sid cookie')
    return { userId: json.data.userId, id: json.data.id, key: json.data.key, sid, deviceId }
  }
}

// --- What the clients sent and heard -------------------------------------------------------------

type Kind = 'bid' | 'buy' | 'pay' | 'credit'

interface Sent {
  kind: Kind
  buyer: number
  path: string
  body: Record<string, unknown>
  key: string
  cycle: number
  /** `lost`: no answer (the process died under it, or was already dead). */
  outcome: 'acked' | 'refused' | 'lost'
  answer?: Answer
  /** For a lost request: when the server it was sent again to had restarted. */
  retriedAfter?: number
}

interface BidBody {
  lotId: number
  amount: number
  proxy: boolean
}

interface BidData {
  lotId: number
  price: number
  bidCount: number
  leading: boolean
}

interface BuyData {
  status: string
  orderId?: number
}

interface PayData {
  status: string
  paymentId: number
  orderIds: number[]
  amount: number
}

/** Whether an answer says the request took effect (a purchase answers 200 when it did not). */
function applied(kind: Kind, answer: Answer): boolean {
  if (answer.status < 200 || answer.status >= 300) return false
  return kind !== 'buy' || (answer.body as { data: BuyData }).data.status === 'SUCCESS'
}

/** An acknowledged answer's `data`, in the shape of its kind. */
const dataOf = (sent: Sent): unknown => (sent.answer!.body as { data: unknown }).data
const bidData = (sent: Sent) => dataOf(sent) as BidData
const buyData = (sent: Sent) => dataOf(sent) as BuyData
const payData = (sent: Sent) => dataOf(sent) as PayData

// --- The scenario ------------------------------------------------------------------------------

interface World {
  buyers: Buyer[]
  /** Every lot bid on: the long ones, then those closing one by one during the kills. */
  lotIds: number[]
  closingLotIds: number[]
  items: { id: number; productNo: string }[]
  steps: PriceStep[]
  /** The least each lot was last seen to take (bids aim at it or up to two steps above). */
  minimum: Map<number, number>
  /** Orders a buyer was told were placed and has not yet paid (or tried to). */
  unpaid: Map<number, number[]>
  sent: Sent[]
}

async function setUp(api: Api, tag: string): Promise<World> {
  const now = Date.now()
  const special = (await api.staff('/specials', {
    title: '崩溃测试专场',
    startsAt: new Date(now - 60_000).toISOString(),
    endsAt: new Date(now + 3_600_000).toISOString(),
    softCloseWindowSeconds: 0,
  })) as { id: number }
  const lotIds: number[] = []
  for (let i = 0; i < LOTS; i++) {
    const lot = (await api.staff('/lots', {
      specialId: special.id,
      title: `崩溃测试拍品 ${i + 1}`,
      startPrice: START_PRICE,
    })) as { id: number }
    lotIds.push(lot.id)
  }
  const items: World['items'] = []
  for (let i = 0; i < MALL_ITEMS; i++) {
    items.push(
      (await api.staff('/mall-items', {
        title: `崩溃测试商品 ${i + 1}`,
        price: MALL_PRICE,
        stock: MALL_STOCK,
      })) as { id: number; productNo: string },
    )
  }
  const buyers = await Promise.all(
    Array.from({ length: BUYERS }, async (_, i) => {
      const buyer = await api.signIn(`137${tag}${String(i).padStart(4, '0')}`)
      await api.staff(`/users/${buyer.userId}/deposit`, { amount: DEPOSIT })
      await api.staff(`/users/${buyer.userId}/balance`, { amount: BALANCE })
      const set = await api.call('POST', '/user/@setPayPass', {
        as: buyer,
        body: { password: PAY_PASSWORD },
      })
      if (set.status !== 200) throw new Error(`setPayPass → ${JSON.stringify(set)}`)
      return buyer
    }),
  )
  // Lots that close every few seconds from now on, so the closing sweeper runs across the kills.
  const closing = (await api.staff('/specials', {
    title: '崩溃测试即将结拍',
    startsAt: new Date(Date.now() - 60_000).toISOString(),
    endsAt: new Date(Date.now() + 3_000).toISOString(),
    staggerSeconds: CLOSING_STAGGER_SECONDS,
    softCloseWindowSeconds: 0,
  })) as { id: number }
  const closingLotIds: number[] = []
  for (let i = 0; i < CLOSING_LOTS; i++) {
    const lot = (await api.staff('/lots', {
      specialId: closing.id,
      title: `崩溃测试结拍拍品 ${i + 1}`,
      startPrice: START_PRICE,
    })) as { id: number }
    closingLotIds.push(lot.id)
  }
  const steps = (await api.call('GET', '/bidding/price-step')).body as { data: PriceStep[] }
  return {
    buyers,
    lotIds: [...lotIds, ...closingLotIds],
    closingLotIds,
    items,
    steps: steps.data,
    minimum: new Map(),
    unpaid: new Map(buyers.map((_, i) => [i, []])),
    sent: [],
  }
}

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!

/** One client's next request: a bid, a purchase, or paying an order it was told it placed. */
function nextRequest(world: World, buyer: number, cycle: number): Sent {
  const base = { buyer, cycle, key: `crash-${randomUUID()}`, outcome: 'lost' as const }
  const unpaid = world.unpaid.get(buyer)!
  const roll = Math.random()
  if (unpaid.length > 0 && roll < 0.3) {
    // One order, or now and then two in one payment.
    const orderIds = unpaid.splice(0, Math.random() < 0.3 ? 2 : 1)
    return {
      ...base,
      kind: 'pay',
      path: '/user/3_3/pay/doPay',
      body: { orderIds, method: 'balance', payPassword: PAY_PASSWORD },
    }
  }
  if (roll >= 0.3 && roll < 0.36) {
    // Cash taken at the counter: staff credit the buyer's balance.
    return {
      ...base,
      kind: 'credit',
      path: `/admin/users/${world.buyers[buyer]!.userId}/balance`,
      body: { amount: 100 * (1 + Math.floor(Math.random() * 50)) },
    }
  }
  if (roll < 0.65) {
    return {
      ...base,
      kind: 'buy',
      path: '/mallorder/createOrder',
      body: { productNo: pick(world.items).productNo, quantity: 1 + Math.floor(Math.random() * 2) },
    }
  }
  const lotId = pick(world.lotIds)
  let amount = world.minimum.get(lotId) ?? START_PRICE
  for (let extra = Math.floor(Math.random() * 3); extra > 0; extra--) {
    amount = nextAmount(amount, world.steps)
  }
  // Now and then a proxy bid with room above the price (the engine then bids for it).
  const proxy = Math.random() < 0.2
  if (proxy) for (let i = 0; i < 3; i++) amount = nextAmount(amount, world.steps)
  return { ...base, kind: 'bid', path: '/bidding/bid', body: { lotId, amount, proxy } }
}

/** What an answer teaches the clients: lot prices, placed orders. */
function learn(world: World, sent: Sent): void {
  if (sent.outcome === 'refused' && sent.kind === 'bid') {
    const details = (sent.answer!.body as { details?: { minimum?: number } }).details
    const lotId = (sent.body as unknown as BidBody).lotId
    if (details?.minimum !== undefined) {
      world.minimum.set(lotId, Math.max(world.minimum.get(lotId) ?? 0, details.minimum))
    }
  }
  if (sent.outcome !== 'acked') return
  if (sent.kind === 'bid') {
    const data = bidData(sent)
    const next = nextAmount(data.price, world.steps)
    world.minimum.set(data.lotId, Math.max(world.minimum.get(data.lotId) ?? 0, next))
  }
  if (sent.kind === 'buy') {
    const data = buyData(sent)
    if (data.status === 'SUCCESS' && data.orderId !== undefined) {
      world.unpaid.get(sent.buyer)!.push(data.orderId)
    }
  }
}

/** Sends a request (again): a buyer's signed call, or staff's for a counter credit. */
function deliver(api: Api, world: World, sent: Sent): Promise<Answer> {
  if (sent.kind === 'credit') return api.staffCall(sent.path, sent.body, sent.key)
  return api.call('POST', sent.path, {
    as: world.buyers[sent.buyer],
    body: sent.body,
    key: sent.key,
  })
}

async function send(api: Api, world: World, sent: Sent): Promise<void> {
  try {
    sent.answer = await deliver(api, world, sent)
  } catch {
    sent.outcome = 'lost'
    return
  }
  const { status } = sent.answer
  sent.outcome = status >= 200 && status < 300 ? 'acked' : status < 500 ? 'refused' : 'lost'
  if (status >= 500) throw new Error(`5xx under load: ${JSON.stringify(sent)}`)
  learn(world, sent)
}

/**
 * Clients send until the process is killed `killAfterMs` in; returns how many requests were in
 * flight at the kill.
 */
async function loadThenKill(
  api: Api,
  server: ServerProcess,
  world: World,
  cycle: number,
  killAfterMs: number,
): Promise<{ inFlight: number; sent: number }> {
  let running = true
  let inFlight = 0
  let count = 0
  const failures: unknown[] = []
  const worker = async (buyer: number) => {
    while (running) {
      const sent = nextRequest(world, buyer, cycle)
      world.sent.push(sent)
      count++
      inFlight++
      try {
        await send(api, world, sent)
      } catch (error) {
        failures.push(error)
      } finally {
        inFlight--
      }
    }
  }
  const workers = world.buyers.flatMap((_, buyer) =>
    Array.from({ length: WORKERS_PER_BUYER }, () => worker(buyer)),
  )
  await sleep(killAfterMs)
  // No new requests from here; those already sent are in flight as the process dies.
  running = false
  const atKill = inFlight
  await server.stop('SIGKILL')
  await Promise.all(workers)
  expect(failures).toEqual([])
  return { inFlight: atKill, sent: count }
}

/**
 * After the restart: every lost request is sent again with its Idempotency-Key (it either applied
 * before the kill, and the answer is replayed, or it applies now, once); a sample of acknowledged
 * ones too, whose answer must be the one first given.
 */
async function retryAfterRestart(
  api: Api,
  world: World,
  cycle: number,
  restartedAt: number,
): Promise<number> {
  const ofCycle = world.sent.filter((s) => s.cycle === cycle)
  const lost = ofCycle.filter((s) => s.outcome === 'lost')
  // The clients come back all at once, and each sends its lost request twice at the same time
  // (a retry timer and an impatient tap): whichever applies, the other must replay it.
  await Promise.all(
    lost.map(async (sent) => {
      sent.retriedAfter = restartedAt
      const [, twin] = await Promise.all([send(api, world, sent), deliver(api, world, sent)])
      expect(sent.outcome, JSON.stringify(sent)).not.toBe('lost')
      expect(twin.status, JSON.stringify(twin)).toBeLessThan(500)
      if (applied(sent.kind, sent.answer!) || applied(sent.kind, twin)) {
        expect(twin, `twin retries of ${sent.kind} ${sent.key}`).toEqual(sent.answer)
      }
    }),
  )
  // A purchase refused as sold out before its transaction keeps no result: only kept ones.
  const kept = (s: Sent) => applied(s.kind, s.answer!)
  const acked = ofCycle.filter(
    (s) => s.outcome === 'acked' && s.retriedAfter === undefined && kept(s),
  )
  const sample = [...acked].sort(() => Math.random() - 0.5).slice(0, 24)
  for (const sent of sample) {
    const again = await deliver(api, world, sent)
    expect(again, `replay of ${sent.kind} ${sent.key}`).toEqual(sent.answer)
  }
  return lost.length
}

// --- The checks ---------------------------------------------------------------------------------

/**
 * Until the last closing lot has ended and the (restarted) sweeper has closed it. Read from the
 * rows, not the API: a lot past its end already shows the outcome it will get (lotStatus), while
 * its row stays open until the sweeper's next pass — stopping the server in between failed a run.
 */
async function waitForClosing(database: Database, world: World): Promise<void> {
  const deadline = Date.now() + 30_000
  for (;;) {
    const open = await database.db
      .selectFrom('lots')
      .select(['id', 'status'])
      .where('id', 'in', world.closingLotIds)
      .where('status', '=', 'open')
      .execute()
    if (open.length === 0) return
    if (Date.now() > deadline) throw new Error(`lots still open: ${open.map((l) => l.id).join()}`)
    await sleep(250)
  }
}

async function checkOverHttp(api: Api, world: World): Promise<void> {
  const acked = world.sent.filter((s) => s.outcome === 'acked')
  // Every acknowledged direct bid is in its lot's history, as its bidder sees it, exactly once.
  const pairs = world.buyers.flatMap((buyer, buyerIndex) =>
    world.lotIds.map((lotId) => ({ buyer, buyerIndex, lotId })),
  )
  await Promise.all(
    pairs.map(async ({ buyer, buyerIndex, lotId }) => {
      const expected = acked
        .filter((s) => s.kind === 'bid' && s.buyer === buyerIndex)
        .map((s) => s.body as unknown as BidBody)
        .filter((b) => b.lotId === lotId && !b.proxy)
        .map((b) => b.amount)
      const mine: number[] = []
      for (let page = 1; ; page++) {
        const res = await api.call('GET', `/bidding/${lotId}?page=${page}&pageSize=100`, {
          as: buyer,
        })
        expect(res.status).toBe(200)
        const body = res.body as {
          data: { amount: number; auto: boolean; mine: boolean }[]
          total: number
        }
        mine.push(...body.data.filter((r) => r.mine && !r.auto).map((r) => r.amount))
        if (page * 100 >= body.total) break
      }
      expect(mine.sort(byNumber), `direct bids of buyer ${buyerIndex} on lot ${lotId}`).toEqual(
        expected.sort(byNumber),
      )
    }),
  )
}

const byNumber = (a: number, b: number) => a - b

/** What became of the requests lost in the kills, as their keys' first commits tell. */
interface LostFates {
  appliedBeforeKill: number
  appliedOnRetry: number
  notApplied: number
}

async function checkDatabase(database: Database, world: World): Promise<LostFates> {
  const db = database.db
  const acked = world.sent.filter((s) => s.outcome === 'acked')
  await expectLedgerSound(database)

  // Lots: price, leader and count are those the bid history gives (packages/domain/bid-engine:
  // every price change is a row, the last one is the leader's at the price, prices never fall;
  // only the leader keeps a live proxy maximum, never below the price).
  for (const lotId of world.lotIds) {
    const { lot, bids, proxies } = await readLotRecord(database, lotId)
    const last = bids.at(-1)
    expect(lot.bid_count, `lot ${lotId} bid count`).toBe(bids.length)
    expect(lot.price, `lot ${lotId} price`).toBe(last?.amount ?? null)
    expect(lot.leader_id, `lot ${lotId} leader`).toBe(last?.user_id ?? null)
    const amounts = bids.map((b) => b.amount)
    expect(amounts, `lot ${lotId} prices never fall`).toEqual([...amounts].sort(byNumber))
    for (const p of proxies.filter((p) => p.active === 1)) {
      expect(p.user_id, `lot ${lotId}: a live proxy belongs to the leader`).toBe(lot.leader_id)
      expect(p.max_amount).toBeGreaterThanOrEqual(lot.price ?? 0)
    }

    // Each acknowledged direct bid is one non-automatic row of its bidder at its amount, and
    // there is no other: nothing applied twice, nothing unacknowledged left behind.
    const direct = acked
      .filter((s) => s.kind === 'bid' && !(s.body as unknown as BidBody).proxy)
      .filter((s) => (s.body as unknown as BidBody).lotId === lotId)
      .map((s) => `${world.buyers[s.buyer]!.userId}:${(s.body as unknown as BidBody).amount}`)
    const rows = bids
      .filter((b) => b.auto === 0)
      .map((b) => `${b.user_id}:${b.amount}`)
      .sort()
    expect(rows, `lot ${lotId}: direct bid rows = acknowledged direct bids`).toEqual(direct.sort())
    // Each acknowledged bid's answer names a point in that history: after `bidCount` changes
    // the price was `price`.
    for (const s of acked.filter((s) => s.kind === 'bid')) {
      const data = bidData(s)
      if (data.lotId !== lotId) continue
      expect(bids[data.bidCount - 1]?.amount, `answer ${JSON.stringify(data)}`).toBe(data.price)
    }
    // Each acknowledged proxy bid left its maximum.
    for (const s of acked.filter((s) => s.kind === 'bid' && (s.body as unknown as BidBody).proxy)) {
      const body = s.body as unknown as BidBody
      if (body.lotId !== lotId) continue
      const proxy = proxies.find((p) => p.user_id === Number(world.buyers[s.buyer]!.userId))
      expect(proxy?.max_amount, `proxy ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(body.amount)
    }
  }

  // Closed lots: sold to the leader at the price with exactly one order, or unsold with no bids
  // and no order; no bid after the end; no proxy left live.
  for (const lotId of world.closingLotIds) {
    const lot = await db
      .selectFrom('lots')
      .select(['status', 'price', 'leader_id', 'ends_at', 'bid_count'])
      .where('id', '=', lotId)
      .executeTakeFirstOrThrow()
    const won = await db
      .selectFrom('orders')
      .select(['user_id', 'amount', 'kind'])
      .where('lot_id', '=', lotId)
      .execute()
    if (lot.status === 'sold') {
      expect(won, `lot ${lotId}: its one order`).toEqual([
        { user_id: lot.leader_id, amount: lot.price, kind: 'auction' },
      ])
    } else {
      expect(lot.status, `lot ${lotId}`).toBe('unsold')
      expect(lot.bid_count, `lot ${lotId}: unsold without a reserve means no bids`).toBe(0)
      expect(won).toEqual([])
    }
    const late = await db
      .selectFrom('bids')
      .select(['amount', 'created_at'])
      .where('lot_id', '=', lotId)
      .where('created_at', '>=', lot.ends_at)
      .execute()
    expect(late, `lot ${lotId}: bids at or after its end`).toEqual([])
    const live = await db
      .selectFrom('proxies')
      .select('user_id')
      .where('lot_id', '=', lotId)
      .where('active', '=', 1)
      .execute()
    expect(live, `lot ${lotId}: live proxies after the close`).toEqual([])
  }

  // Mall: the orders are exactly those acknowledged, and stock + sold = initial.
  const placed = acked
    .filter((s) => s.kind === 'buy')
    .map((s) => ({ sent: s, data: buyData(s) }))
    .filter(({ data }) => data.status === 'SUCCESS')
  const orders = await db
    .selectFrom('orders')
    .select(['id', 'user_id', 'mall_item_id', 'quantity', 'status', 'total', 'payment_id'])
    .where('kind', '=', 'mall')
    .execute()
  expect(orders.map((o) => o.id).sort(byNumber), 'mall orders = acknowledged purchases').toEqual(
    placed.map(({ data }) => data.orderId!).sort(byNumber),
  )
  for (const { sent, data } of placed) {
    const order = orders.find((o) => o.id === data.orderId)!
    const body = sent.body as { productNo: string; quantity: number }
    expect(order.user_id).toBe(Number(world.buyers[sent.buyer]!.userId))
    expect(order.quantity).toBe(body.quantity)
    expect(order.mall_item_id).toBe(world.items.find((i) => i.productNo === body.productNo)!.id)
  }
  for (const item of world.items) {
    const row = await db
      .selectFrom('mall_items')
      .select(['stock', 'sold'])
      .where('id', '=', item.id)
      .executeTakeFirstOrThrow()
    const unitsOf = (statuses: (status: string) => boolean) =>
      orders
        .filter((o) => o.mall_item_id === item.id && statuses(o.status))
        .reduce((sum, o) => sum + o.quantity, 0)
    // `stock` is what is left on the shelf (taken by an order), `sold` the units paid for.
    const ordered = unitsOf((status) => status !== 'cancelled')
    expect(row.stock + ordered, `item ${item.productNo}: stock + ordered`).toBe(MALL_STOCK)
    expect(row.sold, `item ${item.productNo}: sold = units paid`).toBe(
      unitsOf((status) => status === 'paid'),
    )
  }

  // Payments: the paid orders are exactly those acknowledged paid, each by a paid payment with
  // its ledger transfer taking the total from the buyer's balance.
  const paid = acked.filter((s) => s.kind === 'pay').map((s) => payData(s))
  expect(paid.every((p) => p.status === 'PAID')).toBe(true)
  expect(
    orders
      .filter((o) => o.status !== 'pending_payment')
      .map((o) => o.id)
      .sort(byNumber),
    'paid orders = acknowledged payments',
  ).toEqual(paid.flatMap((p) => p.orderIds).sort(byNumber))
  for (const p of paid) {
    const payment = await db
      .selectFrom('payments')
      .select(['status', 'amount', 'transfer_id', 'user_id'])
      .where('id', '=', p.paymentId)
      .executeTakeFirstOrThrow()
    expect(payment.status).toBe('paid')
    expect(payment.amount).toBe(p.amount)
    const paidOrders = p.orderIds.map((id) => orders.find((o) => o.id === id)!)
    for (const order of paidOrders) {
      expect(order.status).toBe('paid')
      expect(order.payment_id).toBe(p.paymentId)
    }
    expect(paidOrders.reduce((sum, o) => sum + o.total, 0)).toBe(p.amount)
    expect(payment.transfer_id).not.toBeNull()
    const taken = await db
      .selectFrom('ledger_postings as lp')
      .innerJoin('ledger_accounts as a', 'a.id', 'lp.account_id')
      .select(['lp.amount'])
      .where('lp.transfer_id', '=', payment.transfer_id!)
      .where('a.user_id', '=', payment.user_id)
      .where('a.kind', '=', 'balance')
      .execute()
    expect(
      taken.map((t) => t.amount),
      `payment ${p.paymentId} postings`,
    ).toEqual([-p.amount])
  }
  const payments = await db.selectFrom('payments').select(['id', 'status']).execute()
  expect(payments.map((p) => p.id).sort(byNumber), 'payments = acknowledged payments').toEqual(
    paid.map((p) => p.paymentId).sort(byNumber),
  )
  for (const [index, buyer] of world.buyers.entries()) {
    const spent = acked
      .filter((s) => s.kind === 'pay' && s.buyer === index)
      .reduce((sum, s) => sum + payData(s).amount, 0)
    const account = await db
      .selectFrom('ledger_accounts')
      .select('balance')
      .where('user_id', '=', Number(buyer.userId))
      .where('kind', '=', 'balance')
      .executeTakeFirstOrThrow()
    const credited = acked
      .filter((s) => s.kind === 'credit' && s.buyer === index)
      .reduce((sum, s) => sum + (s.body as { amount: number }).amount, 0)
    expect(account.balance, `buyer ${index} balance`).toBe(BALANCE + credited - spent)
  }

  // Every acknowledged keyed request left its finished result under its key.
  const keys = await db
    .selectFrom('idempotency_keys')
    .select(['user_id', 'key', 'status', 'created_at'])
    .where('key', 'like', 'crash-%')
    .execute()
  const byKey = new Map(keys.map((k) => [k.key, k]))
  // A buyer's keys are theirs; staff's live under negative owner ids (the counter service).
  const ownerOk = (s: Sent, owner: number) =>
    s.kind === 'credit' ? owner < 0 : owner === Number(world.buyers[s.buyer]!.userId)
  for (const s of acked) {
    // A purchase refused before its transaction (sold out as last committed) keeps no key.
    if (s.kind === 'buy' && buyData(s).status !== 'SUCCESS') continue
    const key = byKey.get(s.key)
    expect(key?.status, s.key).toBe(200)
    expect(ownerOk(s, key!.user_id), s.key).toBe(true)
  }
  expect(
    keys.filter((k) => k.status !== 200),
    'half-written idempotency keys',
  ).toEqual([])

  const fates: LostFates = { appliedBeforeKill: 0, appliedOnRetry: 0, notApplied: 0 }
  for (const s of world.sent.filter((s) => s.retriedAfter !== undefined)) {
    const key = byKey.get(s.key)
    if (!applied(s.kind, s.answer!)) fates.notApplied++
    else if (key!.created_at < s.retriedAfter!) fates.appliedBeforeKill++
    else fates.appliedOnRetry++
  }
  return fates
}

function refusalCounts(world: World): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const s of world.sent.filter((s) => s.outcome === 'refused')) {
    const code = `${s.kind} ${(s.answer!.body as { code: string }).code}`
    counts[code] = (counts[code] ?? 0) + 1
  }
  return counts
}

// --- The suite ----------------------------------------------------------------------------------

describe.each(databases)('crash safety on %s', (kind) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'numisma-crash-'))
  let postgres: PostgresDatabase | undefined
  let server: ServerProcess | undefined
  let opened: Database | undefined

  afterAll(async () => {
    await server?.stop('SIGKILL')
    await opened?.close()
    await postgres?.drop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it(
    'keeps every acknowledged bid, order and payment, and nothing half-applied, across SIGKILLs',
    { timeout: 150_000 },
    async () => {
      const started = Date.now()
      if (kind === 'postgres') postgres = await createPostgresDatabase('numisma_crash')
      server = new ServerProcess({
        // Any free port, read from the log: a fixed one clashes with a dev server or another file.
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        ...(postgres ? { DATABASE_URL: postgres.url } : {}),
        SEED: 'none',
        NUMISMA_ENV: 'development',
        NUMISMA_ADMIN_PASSWORD: ADMIN_PASSWORD,
        SMS_PER_ADDRESS_PER_HOUR: '10000',
        STAFF_LOGINS_PER_WINDOW: '10000',
        // Info, for the "Numisma is up" line that names the bound port (it adds the request lines).
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'json',
      })
      const api = new Api(server)
      await server.start()
      await api.connect()
      const world = await setUp(api, String(process.pid % 1000).padStart(3, '0') + '0')
      const setUpSeconds = (Date.now() - started) / 1000

      const cycles: { inFlight: number; sent: number; lost: number; restartS: number }[] = []
      for (let cycle = 0; cycle < CYCLES; cycle++) {
        const { inFlight, sent } = await loadThenKill(
          api,
          server,
          world,
          cycle,
          1_000 + Math.random() * 1_000,
        )
        const killedAt = Date.now()
        await server.start()
        const restartedAt = Date.now()
        await api.connect()
        const lost = await retryAfterRestart(api, world, cycle, restartedAt)
        cycles.push({ inFlight, sent, lost, restartS: (restartedAt - killedAt) / 1000 })
      }

      const watching = await openDatabase(
        postgres ? { url: postgres.url } : { sqliteFile: path.join(dataDir, 'numisma.db') },
      )
      try {
        await waitForClosing(watching, world)
      } finally {
        await watching.close()
      }
      await checkOverHttp(api, world)
      await server.stop('SIGTERM')
      opened = await openDatabase(
        postgres ? { url: postgres.url } : { sqliteFile: path.join(dataDir, 'numisma.db') },
      )
      const lost = await checkDatabase(opened, world)

      const count = (kind: Kind) =>
        world.sent.filter((s) => s.kind === kind && s.outcome === 'acked').length
      console.info(
        `crash safety on ${kind}: ${((Date.now() - started) / 1000).toFixed(1)} s ` +
          `(set-up ${setUpSeconds.toFixed(1)} s); ` +
          `cycles ${JSON.stringify(cycles)}; acknowledged bids ${count('bid')}, ` +
          `purchases ${count('buy')}, payments ${count('pay')}, counter credits ${count('credit')}; ` +
          `refused ${JSON.stringify(refusalCounts(world))}; lost in the kills ${JSON.stringify(lost)}`,
      )
      // Nothing went wrong that only the server's log would tell.
      expect(server.errorLines, 'error-level log lines').toEqual([])
      // The kills landed on requests in flight, or the suite proves nothing about them.
      expect(cycles.reduce((sum, c) => sum + c.inFlight, 0)).toBeGreaterThan(0)
      expect(count('bid')).toBeGreaterThan(0)
      expect(count('pay')).toBeGreaterThan(0)
      expect(count('buy')).toBeGreaterThan(0)
    },
  )
})
