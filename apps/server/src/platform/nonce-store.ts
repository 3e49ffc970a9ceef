import { NONCE_TTL_MS } from '@numisma/contracts/signing'
import type { Kysely } from 'kysely'
import type { Clock } from './clock'
import type { DB } from './schema'

/** Remembers request nonces for 10 minutes; `claim` is true only the first time a nonce is seen. */
export interface NonceStore {
  claim(nonce: string): Promise<boolean>
}

/**
 * Embedded mode (SQLite, one process): nonces live in memory. A nonce store on disk would add a
 * synchronous=FULL commit to every request; the ±300 s timestamp window bounds what a restart
 * forgets. See docs/decisions/003-signing-and-sessions.md.
 */
export class MemoryNonceStore implements NonceStore {
  private readonly seen = new Map<string, number>()
  private lastPurge = 0

  constructor(private readonly clock: Clock) {}

  claim(nonce: string): Promise<boolean> {
    const now = this.clock.now()
    // Entries are in insertion order, so expired ones sit at the front; sweep once a second.
    if (now - this.lastPurge >= 1000) {
      this.lastPurge = now
      this.purge(now)
    }
    const expires = this.seen.get(nonce)
    if (expires !== undefined && expires > now) return Promise.resolve(false)
    this.seen.set(nonce, now + NONCE_TTL_MS)
    return Promise.resolve(true)
  }

  private purge(now: number): void {
    for (const [nonce, expires] of this.seen) {
      if (expires > now) break
      this.seen.delete(nonce)
    }
  }
}

/** Several instances on PostgreSQL: the primary key decides which instance saw a nonce first. */
export class DatabaseNonceStore implements NonceStore {
  private lastPurge = 0

  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
  ) {}

  async claim(nonce: string): Promise<boolean> {
    const now = this.clock.now()
    if (now - this.lastPurge > 60_000) {
      this.lastPurge = now
      await this.db.deleteFrom('request_nonces').where('expires_at', '<=', now).execute()
    }
    const inserted = await this.db
      .insertInto('request_nonces')
      .values({ nonce, expires_at: now + NONCE_TTL_MS })
      .onConflict((oc) =>
        oc
          .column('nonce')
          .doUpdateSet({ expires_at: now + NONCE_TTL_MS })
          .where('request_nonces.expires_at', '<=', now),
      )
      .returning('nonce')
      .executeTakeFirst()
    return inserted !== undefined
  }
}
