import { ChatClientFrameSchema, type ChatServerFrame } from '@numisma/contracts/chat'
import { PUSH_CLOSE_POLICY, PushPingSchema } from '@numisma/contracts/push'
import { mayAccess, type StaffAccess, type StaffSession } from '@numisma/contracts/staff'
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import type { PushEvent } from '../../platform/event-bus'
import {
  CLOSE_REASON_SESSION_ENDED,
  SessionSockets,
  type SocketSession,
} from '../passport/session-sockets'
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
  /**
   * How often the staff sockets' sessions are looked up again, so a member disabled, stripped of
   * the support role or signed out stops hearing the desk within this much (their frames are
   * checked one by one as they come).
   */
  staffRecheckMs: number
}

export const DEFAULT_CHAT_SOCKET_LIMITS: ChatSocketLimits = {
  frameBurst: 10,
  framesPerSecond: 2,
  refusalsBeforeClose: 10,
  maxBufferedBytes: MAX_BUFFERED_BYTES,
  staffRecheckMs: 20_000,
}

/** The socket was closed because no signed-in user is behind its `sid` cookie. */
export const CLOSE_REASON_UNAUTHENTICATED = 'UNAUTHENTICATED'

/**
 * Whether a staff socket's session still serves it: live and admitting the route's roles, or the
 * reason it is closed with (1008).
 */
export type StaffStanding = 'ok' | 'UNAUTHENTICATED' | 'FORBIDDEN'

/**
 * The standing of the staff member who opened a socket with the `staff_sid` cookie `sid`, by the
 * staff service's session lookup (one query on the session's hash, and the roles): ended, expired,
 * disabled or another account is UNAUTHENTICATED; a session without one of `roles` is FORBIDDEN.
 * A failing lookup rejects, so the caller decides rather than waving the socket through.
 */
export function staffStanding(
  sessionOf: (sid: string | undefined) => Promise<StaffSession>,
  sid: string | undefined,
  staffId: number,
  roles: StaffAccess,
): () => Promise<StaffStanding> {
  return async () => {
    let session: StaffSession
    try {
      session = await sessionOf(sid)
    } catch (error) {
      if (error instanceof AppError && error.code === 'UNAUTHENTICATED') return 'UNAUTHENTICATED'
      throw error
    }
    if (session.staffId !== staffId) return 'UNAUTHENTICATED'
    return mayAccess(session.roles, roles) ? 'ok' : 'FORBIDDEN'
  }
}

interface ChatSocket {
  readonly connection: ChatConnection
  readonly role: 'user' | 'agent'
  /** The collector (role user), known once the cookie is looked up. */
  userId: number | null
  /** The collector's session, so that its logout closes the socket (ADR 035). */
  sessionId: string | null
  staffId: number | null
  /** A staff socket's session check, before each frame and on every sweep. */
  standing: (() => Promise<StaffStanding>) | null
  /** Resolves once the socket knows who it is; frames wait for it. */
  ready: Promise<void>
  readonly bucket: TokenBucket
  /**
   * The heartbeat's pings have a bucket of their own, as large as the frames': a page that has
   * just sent a burst of messages still has its ping answered, and pings cannot starve its sends.
   */
  readonly pingBucket: TokenBucket
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
  private readonly bySession = new SessionSockets<ChatSocket>()
  /** Re-checks the staff sockets' sessions while any is open (unref'd: it never holds the process). */
  private sweepTimer: ReturnType<typeof setInterval> | null = null
  private sweeping = false

  constructor(
    private readonly service: ChatService,
    private readonly clock: Clock,
    /** The live session a collector's `sid` cookie names (the push role's lookup), or null. */
    private readonly sessionOf: (sid: string | undefined) => Promise<SocketSession | null>,
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
    const session = await this.sessionOf(sid)
    if (session === null) throw new AppError('NOT_FOUND')
    return this.service.image(key, { userId: session.userId })
  }

  /**
   * A staff socket (the route checked the staff session before the upgrade). `standing` is asked
   * again before each frame is acted on and every `staffRecheckMs` while the socket is open; once
   * it is not 'ok' the socket is closed with 1008 and that reason, and hears nothing more.
   */
  attachStaff(
    connection: ChatConnection,
    staffId: number,
    standing: () => Promise<StaffStanding>,
  ): ChatSocket {
    const socket = this.socket(connection, 'agent')
    socket.staffId = staffId
    socket.standing = standing
    this.staff.add(socket)
    this.startSweeps()
    this.send(socket, { type: 'hello', role: 'agent', conversationId: null })
    return socket
  }

  detach(socket: ChatSocket): void {
    socket.closed = true
    this.staff.delete(socket)
    if (this.staff.size === 0) this.stopSweeps()
    if (socket.userId !== null) {
      const set = this.byUser.get(socket.userId)
      set?.delete(socket)
      if (set?.size === 0) this.byUser.delete(socket.userId)
    }
    if (socket.sessionId !== null) this.bySession.remove(socket.sessionId, socket)
  }

  /** Stops the staff sockets' re-checks (the app is closing). */
  stopSweeps(): void {
    if (this.sweepTimer) clearInterval(this.sweepTimer)
    this.sweepTimer = null
  }

