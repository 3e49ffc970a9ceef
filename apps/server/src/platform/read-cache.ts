import { createHash } from 'node:crypto'
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib'
import type { Clock } from './clock'
import type { EventBus, PushEvent } from './event-bus'

/**
 * In-process caching of hot public reads (issue 14 item 6, ADR 033).
 *
 * An entry lives until the first of: its TTL, the moment its data changes by the clock alone (a lot
 * going live or closing: `validUntil`), or an invalidation of one of its tags (`lot:42`). Lot
 * events on the bus invalidate on every instance; what no event announces (a staff edit) shows
 * within the TTL everywhere.
 *
 * A fill that was under way when one of its tags was invalidated is answered but not kept: it may
 * have read the database before the change it was told about, and keeping it would undo the
 * invalidation until the TTL. Nor is it handed to a read that arrived after that invalidation: that
 * reader may already have been shown the change (a bidder answered P2 reading at once), so it gets
 * a fill started after the invalidation instead of P1.
 *
 * Memory is bounded by `maxEntries`: an entry dropped for any reason (evicted, expired, replaced,
 * invalidated) leaves every tag set it was in, so client-chosen keys (search queries) cannot grow
 * the tag index on a quiet shop.
 */
export interface Filled<V> {
  value: V
  tags: readonly string[]
  /** When the value stops being right by the clock alone (a lot opening or closing). */
  validUntil?: number
}

interface Entry<V> {
  value: V
  expiresAt: number
  tags: readonly string[]
}

interface Pending<V> {
  /** The invalidation sequence when the fill began. */
  startedAt: number
  promise: Promise<Filled<V>>
}

export interface ReadCacheOptions {
  clock: Clock
  ttlMs: number
  /** Past this many entries the oldest go first. */
  maxEntries?: number
}

export class ReadCache<V> {
  private readonly entries = new Map<string, Entry<V>>()
  private readonly byTag = new Map<string, Set<string>>()
  private readonly pending = new Map<string, Pending<V>>()
  /** Invalidation sequence: a tag's last invalidation, and the floor for tags forgotten. */
  private seq = 0
  private readonly invalidatedAt = new Map<string, number>()
  private floor = 0
  private readonly maxEntries: number

  constructor(private readonly options: ReadCacheOptions) {
    this.maxEntries = options.maxEntries ?? 2_000
  }

  /** The cached value of `key`, or the fill's (concurrent misses share one fill). */
  async get(key: string, fill: () => Promise<Filled<V>>): Promise<V> {
    const now = this.options.clock.now()
    const entry = this.entries.get(key)
    if (entry && entry.expiresAt > now) return entry.value
    if (entry) this.drop(key)
    const arrivedAt = this.seq
    const running = this.pending.get(key)
    if (running) {
      const filled = await running.promise
      // Nothing was invalidated between the fill's start and this read (the common case), or not
      // one of the fill's tags: its value is as new as a fill of our own would be.
      if (
        arrivedAt <= running.startedAt ||
        !this.invalidatedSince(running.startedAt, filled.tags)
      ) {
        return filled.value
      }
      // It may predate an invalidation this read came after: join a fill started since (another
      // late reader's), or start one.
      const next = this.pending.get(key)
      if (next && next.startedAt >= arrivedAt) return (await next.promise).value
    }
    return (await this.start(key, fill).promise).value
  }

  invalidate(tag: string): void {
    this.invalidatedAt.set(tag, ++this.seq)
    // The map of tags grows with the catalogue; forgetting it all is safe with the floor raised.
    if (this.invalidatedAt.size > 50_000) {
      this.invalidatedAt.clear()
      this.floor = this.seq
    }
    const keys = this.byTag.get(tag)
    if (!keys) return
    for (const key of [...keys]) this.drop(key)
  }

  clear(): void {
    this.invalidate('*')
    this.entries.clear()
    this.byTag.clear()
  }

  get size(): number {
    return this.entries.size
  }

  /** How many keys the tag index holds (tests: it stays within the entries' tags). */
  get taggedKeys(): number {
    let n = 0
    for (const keys of this.byTag.values()) n += keys.size
    return n
  }

  private start(key: string, fill: () => Promise<Filled<V>>): Pending<V> {
    const record: Pending<V> = {
      startedAt: this.seq,
      promise: this.fill(key, fill).finally(() => {
        if (this.pending.get(key) === record) this.pending.delete(key)
      }),
    }
    this.pending.set(key, record)
    return record
  }

  /** Whether `*` or one of `tags` was invalidated after sequence `since`. */
  private invalidatedSince(since: number, tags: readonly string[]): boolean {
    return (
      this.floor > since ||
      (this.invalidatedAt.get('*') ?? 0) > since ||
      tags.some((tag) => (this.invalidatedAt.get(tag) ?? 0) > since)
    )
  }

