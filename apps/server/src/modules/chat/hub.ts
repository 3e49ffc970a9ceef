import { ChatClientFrameSchema, type ChatServerFrame } from '@numisma/contracts/chat'
import { PUSH_CLOSE_POLICY } from '@numisma/contracts/push'
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import type { PushEvent } from '../../platform/event-bus'
import { MAX_BUFFERED_BYTES, TokenBucket } from '../push/limits'
import type { ChatService } from './service'

/** One chat socket as the hub sees it; the route adapts the `ws` socket to this. */
export interface ChatConnection {
  send(frame: string): void
  readonly bufferedAmount: number
  close(code: number, reason: string): void
}

/** What one chat socket may cost (like the push role's, modules/push/limits.ts). */
export interface ChatSocketLimits {
  /** Frames a socket may send at once before the rate applies. */
  frameBurst: number
  /** Frames per second after the burst. */
  framesPerSecond: number
  /** Refused frames in a row after which the socket is closed with 1008. */
  refusalsBeforeClose: number
  /** Bytes queued for a socket that does not read before it is closed with 1008. */
  maxBufferedBytes: number
}

export const DEFAULT_CHAT_SOCKET_LIMITS: ChatSocketLimits = {
  frameBurst: 10,
  framesPerSecond: 2,
  refusalsBeforeClose: 10,
  maxBufferedBytes: MAX_BUFFERED_BYTES,
}

/** The socket was closed because no signed-in user is behind its `sid` cookie. */
export const CLOSE_REASON_UNAUTHENTICATED = 'UNAUTHENTICATED'

interface ChatSocket {
  readonly connection: ChatConnection
  readonly role: 'user' | 'agent'
  /** The collector (role user), known once the cookie is looked up. */
  userId: number | null
  staffId: number | null
  /** Resolves once the socket knows who it is; frames wait for it. */
  ready: Promise<void>
  readonly bucket: TokenBucket
  refusals: number
  closed: boolean
}

/**
 * The chat's sockets on this instance: the collectors' (`/svc/push/chat`) and staff's
 * (`/svc/main/admin/chat/ws`). A frame is handled by the service like an HTTP call; what the
 * service stores reaches sockets only through the bus, so a socket on another instance hears it
 * the same way as one here.
 */
export class ChatHub {
  private readonly byUser = new Map<number, Set<ChatSocket>>()
  private readonly staff = new Set<ChatSocket>()

  constructor(
    private readonly service: ChatService,
    private readonly clock: Clock,
    private readonly userOf: (sid: string | undefined) => Promise<number | null>,
    private readonly limits: ChatSocketLimits = DEFAULT_CHAT_SOCKET_LIMITS,
    private readonly log?: Pick<FastifyBaseLogger, 'error' | 'warn'>,
  ) {}

  /** A collector's socket: the `sid` cookie names them; anonymous sockets are closed with 1008. */
  attachUser(connection: ChatConnection, sid: string | undefined): ChatSocket {
    const socket = this.socket(connection, 'user')
    socket.ready = this.identify(socket, sid)
    return socket
  }

  /**
   * A stored picture for the collector the `sid` cookie names, the session checked as for their
   * socket; no live session, or a picture of another conversation: NOT_FOUND, so an <img> on a
   * page that is not theirs learns nothing about which keys exist (ADR 018, amended).
   */
  async pictureFor(key: string, sid: string | undefined): Promise<Buffer> {
    const userId = await this.userOf(sid)
    if (userId === null) throw new AppError('NOT_FOUND')
    return this.service.image(key, { userId })
  }

  /** A staff socket (the route checked the staff session before the upgrade). */
  attachStaff(connection: ChatConnection, staffId: number): ChatSocket {
    const socket = this.socket(connection, 'agent')
    socket.staffId = staffId
    this.staff.add(socket)
    this.send(socket, { type: 'hello', role: 'agent', conversationId: null })
    return socket
  }

  detach(socket: ChatSocket): void {
    socket.closed = true
    this.staff.delete(socket)
    if (socket.userId !== null) {
      const set = this.byUser.get(socket.userId)
      set?.delete(socket)
      if (set?.size === 0) this.byUser.delete(socket.userId)
    }
  }

  /** Sockets open here (tests). */
  socketCount(): number {
    let n = this.staff.size
    for (const set of this.byUser.values()) n += set.size
    return n
  }

