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
  /** pushChannelFor(the deployment's tag); unset: the one channel of tests and a lone shop. */
  channel?: string,
): Promise<RedisEventBus> {
  const options = { maxRetriesPerRequest: 3, lazyConnect: true }
  const publisher = new Redis(url, options)
  const subscriber = new Redis(url, options)
  reportOutages(publisher, onError)
  reportOutages(subscriber, onError)
  await Promise.all([publisher.connect(), subscriber.connect()])
  const bus = new RedisEventBus(publisher, subscriber, onError, channel)
  await bus.start()
  // Any later `ready` follows a drop: the messages published while the subscriber was away are
  // lost, and the bus's listeners are told once it hears the channel again (ADR 035).
  subscriber.on('ready', () => {
    bus.resubscribed().catch((error: unknown) => onError?.(error))
  })
  return bus
}

/**
 * A connection's errors reach `onError` once per outage (ioredis emits one on every reconnect
 * attempt, and without a listener prints "[ioredis] Unhandled error event" to stderr each time);
 * the next outage is reported again once the connection has been ready in between.
 */
function reportOutages(client: Redis, onError: (error: unknown) => void = () => undefined): void {
  let down = false
  client.on('error', (error: unknown) => {
    if (down) return
    down = true
    onError(error)
  })
  client.on('ready', () => {
    down = false
  })
}
