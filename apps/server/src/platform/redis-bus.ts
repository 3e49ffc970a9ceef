import type { FastifyBaseLogger } from 'fastify'
import { Redis } from 'ioredis'
import { RedisEventBus } from './event-bus'

/** Two connections: a Redis connection in subscriber mode can do nothing else. */
export async function createRedisEventBus(
  url: string,
  log?: FastifyBaseLogger,
): Promise<RedisEventBus> {
  const options = { maxRetriesPerRequest: 3, lazyConnect: true }
  const publisher = new Redis(url, options)
  const subscriber = new Redis(url, options)
  await Promise.all([publisher.connect(), subscriber.connect()])
  const bus = new RedisEventBus(publisher, subscriber, (error) =>
    log?.error({ err: error }, 'redis push bus error'),
  )
  await bus.start()
  return bus
}
