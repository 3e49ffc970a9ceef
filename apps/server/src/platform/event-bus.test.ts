import { describe, expect, it } from 'vitest'
import { InProcessEventBus, PUSH_CHANNEL, type PushEvent, RedisEventBus } from './event-bus'

/** A Redis pair in memory: what is published on the channel arrives at the subscriber. */
function fakeRedis() {
  let deliver: (channel: string, message: string) => void = () => undefined
  const client = {
    publish: (channel: string, message: string) => {
      deliver(channel, message)
      return Promise.resolve(1)
    },
    subscribe: () => Promise.resolve(1),
    on: (_event: 'message', listener: (channel: string, message: string) => void) => {
      deliver = listener
    },
    quit: () => Promise.resolve('OK'),
    inject: (channel: string, message: string) => deliver(channel, message),
  }
  return client
}

describe('RedisEventBus', () => {
  it('delivers every contract event, reminders included, as published', () => {
    const redis = fakeRedis()
    const bus = new RedisEventBus(redis, redis)
    const seen: PushEvent[] = []
    bus.subscribe((event) => seen.push(event))
    const reminder: PushEvent = {
      type: 'reminder',
      userId: 7,
      lotId: 3,
      title: '壹圆',
      endsAt: '2026-11-23T12:00:00.000Z',
    }
    bus.publish(reminder)
    bus.publish({ type: 'outbid', userId: 7, lotId: 3, price: 1100 })
    expect(seen).toEqual([reminder, { type: 'outbid', userId: 7, lotId: 3, price: 1100 }])
  })

  it('drops a malformed message from the channel (reported, never passed to a client)', () => {
    const redis = fakeRedis()
    const errors: unknown[] = []
    const bus = new RedisEventBus(redis, redis, (error) => errors.push(error))
    const seen: PushEvent[] = []
    bus.subscribe((event) => seen.push(event))
    redis.inject(PUSH_CHANNEL, JSON.stringify({ type: 'reminder', lotId: 3 }))
    redis.inject(PUSH_CHANNEL, 'not json')
    redis.inject(
      'another-channel',
      JSON.stringify({ type: 'outbid', userId: 1, lotId: 1, price: 1 }),
    )
    expect(seen).toEqual([])
    expect(errors).toHaveLength(2)
  })
})

describe('InProcessEventBus', () => {
  it('delivers after publish returns, in publish order, past a broken subscriber', async () => {
    const bus = new InProcessEventBus()
    const seen: number[] = []
    bus.subscribe(() => {
      throw new Error('broken subscriber')
    })
    bus.subscribe((event) => seen.push(event.type === 'outbid' ? event.price : -1))
    for (const price of [100, 200, 300]) bus.publish({ type: 'outbid', userId: 1, lotId: 1, price })
    // The publisher (a bid about to answer) is not held up by the subscribers.
    expect(seen).toEqual([])
    await new Promise((resolve) => setImmediate(resolve))
    expect(seen).toEqual([100, 200, 300])
    bus.publish({ type: 'outbid', userId: 1, lotId: 1, price: 400 })
    await new Promise((resolve) => setImmediate(resolve))
    expect(seen).toEqual([100, 200, 300, 400])
  })
})
