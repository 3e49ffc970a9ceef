import type { Clock } from '../../platform/clock'
import type { EventBus } from '../../platform/event-bus'
import type { SessionCredential } from '../../platform/request-signing'

/** How long a session's credentials are trusted from memory before they are read again. */
export const SESSION_CACHE_TTL_MS = 30_000
/** At most this many sessions are held (~380 bytes each: ≈ 18 MiB full); the oldest go first. */
export const SESSION_CACHE_MAX_ENTRIES = 50_000

export interface SessionCacheOptions {
  clock: Clock
  /** The database's lookup (PassportRepository.findSession). */
  find(id: string): Promise<SessionCredential | undefined>
  ttlMs?: number
  maxEntries?: number
}

interface Entry {
  session: SessionCredential
  until: number
}

interface Lookup {
  promise: Promise<SessionCredential | undefined>
}

/**
 * The credentials of signed-in sessions, kept in memory in front of the database (ADR 035): every
 * signed-in request needs its session's key, and on PostgreSQL that was one round trip each.
 *
 * A session row never changes after its insert except `revoked_at`, set once by a logout. So:
 * - only a found session is kept — a miss is asked again each time, since a session opened on
 *   another instance must work here at once;
 * - an entry lives `ttlMs` at most, and never past the session's own expiry;
 * - a logout evicts the entry on its own instance before it answers, and tells the other instances
 *   on the bus ({@link sessionRevocations}), which evict when the message arrives. An instance
 *   whose subscriber lost the channel (Redis down, connection killed) clears everything once it
 *   hears the channel again. Should a message be lost otherwise (the publish itself failed),
 *   another instance still accepts the ended session until its entry's TTL runs out: at most
 *   `ttlMs`;
 * - concurrent lookups of one id share one query; a lookup under way when its id is evicted
 *   answers those already waiting on it but is not kept (it may have read the row before the
 *   revocation), and a lookup arriving after the eviction starts a query of its own.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>()
  private readonly pending = new Map<string, Lookup>()
  private readonly ttlMs: number
  private readonly maxEntries: number

  constructor(private readonly options: SessionCacheOptions) {
    this.ttlMs = options.ttlMs ?? SESSION_CACHE_TTL_MS
    this.maxEntries = options.maxEntries ?? SESSION_CACHE_MAX_ENTRIES
  }

  find(id: string): Promise<SessionCredential | undefined> {
    const entry = this.entries.get(id)
    if (entry) {
      if (entry.until > this.options.clock.now()) return Promise.resolve(entry.session)
      this.entries.delete(id)
    }
    const running = this.pending.get(id)
    if (running) return running.promise
    // Registered before it starts, so even a lookup that fails at once removes its own record.
    const lookup: Lookup = { promise: Promise.resolve(undefined) }
    this.pending.set(id, lookup)
    lookup.promise = this.lookUp(id, lookup)
    return lookup.promise
  }

  /** Forgets a session at once, and any lookup of it under way. */
  evict(id: string): void {
    this.entries.delete(id)
    this.pending.delete(id)
  }

  /**
   * Forgets every session and every lookup under way, as {@link evict} does one: after the bus
   * lost messages, any entry may be a revoked session. Cheap: each is read again once.
   */
  clear(): void {
    this.entries.clear()
    this.pending.clear()
  }

  get size(): number {
    return this.entries.size
  }

  private async lookUp(id: string, lookup: Lookup): Promise<SessionCredential | undefined> {
    let session: SessionCredential | undefined
    let current: boolean
    try {
      session = await this.options.find(id)
    } finally {
      // Not this lookup's record any more: an eviction came while it ran (and perhaps a later
      // lookup since). Its answer may predate the revocation: returned, never kept.
      current = this.pending.get(id) === lookup
      if (current) this.pending.delete(id)
    }
    if (!current || !session) return session
    const now = this.options.clock.now()
    const until = Math.min(now + this.ttlMs, session.expiresAt)
    if (until <= now) return session
    while (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value
      if (oldest === undefined) break
      this.entries.delete(oldest)
    }
    this.entries.set(id, { session, until })
    return session
  }
}

/**
 * Revocations between instances: `announce` evicts on this instance at once and publishes the
 * event; every instance evicts when it hears one (its own, on Redis, a second time), and its push
 * and chat roles close the session's sockets. When the bus had lost its channel (a Redis outage)
 * the events published meanwhile are gone, so the whole cache is cleared once it is back.
 */
export function sessionRevocations(
  cache: SessionCache,
  bus: EventBus,
): { announce(sessionId: string): void; stop(): void } {
  const unsubscribe = bus.subscribe((event) => {
    if (event.type === 'session_revoked') cache.evict(event.sessionId)
  })
  const unwatch = bus.onResubscribed?.(() => cache.clear())
  return {
    announce(sessionId) {
      cache.evict(sessionId)
      bus.publish({ type: 'session_revoked', sessionId })
    },
    stop() {
      unsubscribe()
      unwatch?.()
    },
  }
}
