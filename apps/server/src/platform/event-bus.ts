import { ChatMessageSchema, ChatSenderSchema } from '@numisma/contracts/chat'
import { PushLotSchema, PushOutbidSchema, PushReminderSchema } from '@numisma/contracts/push'
import { z } from 'zod'

/**
 * Push events (DESIGN §4 "Realtime"). Embedded mode fans out in-process; production backs the
 * same interface with Redis pub/sub so every instance's WebSocket clients hear every bid.
 *
 * Each event is the client message from `@numisma/contracts/push`, plus, for a message meant for
 * one user (outbid, reminder), that user's id — the push role sends it to their sockets only and
 * leaves `userId` off the wire.
 */
export const PushEventSchema = z.discriminatedUnion('type', [
  PushLotSchema,
  PushOutbidSchema.extend({ userId: z.number().int() }),
  PushReminderSchema.extend({ userId: z.number().int() }),
  // The customer-service chat (modules/chat): a stored message, and how far a side has read. The
  // chat sockets of the conversation's collector and every staff socket hear them; the push role
  // only tells the collector's page sockets that an agent message arrived (their unread badge).
  z.object({
    type: z.literal('chat'),
    userId: z.number().int(),
    conversationId: z.number().int(),
    message: ChatMessageSchema,
  }),
  z.object({
    type: z.literal('chat_read'),
    userId: z.number().int(),
    conversationId: z.number().int(),
    by: ChatSenderSchema,
    upTo: z.number().int(),
  }),
  // A session ended by its logout (modules/passport/session-cache.ts): every instance forgets its
  // cached credentials and closes the session's sockets (push, chat). Never sent to a socket.
  z.object({ type: z.literal('session_revoked'), sessionId: z.string().min(1).max(64) }),
])
export type PushEvent = z.infer<typeof PushEventSchema>

export interface EventBus {
  publish(event: PushEvent): void
  subscribe(listener: (event: PushEvent) => void): () => void
  close(): Promise<void>
  /**
   * Resolves while every connection the bus needs answers, else rejects: /svc/ready asks it, since
   * an instance whose subscription dropped no longer pushes other instances' events to its
   * sockets. The in-process bus has none to ask.
   */
  ready?(): Promise<void>
  /**
   * Calls `listener` each time the bus hears its channel again after losing it (a Redis outage,
   * a killed connection): what was published meanwhile never arrives, so state kept up to date by
   * events (the session cache, ADR 035) must be dropped. The in-process bus loses nothing.
   */
  onResubscribed?(listener: () => void): () => void
}

/** The listeners of one bus, called in turn; one that throws does not stop the others. */
class Listeners {
  private readonly set = new Set<(event: PushEvent) => void>()

  add(listener: (event: PushEvent) => void): () => void {
    this.set.add(listener)
    return () => this.set.delete(listener)
  }

  deliver(event: PushEvent): void {
    for (const listener of this.set) {
      try {
        listener(event)
      } catch {
        // One broken subscriber must not stop the others.
      }
    }
  }

  clear(): void {
    this.set.clear()
  }
}

/**
 * One process (embedded mode). Events are delivered on the next turn of the event loop, in the
 * order they were published, never inside `publish`: a bid publishes before it answers, and
 * writing one lot's event to 5,000 watchers takes tens of milliseconds — the bidder's answer went
 * out only after them (push-fanout bench: p50 70–200 ms against ~21 ms with the Redis bus, which
 * was already asynchronous). Now the answer leaves first, as with Redis.
 */
export class InProcessEventBus implements EventBus {
  private readonly listeners = new Listeners()
  private queue: PushEvent[] = []

  publish(event: PushEvent): void {
    this.queue.push(event)
    if (this.queue.length === 1) setImmediate(() => this.flush())
  }

  private flush(): void {
    const events = this.queue
    this.queue = []
    for (const event of events) this.listeners.deliver(event)
  }

  subscribe(listener: (event: PushEvent) => void): () => void {
    return this.listeners.add(listener)
  }

  close(): Promise<void> {
    this.listeners.clear()
    return Promise.resolve()
  }
}

export const PUSH_CHANNEL = 'numisma:push'

/**
 * The channel of one deployment (platform/deployment-tag.ts): Redis pub/sub ignores database
 * numbers, so two shops on one Redis on a shared channel heard each other's lot updates whenever
 * lot ids matched (found by the multi-process suite).
 */
export const pushChannelFor = (tag: string): string => `${PUSH_CHANNEL}:${tag}`

/** The minimum of an ioredis client this bus needs (kept small so tests can reason about it). */
interface RedisLike {
  publish(channel: string, message: string): Promise<unknown>
  subscribe(channel: string): Promise<unknown>
  on(event: 'message', listener: (channel: string, message: string) => void): unknown
  quit(): Promise<unknown>
  ping?(): Promise<unknown>
  /** ioredis's connection state ('ready' when connected, and subscribed again after a drop). */
  readonly status?: string
}

/**
 * Several instances (DESIGN §1 production): every instance publishes to one Redis channel and
 * delivers what arrives there to its own WebSocket clients — including its own events, so every
 * instance sees the same order.
 */
export class RedisEventBus implements EventBus {
  /** Called as a message arrives from Redis, which is already after the publisher went on. */
  private readonly local = new Listeners()
  private readonly resubscribedListeners = new Set<() => void>()

  constructor(
    private readonly publisher: RedisLike,
    private readonly subscriber: RedisLike,
    private readonly onError: (error: unknown) => void = () => undefined,
    private readonly channel: string = PUSH_CHANNEL,
  ) {
    this.subscriber.on('message', (channel, message) => {
      if (channel !== this.channel) return
      try {
        // Another instance's message: checked, since a malformed one must not reach a client.
        this.local.deliver(PushEventSchema.parse(JSON.parse(message)))
      } catch (error) {
        this.onError(error)
      }
    })
  }

  async start(): Promise<void> {
    await this.subscriber.subscribe(this.channel)
  }

  publish(event: PushEvent): void {
    this.publisher.publish(this.channel, JSON.stringify(event)).catch(this.onError)
  }

  subscribe(listener: (event: PushEvent) => void): () => void {
    return this.local.add(listener)
  }

  onResubscribed(listener: () => void): () => void {
    this.resubscribedListeners.add(listener)
    return () => this.resubscribedListeners.delete(listener)
  }

  /**
   * The subscriber's connection is up again after a drop (platform/redis-bus.ts calls this on its
   * `ready`). Subscribes once more and waits for Redis to confirm — ioredis re-sends the
   * subscription too, but does not say when it took effect; Redis answers a connection's commands
   * in order, so from here every publish is heard — and only then tells the listeners. Rejects
   * when the connection dropped again: the next `ready` calls this anew.
   */
  async resubscribed(): Promise<void> {
    await this.subscriber.subscribe(this.channel)
    for (const listener of this.resubscribedListeners) {
      try {
        listener()
      } catch (error) {
        this.onError(error)
      }
    }
  }

  async ready(): Promise<void> {
    // A connection that is not up fails at once: a PING would wait in ioredis's offline queue.
    for (const [role, client] of [
      ['publisher', this.publisher],
      ['subscriber', this.subscriber],
    ] as const) {
      if (client.status !== undefined && client.status !== 'ready')
        throw new Error(`push bus ${role} is ${client.status}`)
    }
    await Promise.all([this.publisher.ping?.(), this.subscriber.ping?.()])
  }

  async close(): Promise<void> {
    this.local.clear()
    this.resubscribedListeners.clear()
    await Promise.allSettled([this.publisher.quit(), this.subscriber.quit()])
  }
}
