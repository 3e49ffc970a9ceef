import {
  PUSH_CLOSE_POLICY,
  type PushErrorCode,
  PushPingSchema,
  type PushLot,
  type PushServerMessage,
  PushSubscribeSchema,
} from '@numisma/contracts/push'
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../../platform/clock'
import { sha256Hex } from '../../platform/crypto'
import type { PushEvent } from '../../platform/event-bus'
import { maskBidder } from '@numisma/domain/mask'
import { lotStatusOf } from '../catalog/mappers'
import {
  CLOSE_REASON_SESSION_ENDED,
  SessionSockets,
  type SocketSession,
} from '../passport/session-sockets'
import { type PushLimits, TokenBucket } from './limits'
import type { PushRepository } from './repository'

/** The reads the service needs; a spec passes a fake. */
export type PushReads = Pick<PushRepository, 'lotsByIds' | 'sessionBySidHash'>

/** One socket as the service sees it; the route adapts the `ws` socket to this. */
export interface PushConnection {
  /**
   * Sends one text message, already serialised. An event for many sockets comes as a Buffer, its
   * JSON encoded to UTF-8 once: the socket then writes those bytes as they are, where a string
   * would be measured and encoded again for every socket (ADR 034).
   */
  send(frame: Frame): void
  /** Bytes queued for the network and not yet written (`ws` `bufferedAmount`). */
  readonly bufferedAmount: number
  close(code: number, reason: string): void
}

/** A text message's JSON: a string, or its UTF-8 bytes when it goes to many sockets. */
export type Frame = string | Buffer

/** An event's frame for all the sockets it goes to: serialised and encoded once. */
export function encodeFrame(message: unknown): Buffer {
  return Buffer.from(JSON.stringify(message))
}

/** A connected socket's state. Only the service changes it. */
export interface PushClient {
  readonly connection: PushConnection
  userId: number | null
  /** The session its `sid` cookie named, so that the session's logout closes it (ADR 035). */
  sessionId: string | null
  /** The lots this socket follows (a subscribe replaces the set). */
  lots: ReadonlySet<number>
  /** Followed lots whose current state the socket has not been sent yet. */
  readonly unsent: Set<number>
  snapshotting: boolean
  readonly bucket: TokenBucket
  /** Messages refused in a row for going over the rate. */
  refusals: number
  closed: boolean
}

/** The socket was closed for sending too fast, again and again. */
export const CLOSE_REASON_RATE = 'rate limited'
/** The socket was closed for not reading what it was sent (its send buffer went over the limit). */
export const CLOSE_REASON_BACKLOG = 'not reading'

/**
 * The push role's use cases (DESIGN §4 "Realtime"): who a socket is, what it follows, the state it
 * resumes from, and which events reach it. Every subscribe is answered from one query, and a
 * socket has at most one query in flight: subscribes that arrive meanwhile are merged into the
 * next one, so a flood costs the database at most one read per socket at a time.
 */
export class PushService {
  private readonly clients = new Set<PushClient>()
  private readonly byLot = new Map<number, Set<PushClient>>()
  private readonly byUser = new Map<number, Set<PushClient>>()
  private readonly bySession = new SessionSockets<PushClient>()

  constructor(
    private readonly reads: PushReads,
    private readonly clock: Clock,
    private readonly limits: PushLimits,
    private readonly log?: Pick<FastifyBaseLogger, 'error' | 'warn'>,
  ) {}

  connect(connection: PushConnection): PushClient {
    const client: PushClient = {
      connection,
      userId: null,
      sessionId: null,
      lots: new Set(),
      unsent: new Set(),
      snapshotting: false,
      bucket: new TokenBucket(
        this.limits.messageBurst,
        this.limits.messagesPerSecond,
        this.clock.now(),
      ),
      refusals: 0,
      closed: false,
    }
    this.clients.add(client)
    return client
  }

  disconnect(client: PushClient): void {
    client.closed = true
    this.clients.delete(client)
    for (const lotId of client.lots) removeFrom(this.byLot, lotId, client)
    if (client.userId !== null) removeFrom(this.byUser, client.userId, client)
    if (client.sessionId !== null) this.bySession.remove(client.sessionId, client)
  }

