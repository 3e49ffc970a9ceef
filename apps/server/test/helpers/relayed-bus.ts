import type { RedisEventBus } from '../../src/platform/event-bus'
import { createRedisEventBus } from '../../src/platform/redis-bus'
import { createTestApp, type TestApp } from './app'
import type { TestDatabase } from './databases'
import { REDIS_TEST_URL } from './redis'
import { RedisRelay } from './redis-relay'

/**
 * An app whose push bus alone reaches Redis through a relay the test can take down and bring
 * back (the rate limits' own Redis client, `redisUrl`, would mask an outage of the bus).
 */
export async function appWithRelayedBus(
  kind: TestDatabase,
): Promise<{ t: TestApp; relay: RedisRelay; bus: RedisEventBus; close(): Promise<void> }> {
  const relay = new RedisRelay(new URL(REDIS_TEST_URL))
  await relay.start()
  const bus = await createRedisEventBus(`redis://127.0.0.1:${relay.port}`)
  const t = await createTestApp(kind, { bus })
  return {
    t,
    relay,
    bus,
    async close() {
      await t.close()
      await bus.close()
      await relay.stop()
    },
  }
}
