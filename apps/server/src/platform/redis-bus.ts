import { Redis } from 'ioredis'
import { RedisEventBus } from './event-bus'

/**
 * Two connections: a Redis connection in subscriber mode can do nothing else. `onError` hears a
 * failed publish and a malformed message from another instance (both dropped); the server logs
 * them, or they would vanish.
 */
export async function createRedisEventBus(
  url: string,
  onError?: (error: unknown) => void,
): Promise<RedisEventBus> {
  const options = { maxRetriesPerRequest: 3, lazyConnect: true }
  const publisher = new Redis(url, options)
  const subscriber = new Redis(url, options)
  await Promise.all([publisher.connect(), subscriber.connect()])
  const bus = new RedisEventBus(publisher, subscriber, onError)
  await bus.start()
  return bus
}