  /** Open sockets (for tests and the operator's view of the role). */
  connectionCount(): number {
    return this.clients.size
  }

  /** The live session a `sid` cookie names, with its user; null for none, ended or expired. */
  async sessionOf(sid: string | undefined): Promise<SocketSession | null> {
    if (!sid) return null
    const session = await this.reads.sessionBySidHash(sha256Hex(sid))
    const live = session && session.revoked_at === null && session.expires_at > this.clock.now()
    return live ? { userId: session.user_id, sessionId: session.id } : null
  }

  /**
   * Says hello with the user the cookie names. A failed lookup leaves the socket anonymous (lot
   * updates still flow) rather than failing it.
   */
  async identify(client: PushClient, sid: string | undefined): Promise<void> {
    let session: SocketSession | null = null
    try {
      // A session revoked while it was looked up counts as ended (session-sockets.ts).
      session = await this.bySession.lookUp(() => this.sessionOf(sid))
    } catch (error) {
      this.log?.error({ err: error }, 'push: session lookup failed')
    }
    if (client.closed) return
    if (session) {
      client.userId = session.userId
      client.sessionId = session.sessionId
      addTo(this.byUser, session.userId, client)
      this.bySession.add(session.sessionId, client)
    }
    this.send(client, { type: 'hello', userId: client.userId })
  }

  /**
   * One message from a socket. Resolves once the lots it added have been sent, or handed to the
   * read already running for this socket. Never rejects: a failed read is logged and answered
   * with an `INTERNAL_ERROR` message.
   */
  async receive(client: PushClient, raw: string): Promise<void> {
    if (client.closed) return
    if (!client.bucket.take(this.clock.now())) {
      client.refusals += 1
      if (client.refusals >= this.limits.refusalsBeforeClose) {
        this.close(client, CLOSE_REASON_RATE)
      } else {
        this.error(client, 'RATE_LIMITED')
      }
      return
    }
    client.refusals = 0
    const parsed = parseJson(raw)
    if (PushPingSchema.safeParse(parsed).success) {
      this.send(client, { type: 'pong' })
      return
    }
    const message = PushSubscribeSchema.safeParse(parsed)
    if (!message.success || message.data.lotIds.length > this.limits.maxLotsPerSocket) {
      this.error(client, 'VALIDATION_FAILED')
      return
    }
    this.follow(client, new Set(message.data.lotIds))
    await this.sendUnsent(client)
  }

  /**
   * Sends an event to the sockets it concerns: a lot's followers, or one user's sockets. It runs
   * inside the request that placed the bid, so the event is serialised and encoded once, not once
   * per socket: with thousands of followers the per-socket cost is the write itself (ADR 034).
   */
  deliver(event: PushEvent): void {
    switch (event.type) {
      case 'lot': {
        const followers = this.byLot.get(event.lotId)
        if (!followers) return
        const frame = encodeFrame(event)
        for (const client of followers) this.sendFrame(client, frame)
        return
      }
      case 'outbid':
      case 'reminder': {
        const sockets = this.byUser.get(event.userId)
        if (!sockets) return
        // The user id routes the message; it is not part of what the client receives.
        const { userId: _routedBy, ...message } = event
        const frame = encodeFrame(message)
        for (const client of sockets) this.sendFrame(client, frame)
        return
      }
      case 'chat': {
        // The chat's own sockets (modules/chat/hub.ts) carry the message; the collector's other
        // pages only learn that an agent answered, to refresh the unread badge. Their own
        // messages change no count.
        if (event.message.from !== 'agent') return
        const sockets = this.byUser.get(event.userId)
        if (!sockets) return
        const news: PushServerMessage = { type: 'chat', conversationId: event.conversationId }
        const frame = encodeFrame(news)
        for (const client of sockets) this.sendFrame(client, frame)
        return
      }
      // A read is shown on the chat's own sockets; the page that read refreshes its own counts.
      case 'chat_read':
        return
      // A logout, here or on another instance (ADR 035): the session's sockets are closed with
      // 1008, as they were identified by it once, when they opened; the page opens a new one,
      // anonymous. The event itself is never sent to a socket.
      case 'session_revoked':
        for (const client of this.bySession.revoke(event.sessionId)) {
          this.close(client, CLOSE_REASON_SESSION_ENDED)
        }
        return
    }
  }

