import type { Clock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import type { Expiring } from './mp-client'
import type { WechatRepository } from './repository'

/** A token is refreshed this long before the platform's stated expiry, so no page gets a dying one. */
export const TOKEN_REFRESH_MARGIN_MS = 5 * 60_000
/** How long one instance may take to fetch a token before another may try (the fetch times out sooner). */
export const TOKEN_LEASE_MS = 15_000

export type TokenStore = Pick<
  WechatRepository,
  'platformToken' | 'takeTokenLease' | 'storeToken' | 'releaseTokenLease' | 'expireToken'
>

export interface SharedTokensOptions {
  /** Pause between looks at the row while another instance refreshes (real time). */
  pollMs?: number
  /**
   * How long (by the clock) a caller waits for other instances' refreshes before WX_UNAVAILABLE:
   * at least a lease, so a waiter outlives a hung holder's lease and takes over. Default: two
   * leases (the holder's, then one takeover's).
   */
  maxWaitMs?: number
}

/**
 * The platform's server-wide credentials (basic access token, JS-SDK ticket), shared by every
 * instance through `platform_tokens` and kept in process until five minutes before they expire
 * (ADR 017). The platform allows a few thousand fetches a day and each new token or ticket
 * supersedes the previous one after a five-minute overlap, so instances must not each fetch
 * their own:
 * - in one instance, concurrent callers share one fetch (single flight);
 * - across instances, the row is the lock: the instance whose conditional write takes the lease
 *   fetches and stores, the others poll the row until the new value is there. Only when the lease
 *   holder takes longer than the lease (it died, or the platform hung past the timeout) may a
 *   second instance fetch too: two racing instances fetch at most twice.
 */
export class SharedPlatformTokens {
  private readonly cache = new Map<string, { value: string; expiresAt: number }>()
  private readonly inflight = new Map<string, Promise<string>>()
  private readonly pollMs: number
  private readonly maxWaitMs: number

  constructor(
    private readonly store: TokenStore,
    private readonly clock: Clock,
    options: SharedTokensOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 50
    this.maxWaitMs = Math.max(options.maxWaitMs ?? 2 * TOKEN_LEASE_MS, TOKEN_LEASE_MS)
  }

  private fresh(expiresAt: number): boolean {
    return expiresAt - TOKEN_REFRESH_MARGIN_MS > this.clock.now()
  }

  async get(name: string, fetch: () => Promise<Expiring>): Promise<string> {
    const cached = this.cache.get(name)
    if (cached && this.fresh(cached.expiresAt)) return cached.value
    const running = this.inflight.get(name)
    if (running) return running
    const refresh = this.refresh(name, fetch).finally(() => this.inflight.delete(name))
    this.inflight.set(name, refresh)
    return refresh
  }

  /** Forgets a value the platform refused, here and (if still stored) for every instance. */
  async invalidate(name: string, value: string): Promise<void> {
    if (this.cache.get(name)?.value === value) this.cache.delete(name)
    await this.store.expireToken(name, value)
  }

  private async refresh(name: string, fetch: () => Promise<Expiring>): Promise<string> {
    const giveUpAt = this.clock.now() + this.maxWaitMs
    for (;;) {
      const stored = await this.storedFresh(name)
      if (stored !== undefined) return stored
      const now = this.clock.now()
      const leaseUntil = now + TOKEN_LEASE_MS
      if (await this.store.takeTokenLease(name, now + TOKEN_REFRESH_MARGIN_MS, now, leaseUntil)) {
        return this.fetchUnderLease(name, fetch, leaseUntil)
      }
      if (this.clock.now() >= giveUpAt) {
        throw new AppError('WX_UNAVAILABLE', { reason: `${name} refresh did not finish` })
      }
      await new Promise((resolve) => setTimeout(resolve, this.pollMs))
    }
  }

  private async storedFresh(name: string): Promise<string | undefined> {
    const row = await this.store.platformToken(name)
    if (!row || row.value === '' || !this.fresh(row.expires_at)) return undefined
    this.cache.set(name, { value: row.value, expiresAt: row.expires_at })
    return row.value
  }

  /**
   * Fetches and stores while holding the lease ending at `leaseUntil`. A fetch that outlived its
   * lease stores nothing (another instance took over and its value, newer, supersedes this one);
   * this caller then takes the stored value, or uses its own once without keeping it.
   */
  private async fetchUnderLease(
    name: string,
    fetch: () => Promise<Expiring>,
    leaseUntil: number,
  ): Promise<string> {
    let fetched: Expiring
    try {
      fetched = await fetch()
    } catch (error) {
      await this.store.releaseTokenLease(name, leaseUntil)
      throw error
    }
    const fetchedAt = this.clock.now()
    const expiresAt = fetchedAt + fetched.expiresInSeconds * 1000
    if (await this.store.storeToken(name, fetched.value, expiresAt, fetchedAt, leaseUntil)) {
      this.cache.set(name, { value: fetched.value, expiresAt })
      return fetched.value
    }
    return (await this.storedFresh(name)) ?? fetched.value
  }
}
