import { Redis } from 'ioredis'

export const REDIS_TEST_URL = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379'

/** Whether the production-mode Redis tests run: Redis answers, or REQUIRE_REDIS=1 insists. */
export async function redisAvailable(): Promise<boolean> {
  const client = new Redis(REDIS_TEST_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  })
  try {
    await client.connect()
    await client.ping()
    return true
  } catch {
    if (process.env.REQUIRE_REDIS === '1')
      throw new Error(`REQUIRE_REDIS=1 but Redis does not answer at ${REDIS_TEST_URL}`)
    console.warn(`\n*** Redis not reachable at ${REDIS_TEST_URL}: Redis suites SKIPPED ***\n`)
    return false
  } finally {
    client.disconnect()
  }
}
