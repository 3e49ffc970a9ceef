import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RedisEventBus } from '../src/platform/event-bus'
import { type PushEvent } from '../src/platform/event-bus'
import type { TestApp } from './helpers/app'
import { createLot, creditDeposit } from './helpers/auction'
import { testDatabases } from './helpers/databases'
import { startTwoInstances, type TwoInstances } from './helpers/instances'
import { redisAvailable } from './helpers/redis'

const postgres = (await testDatabases()).find((d) => d.name === 'postgres')
const redis = await redisAvailable()
const YUAN = 100

/**
 * Production mode (DESIGN §1): two instances on one PostgreSQL database, pushes through Redis.
 * A bid taken by instance A reaches a WebSocket client of instance B.
 */
describe.runIf(postgres && redis)('two instances on PostgreSQL + Redis', () => {
  let instances: TwoInstances
  let a: TestApp
  let b: TwoInstances['b']
  let busA: RedisEventBus
  let busB: RedisEventBus

  beforeAll(async () => {
    instances = await startTwoInstances(postgres!)
    ;({ a, b, busA, busB } = instances)
  })
  afterAll(() => instances.close())

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