  /**
   * Looks every open staff socket's session up again and closes those it no longer serves. A
   * failed lookup (the database away) keeps the socket for the next sweep; its frames are refused
   * meanwhile, since each is checked on its own.
   */
  async recheckStaff(): Promise<void> {
    if (this.sweeping) return
    this.sweeping = true
    try {
      await Promise.all(
        [...this.staff].map(async (socket) => {
          try {
            await this.admitted(socket)
          } catch (error) {
            this.log?.error({ err: error }, 'chat: staff session re-check failed')
          }
        }),
      )
    } finally {
      this.sweeping = false
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
    if (isPing(raw)) {
      // Answered from the socket alone: no session lookup, no service, nothing changed. A staff
      // member whose session ended hears a pong until the next sweep closes the socket.
      if (this.admit(socket, socket.pingBucket)) this.send(socket, { type: 'pong' })
      return
    }
    if (!this.admit(socket, socket.bucket)) return
    socket.refusals = 0
    if (socket.role === 'agent') {
      try {
        if (!(await this.admitted(socket))) return
      } catch (error) {
        this.log?.error({ err: error }, 'chat: staff session check failed')
        this.send(socket, { type: 'error', code: 'INTERNAL_ERROR' })
        return
      }
    }
    const parsed = ChatClientFrameSchema.safeParse(parseJson(raw))
    if (!parsed.success) {
      this.send(socket, { type: 'error', code: 'VALIDATION_FAILED' })
      return
    }
    const frame = parsed.data
    if (frame.type === 'ping') {
      // Padded past PING_MAX_CHARS: paid for as a frame, answered all the same.
      this.send(socket, { type: 'pong' })
      return
    }
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

  /**
   * A bus event: a message or a read mark to the conversation's collector and to staff. A logout,
   * here or on another instance, closes the collector's sockets of that session with 1008: each
   * checked its cookie once, when it opened, and would go on hearing the conversation. Staff
   * sockets have sessions of their own (the staff sweeps re-check them).
   */
  deliver(event: PushEvent): void {
    if (event.type === 'session_revoked') {
      for (const socket of this.bySession.revoke(event.sessionId)) {
        this.close(socket, CLOSE_REASON_SESSION_ENDED)
      }
      return
    }
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

  /**
   * Takes a token from `bucket`; without one the frame is refused with RATE_LIMITED, and a socket
   * refused `refusalsBeforeClose` times in a row is closed with 1008.
   */
  private admit(socket: ChatSocket, bucket: TokenBucket): boolean {
    if (bucket.take(this.clock.now())) return true
    socket.refusals += 1
    if (socket.refusals >= this.limits.refusalsBeforeClose) {
      this.close(socket, 'rate limited')
    } else {
      this.send(socket, { type: 'error', code: 'RATE_LIMITED' })
    }
    return false
  }

  private actorOf(socket: ChatSocket, conversationId: number | undefined) {
    if (socket.role === 'user') return { side: 'user' as const, userId: socket.userId! }
    if (conversationId === undefined) throw new AppError('VALIDATION_FAILED', { conversationId })
    return { side: 'agent' as const, staffId: socket.staffId!, conversationId }
  }

  /** Whether a staff socket's session still serves it; closes it (1008, the reason) if not. */
  private async admitted(socket: ChatSocket): Promise<boolean> {
    if (socket.closed) return false
    const standing = socket.standing ? await socket.standing() : 'UNAUTHENTICATED'
    if (socket.closed) return false
    if (standing === 'ok') return true
    this.close(socket, standing)
    return false
  }

  private startSweeps(): void {
    if (this.sweepTimer) return
    this.sweepTimer = setInterval(() => {
      this.recheckStaff().catch((error: unknown) =>
        this.log?.error({ err: error }, 'chat: staff session re-check failed'),
      )
    }, this.limits.staffRecheckMs)
    this.sweepTimer.unref()
  }

  private socket(connection: ChatConnection, role: 'user' | 'agent'): ChatSocket {
    return {
      connection,
      role,
      userId: null,
      sessionId: null,
      staffId: null,
      standing: null,
      ready: Promise.resolve(),
      bucket: new TokenBucket(
        this.limits.frameBurst,
        this.limits.framesPerSecond,
        this.clock.now(),
      ),
      pingBucket: new TokenBucket(
        this.limits.frameBurst,
        this.limits.framesPerSecond,
        this.clock.now(),
      ),
      refusals: 0,
      closed: false,
    }
  }

  private async identify(socket: ChatSocket, sid: string | undefined): Promise<void> {
    let session: SocketSession | null = null
    try {
      // A session revoked while it was looked up counts as ended (session-sockets.ts).
      session = await this.bySession.lookUp(() => this.sessionOf(sid))
    } catch (error) {
      this.log?.error({ err: error }, 'chat: session lookup failed')
    }
    if (socket.closed) return
    if (session === null) {
      this.close(socket, CLOSE_REASON_UNAUTHENTICATED)
      return
    }
    const { userId, sessionId } = session
    socket.userId = userId
    socket.sessionId = sessionId
    // In the lookup's turn: a revocation arriving from here on finds the socket.
    this.bySession.add(sessionId, socket)
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

  /** Closes with 1008 and stops hearing the socket at once, before `ws` reports the close. */
  private close(socket: ChatSocket, reason: string): void {
    this.detach(socket)
    socket.connection.close(PUSH_CLOSE_POLICY, reason)
  }
}

/** `{"type":"ping"}` is 15 characters; a longer frame is not parsed before its rate is checked. */
const PING_MAX_CHARS = 64

/** Whether a frame is the heartbeat's ping, told apart without parsing a large frame. */
function isPing(raw: string): boolean {
  return raw.length <= PING_MAX_CHARS && PushPingSchema.safeParse(parseJson(raw)).success
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw)
  } catch {
    return undefined
  }
}
