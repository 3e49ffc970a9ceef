import { PUSH_MAX_LOTS_PER_SUBSCRIBE } from '@numisma/contracts/push'

/**
 * What one client may cost the push role (issue 7, defect 3: four anonymous sockets sending
 * 150 × 200-lot subscribes froze the server for seconds). Each limit bounds one dimension:
 * connections per address, messages per socket, lots per socket, queries per message.
 */
export interface PushLimits {
  /**
   * Lots one socket follows. A subscribe replaces the socket's set (the web client sends the union
   * of what its components want), so this is also the most lots one message may name; the
   * contract's schema refuses a longer list before it reaches the service.
   */
  maxLotsPerSocket: number
  /** Messages a socket may send at once before the rate applies (token bucket capacity). */
  messageBurst: number
  /** Messages per second a socket may send after its burst (token bucket refill). */
  messagesPerSecond: number
  /** Refused messages in a row after which the socket is closed with 1008. */
  refusalsBeforeClose: number
  /**
   * Open sockets per client address (`request.ip`, which honours TRUST_PROXY). Generous, since
   * carrier-grade NAT puts many phones behind one address; the per-socket rate bounds the rest.
   */
  maxConnectionsPerIp: number
  /**
   * Bytes a socket may have queued for the network (`ws` `bufferedAmount`) before it is closed
   * with 1008. A client that stays within the message rate but never reads would otherwise make
   * the server buffer every update for it, without bound (~120 KB/s per socket in the review).
   */
  maxBufferedBytes: number
  /**
   * How often every socket of the server, push and chat, is pinged; one that has not answered
   * since the previous ping is cut (platform/socket-heartbeat.ts). 30 s: well inside the idle
   * timeouts of mobile carriers' NATs and of proxies (deploy/nginx allows the sockets an hour).
   */
  pingIntervalMs: number
}

/**
 * 512 KiB: a phone on a slow network that is still reading drains a full 200-lot snapshot (~40 KB)
 * and a busy minute of updates well within it; a socket that far behind is not reading.
 */
export const MAX_BUFFERED_BYTES = 512 * 1024

export const DEFAULT_PUSH_LIMITS: PushLimits = {
  maxLotsPerSocket: PUSH_MAX_LOTS_PER_SUBSCRIBE,
  messageBurst: 10,
  messagesPerSecond: 5,
  refusalsBeforeClose: 10,
  maxConnectionsPerIp: 32,
  maxBufferedBytes: MAX_BUFFERED_BYTES,
  pingIntervalMs: 30_000,
}

/**
 * A token bucket over the injected clock. Hand-written rather than a library: the libraries we
 * have (@fastify/rate-limit) key HTTP routes, and the ones for arbitrary keys are asynchronous,
 * which would put a promise on every WebSocket message for three lines of arithmetic.
 */
export class TokenBucket {
  private tokens: number
  private updatedAt: number

  constructor(
    private readonly capacity: number,
    private readonly perSecond: number,
    now: number,
  ) {
    this.tokens = capacity
    this.updatedAt = now
  }

  /** Takes one token; false when the bucket is empty. */
  take(now: number): boolean {
    const elapsed = Math.max(0, now - this.updatedAt)
    this.tokens = Math.min(this.capacity, this.tokens + (elapsed / 1000) * this.perSecond)
    this.updatedAt = now
    if (this.tokens < 1) return false
    this.tokens -= 1
    return true
  }
}

/** Open sockets per client address; an address with none left is forgotten. */
export class ConnectionCounter {
  private readonly open = new Map<string, number>()

  constructor(private readonly max: number) {}

  hasRoom(key: string): boolean {
    return (this.open.get(key) ?? 0) < this.max
  }

  /** Counts a socket in; false (and nothing counted) when the address is at its cap. */
  tryAcquire(key: string): boolean {
    if (!this.hasRoom(key)) return false
    this.open.set(key, (this.open.get(key) ?? 0) + 1)
    return true
  }

  release(key: string): void {
    const left = (this.open.get(key) ?? 0) - 1
    if (left > 0) this.open.set(key, left)
    else this.open.delete(key)
  }
}