  /** The current state of these lots, as lot updates; unknown ids are left out. */
  async snapshot(lotIds: readonly number[]): Promise<PushLot[]> {
    const rows = await this.reads.lotsByIds(lotIds)
    const now = this.clock.now()
    return rows.map((row) => {
      const status = lotStatusOf(row, now)
      return {
        type: 'lot',
        lotId: row.id,
        price: row.price,
        bidCount: row.bid_count,
        endsAt: new Date(row.ends_at).toISOString(),
        status,
        // As the live updates say it: the masked leader while the lot runs, none once it is over.
        leader:
          status === 'live' && row.leader_display !== null ? maskBidder(row.leader_display) : null,
      }
    })
  }

  /** Replaces what a socket follows; lots new to it are queued for a snapshot. */
  private follow(client: PushClient, lots: ReadonlySet<number>): void {
    for (const lotId of client.lots) {
      if (lots.has(lotId)) continue
      removeFrom(this.byLot, lotId, client)
      client.unsent.delete(lotId)
    }
    for (const lotId of lots) {
      if (client.lots.has(lotId)) continue
      addTo(this.byLot, lotId, client)
      client.unsent.add(lotId)
    }
    client.lots = lots
  }

  private async sendUnsent(client: PushClient): Promise<void> {
    // The loop already running for this socket will pick up what was just queued.
    if (client.snapshotting) return
    client.snapshotting = true
    try {
      while (client.unsent.size > 0 && !client.closed) {
        // A socket that is not reading gets no read on its behalf: it is closed instead.
        if (this.backedUp(client)) return
        const lotIds = [...client.unsent]
        client.unsent.clear()
        try {
          const lots = await this.snapshot(lotIds)
          // Updates may have piled up on the socket while the read ran.
          if (this.backedUp(client)) return
          for (const lot of lots) {
            if (client.lots.has(lot.lotId)) this.send(client, lot)
          }
        } catch (error) {
          // The lots stay followed (their updates keep coming); only the catch-up was lost.
          this.log?.error({ err: error }, 'push: snapshot failed')
          this.error(client, 'INTERNAL_ERROR')
        }
      }
    } finally {
      client.snapshotting = false
    }
  }

  private error(client: PushClient, code: PushErrorCode): void {
    this.send(client, { type: 'error', code })
  }

  private send(client: PushClient, message: PushServerMessage): void {
    if (!client.closed) this.sendFrame(client, JSON.stringify(message))
  }

  private sendFrame(client: PushClient, frame: Frame): void {
    if (client.closed) return
    client.connection.send(frame)
    this.backedUp(client)
  }

  /**
   * Whether the socket's send buffer is over the limit, closing it with 1008 when it is: its client
   * keeps the socket open but does not read, and every update would stay in server memory.
   */
  private backedUp(client: PushClient): boolean {
    if (client.closed) return true
    if (client.connection.bufferedAmount <= this.limits.maxBufferedBytes) return false
    this.log?.warn(
      { bufferedAmount: client.connection.bufferedAmount },
      'push: closing a socket that does not read',
    )
    this.close(client, CLOSE_REASON_BACKLOG)
    return true
  }

  private close(client: PushClient, reason: string): void {
    client.closed = true
    client.connection.close(PUSH_CLOSE_POLICY, reason)
  }
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw)
  } catch {
    return undefined
  }
}

function addTo<K>(index: Map<K, Set<PushClient>>, key: K, client: PushClient): void {
  const set = index.get(key)
  if (set) set.add(client)
  else index.set(key, new Set([client]))
}

function removeFrom<K>(index: Map<K, Set<PushClient>>, key: K, client: PushClient): void {
  const set = index.get(key)
  if (!set) return
  set.delete(client)
  if (set.size === 0) index.delete(key)
}
