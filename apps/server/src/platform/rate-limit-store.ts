import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import type { Redis } from 'ioredis'

/** The callback shape @fastify/rate-limit's stores answer with. */
type Answer = (error: Error | null, result?: { current: number; ttl: number }) => void

/** What the plugin passes a store's `child` (the merged route settings). */
interface RouteParams {
  routeInfo?: { method?: string | string[]; url?: string }
}

export const RATE_LIMIT_PREFIX = 'numisma:rl:'

/**
 * The rate-limit keys of one deployment (platform/deployment-tag.ts), like its lease keys and push
 * channel: two shops on one Redis (staging beside production) must not fill each other's windows.
 */
export const rateLimitPrefixFor = (tag: string): string => `${RATE_LIMIT_PREFIX}${tag}:`

/** INCR with the window set on the first hit, as @fastify/rate-limit's own Redis store does. */
const INCR = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {current, ttl}
`

/** This instance's own counts: a fixed window per key, kept in memory (bounded). */
class LocalCounts {
  private readonly windows = new Map<string, { current: number; endsAt: number }>()

  constructor(private readonly max = 50_000) {}

  incr(key: string, timeWindow: number): { current: number; ttl: number } {
    const now = Date.now()
    let entry = this.windows.get(key)
    if (!entry || entry.endsAt <= now) {
      entry = { current: 0, endsAt: now + timeWindow }
      this.windows.delete(key)
      if (this.windows.size >= this.max) this.windows.delete(this.windows.keys().next().value!)
      this.windows.set(key, entry)
    }
    entry.current += 1
    return { current: entry.current, ttl: entry.endsAt - now }
  }
}

export interface SharedRateLimitDeps {
  redis: Redis
  /** Called on every failed Redis count (the caller logs an outage once, not per request). */
  onRedisError: (error: unknown) => void
  /** Called when a count reaches Redis again. */
  onRedisAnswer: () => void
  /** Keys this instance counts alone, Redis or not. */
  perInstance?: (key: string) => boolean
  /** What every key starts with: rateLimitPrefixFor(the deployment's tag); default RATE_LIMIT_PREFIX. */
  prefix?: string
}

/**
 * A store for @fastify/rate-limit (its `store` option, ADR 032). A route's limit (`config.rateLimit`:
 * SMS codes, sign-in, remittances…) is counted in Redis, so it holds across every instance: a
 * caller cannot get N times the limit by landing on N instances. While Redis does not answer, the
 * same limit is counted by this instance alone — the limits of a single instance, what the shop
 * had before Redis — rather than refusing every call (a 500 per request would take the shop down
 * with Redis) or letting everything through (SMS codes cost money and guard sign-in).
 *
 * `perInstance` names keys counted by this instance alone whatever Redis does: a limit that
 * protects this instance's CPU (the share pictures' renderings), which another instance's count
 * says nothing about.
 */
export function sharedRateLimitStore(deps: SharedRateLimitDeps): FastifyRateLimitStoreCtor {
  const local = new LocalCounts()
  const base = deps.prefix ?? RATE_LIMIT_PREFIX
  type WithCommand = Redis & {
    numismaRateLimit(key: string, windowMs: number, cb: (e: Error | null, r: unknown) => void): void
  }
  const redis = deps.redis as WithCommand
  if (typeof (redis as Partial<WithCommand>).numismaRateLimit !== 'function') {
    redis.defineCommand('numismaRateLimit', { numberOfKeys: 1, lua: INCR })
  }

  class Store implements FastifyRateLimitStore {
    constructor(
      _params?: unknown,
      private readonly prefix?: string,
    ) {}

    incr(key: string, answer: Answer, timeWindow: number): void {
      const counted = `${this.prefix ?? base}${key}`
      if (deps.perInstance?.(key)) {
        answer(null, local.incr(counted, timeWindow))
        return
      }
      redis.numismaRateLimit(counted, timeWindow, (error, result) => {
        if (error) {
          deps.onRedisError(error)
          answer(null, local.incr(counted, timeWindow))
          return
        }
        deps.onRedisAnswer()
        const [current, ttl] = result as [number, number]
        answer(null, { current, ttl })
      })
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): Store {
      // The plugin passes the route's merged settings, the route itself under `routeInfo`.
      const params = routeOptions as unknown as RouteParams
      const url = params.routeInfo?.url
      // A limiter made with `createRateLimit` has no route: its keys carry their own namespace.
      if (url === undefined) return new Store(undefined, base)
      const method = [params.routeInfo?.method ?? ''].flat().join(',')
      return new Store(undefined, `${base}${method}${url}:`)
    }
  }
  return Store
}
