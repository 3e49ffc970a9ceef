import type { FastifyInstance } from 'fastify'
import { type AppOptions, buildApp } from '../../src/app'
import { SandboxSmsSender } from '../../src/modules/passport/sms-sender'
import type { Database } from '../../src/platform/db'
import type { RedisEventBus } from '../../src/platform/event-bus'
import { createRedisEventBus } from '../../src/platform/redis-bus'
import { createTestApp, type TestApp } from './app'
import type { TestDatabase } from './databases'
import { REDIS_TEST_URL } from './redis'

/** Production mode (DESIGN §1): two instances on one database, their pushes through Redis. */
export interface TwoInstances {
  /** The first instance, with the test helpers (sign-in, signed calls, the fake clock). */
  a: TestApp
  /** A second instance on the same database and clock. */
  b: FastifyInstance
  busA: RedisEventBus
  busB: RedisEventBus
  close(): Promise<void>
}

/** `shared`: options both instances get (e.g. `redisUrl` for the shared nonce store). */
export async function startTwoInstances(
  kind: TestDatabase,
  shared: Partial<AppOptions> = {},
): Promise<TwoInstances> {
  const busA = await createRedisEventBus(REDIS_TEST_URL)
  const busB = await createRedisEventBus(REDIS_TEST_URL)
  const a = await createTestApp(kind, { ...shared, bus: busA })
  const b = await buildApp({
    // The database belongs to `a`, which closes it.
    database: { ...a.database, close: () => Promise.resolve() } satisfies Database,
    clock: a.clock,
    sms: new SandboxSmsSender(),
    env: 'development',
    webDist: '/nonexistent',
    ...shared,
    bus: busB,
  })
  await b.ready()
  return {
    a,
    b,
    busA,
    busB,
    close: async () => {
      await b.close()
      await a.close()
      await busA.close()
      await busB.close()
    },
  }
}