  private async fill(key: string, fill: () => Promise<Filled<V>>): Promise<Filled<V>> {
    const startedAt = this.seq
    const filled = await fill()
    if (this.invalidatedSince(startedAt, filled.tags)) return filled
    const now = this.options.clock.now()
    const expiresAt = Math.min(now + this.options.ttlMs, filled.validUntil ?? Infinity)
    if (expiresAt <= now) return filled
    this.drop(key)
    while (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value
      if (oldest === undefined) break
      this.drop(oldest)
    }
    this.entries.set(key, { value: filled.value, expiresAt, tags: filled.tags })
    for (const tag of filled.tags) {
      let keys = this.byTag.get(tag)
      if (!keys) this.byTag.set(tag, (keys = new Set()))
      keys.add(key)
    }
    return filled
  }

  /** Removes an entry and its key from every tag set it is in. */
  private drop(key: string): void {
    const entry = this.entries.get(key)
    if (!entry) return
    this.entries.delete(key)
    for (const tag of entry.tags) {
      const keys = this.byTag.get(tag)
      if (!keys) continue
      keys.delete(key)
      if (keys.size === 0) this.byTag.delete(tag)
    }
  }
}

/**
 * A response body serialised once: the JSON text, its ETag, and compressed copies made on first
 * use (compressing per request was a tenth of the server's CPU under the read bench).
 */
export class PreparedBody {
  readonly etag: string
  private gzipped: Buffer | undefined
  private brotli: Buffer | undefined

  constructor(readonly json: string) {
    // Weak: the same body goes out in three encodings.
    this.etag = `W/"${createHash('sha1').update(json).digest('base64url')}"`
  }

  static of(value: unknown): PreparedBody {
    return new PreparedBody(JSON.stringify(value))
  }

  get gzip(): Buffer {
    return (this.gzipped ??= gzipSync(this.json, { level: 6 }))
  }

  get br(): Buffer {
    // Quality 4, as @fastify/compress uses per request: a fill costs no more than before.
    return (this.brotli ??= brotliCompressSync(this.json, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 4 },
    }))
  }
}

/** The tag of everything a lot's state appears in. */
export const lotTag = (lotId: number): string => `lot:${lotId}`
/** Any lot's state (lists that aggregate bids over lots). */
export const ANY_LOT_TAG = 'lot:*'

/**
 * A bus that also tells this instance's read caches of its own publishes, synchronously and before
 * the publish leaves: on Redis an instance hears its own events only on the echo, and a bidder
 * reading the lot straight after the bid's answer could otherwise get the price from before it.
 */
export class ReadCacheBus implements EventBus {
  private readonly taps = new Set<(event: PushEvent) => void>()

  constructor(private readonly inner: EventBus) {}

  publish(event: PushEvent): void {
    for (const tap of this.taps) {
      try {
        tap(event)
      } catch {
        // A cache must not stop a push.
      }
    }
    this.inner.publish(event)
  }

  subscribe(listener: (event: PushEvent) => void): () => void {
    return this.inner.subscribe(listener)
  }

  /** The wrapped bus's (never called when it has none: it loses nothing). */
  onResubscribed(listener: () => void): () => void {
    return this.inner.onResubscribed?.(listener) ?? (() => undefined)
  }

  /** Hears this instance's publishes at once and every instance's through the bus (so twice). */
  watch(listener: (event: PushEvent) => void): () => void {
    this.taps.add(listener)
    const unsubscribe = this.inner.subscribe(listener)
    return () => {
      this.taps.delete(listener)
      unsubscribe()
    }
  }

  close(): Promise<void> {
    this.taps.clear()
    return this.inner.close()
  }
}

export type LotEvent = Extract<PushEvent, { type: 'lot' }>

/** Lot events for a cache: through {@link ReadCacheBus.watch} when the app wrapped its bus. */
export function watchLots(bus: EventBus, onLot: (event: LotEvent) => void): () => void {
  const listener = (event: PushEvent) => {
    if (event.type === 'lot') onLot(event)
  }
  return bus instanceof ReadCacheBus ? bus.watch(listener) : bus.subscribe(listener)
}

/**
 * Staff edits of the catalogue on this instance (the console's write routes announce them): the
 * shop's caches over the same database drop everything at once, so whoever edited sees the edit.
 * Other instances see it within their TTL — no bus event carries edits (ADR 033).
 */
const editListeners = new WeakMap<object, Set<() => void>>()

/** `database` is the handle both sides share (the Kysely instance). */
export function announceCatalogueEdit(database: object): void {
  for (const listener of editListeners.get(database) ?? []) listener()
}

export function onCatalogueEdit(database: object, listener: () => void): () => void {
  let listeners = editListeners.get(database)
  if (!listeners) editListeners.set(database, (listeners = new Set()))
  listeners.add(listener)
  return () => listeners.delete(listener)
}