  /** One frame from a socket. Never rejects: failures are answered with an `error` frame. */
  async receive(socket: ChatSocket, raw: string): Promise<void> {
    await socket.ready
    if (socket.closed) return
    if (!socket.bucket.take(this.clock.now())) {
      socket.refusals += 1
      if (socket.refusals >= this.limits.refusalsBeforeClose) {
        this.close(socket, 'rate limited')
      } else {
        this.send(socket, { type: 'error', code: 'RATE_LIMITED' })
      }
      return
    }
    socket.refusals = 0
    const parsed = ChatClientFrameSchema.safeParse(parseJson(raw))
    if (!parsed.success) {
      this.send(socket, { type: 'error', code: 'VALIDATION_FAILED' })
      return
    }
    const frame = parsed.data
    const clientId = frame.type === 'send' ? frame.message.clientId : undefined
    try {
      const actor = this.actorOf(socket, frame.conversationId)
      if (frame.type === 'send') {
        const sent = await this.service.send(actor, frame.message)
        // A fresh message reaches this socket through the bus like every other; a resend's was
        // delivered before, perhaps while this socket was away, so it is the ack here.
        if (!sent.fresh) this.send(socket, { type: 'message', message: sent.message })
      } else {
        await this.service.markRead(actor)
      }
    } catch (error) {
      if (!(error instanceof AppError)) this.log?.error({ err: error }, 'chat: frame failed')
      const code = error instanceof AppError ? error.code : 'INTERNAL_ERROR'
      this.send(socket, { type: 'error', code, ...(clientId ? { clientId } : {}) })
    }
  }

  /** A bus event: a message or a read mark to the conversation's collector and to staff. */
  deliver(event: PushEvent): void {
    let frame: ChatServerFrame
    if (event.type === 'chat') frame = { type: 'message', message: event.message }
    else if (event.type === 'chat_read') {
      frame = {
        type: 'read',
        conversationId: event.conversationId,
        by: event.by,
        upTo: event.upTo,
      }
    } else return
    const text = JSON.stringify(frame)
    for (const socket of this.byUser.get(event.userId) ?? []) this.sendFrame(socket, text)
    for (const socket of this.staff) this.sendFrame(socket, text)
  }

  private actorOf(socket: ChatSocket, conversationId: number | undefined) {
    if (socket.role === 'user') return { side: 'user' as const, userId: socket.userId! }
    if (conversationId === undefined) throw new AppError('VALIDATION_FAILED', { conversationId })
    return { side: 'agent' as const, staffId: socket.staffId!, conversationId }
  }

  private socket(connection: ChatConnection, role: 'user' | 'agent'): ChatSocket {
    return {
      connection,
      role,
      userId: null,
      staffId: null,
      ready: Promise.resolve(),
      bucket: new TokenBucket(
        this.limits.frameBurst,
        this.limits.framesPerSecond,
        this.clock.now(),
      ),
      refusals: 0,
      closed: false,
    }
  }

  private async identify(socket: ChatSocket, sid: string | undefined): Promise<void> {
    let userId: number | null = null
    try {
      userId = await this.userOf(sid)
    } catch (error) {
      this.log?.error({ err: error }, 'chat: session lookup failed')
    }
    if (socket.closed) return
    if (userId === null) {
      this.close(socket, CLOSE_REASON_UNAUTHENTICATED)
      return
    }
    socket.userId = userId
    const set = this.byUser.get(userId)
    if (set) set.add(socket)
    else this.byUser.set(userId, new Set([socket]))
    let conversationId: number | null = null
    try {
      conversationId = (await this.service.conversation(userId)).id
    } catch (error) {
      this.log?.error({ err: error }, 'chat: conversation lookup failed')
    }
    this.send(socket, { type: 'hello', role: 'user', conversationId })
  }

  private send(socket: ChatSocket, frame: ChatServerFrame): void {
    this.sendFrame(socket, JSON.stringify(frame))
  }

  private sendFrame(socket: ChatSocket, frame: string): void {
    if (socket.closed) return
    socket.connection.send(frame)
    if (socket.connection.bufferedAmount > this.limits.maxBufferedBytes) {
      this.log?.warn('chat: closing a socket that does not read')
      this.close(socket, 'not reading')
    }
  }

  private close(socket: ChatSocket, reason: string): void {
    socket.closed = true
    socket.connection.close(PUSH_CLOSE_POLICY, reason)
  }
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw)
  } catch {
    return undefined
  }
}
