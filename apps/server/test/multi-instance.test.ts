import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app'
import { SandboxSmsSender } from '../src/modules/passport/sms-sender'
import type { Database } from '../src/platform/db'
import type { RedisEventBus } from '../src/platform/event-bus'
import { type PushEvent } from '../src/platform/event-bus'
import { createRedisEventBus } from '../src/platform/redis-bus'
import { createTestApp, type TestApp } from './helpers/app'
import { createLot, creditDeposit } from './helpers/auction'
import { testDatabases } from './helpers/databases'
import { REDIS_TEST_URL, redisAvailable } from './helpers/redis'

const postgres = (await testDatabases()).find((d) => d.name === 'postgres')
const redis = await redisAvailable()
const YUAN = 100

/**
 * Production mode (DESIGN §1): two instances on one PostgreSQL database, pushes through Redis.
 * A bid taken by instance A reaches a WebSocket client of instance B.
 */
describe.runIf(postgres && redis)('two instances on PostgreSQL + Redis', () => {
  let a: TestApp
  let b: Awaited<ReturnType<typeof buildApp>>
  let busA: RedisEventBus
  let busB: RedisEventBus

  beforeAll(async () => {
    busA = await createRedisEventBus(REDIS_TEST_URL)
    busB = await createRedisEventBus(REDIS_TEST_URL)
    a = await createTestApp(postgres!, { bus: busA })
    b = await buildApp({
      database: { ...a.database, close: () => Promise.resolve() } satisfies Database,
      clock: a.clock,
      sms: new SandboxSmsSender(),
      env: 'development',
      webDist: '/nonexistent',
      bus: busB,
    })
    await b.ready()
  })
  afterAll(async () => {
    await b.close()
    await a.close()
    await busA.close()
    await busB.close()
  })

  it('delivers every event on every instance', async () => {
    const seen: PushEvent[] = []
    const stop = busB.subscribe((e) => seen.push(e))
    busA.publish({ type: 'outbid', userId: 1, lotId: 2, price: 300 })
    await expect.poll(() => seen).toEqual([{ type: 'outbid', userId: 1, lotId: 2, price: 300 }])
    stop()
  })

  it('pushes a bid taken by one instance to a watcher connected to the other', async () => {
    const alice = await a.signIn()
    await creditDeposit(a, alice.userId, 10_000 * YUAN)
    const lotId = await createLot(a)
    const socket = await b.injectWS('/svc/push/ws')
    const messages: Record<string, unknown>[] = []
    socket.on('message', (data: Buffer) =>
      messages.push(JSON.parse(data.toString()) as Record<string, unknown>),
    )
    socket.send(JSON.stringify({ type: 'subscribe', lotIds: [lotId] }))
    await expect.poll(() => messages.some((m) => m.type === 'lot' && m.lotId === lotId)).toBe(true)
    const res = await a.call({
      method: 'POST',
      path: '/bidding/bid',
      as: alice,
      body: { lotId, amount: 1_000 * YUAN, proxy: false },
    })
    expect(res.statusCode).toBe(200)
    await expect
      .poll(() => messages.find((m) => m.type === 'lot' && m.bidCount === 1))
      .toMatchObject({ lotId, price: 1_000 * YUAN })
    socket.terminate()
  })
})
