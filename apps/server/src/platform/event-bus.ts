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
])
export type PushEvent = z.infer<typeof PushEventSchema>

export interface EventBus {
  publish(event: PushEvent): void
  subscribe(listener: (event: PushEvent) => void): () => void
  close(): Promise<void>
}

export class InProcessEventBus implements EventBus {
  private readonly listeners = new Set<(event: PushEvent) => void>()

  publish(event: PushEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event)
      } catch {
        // One broken subscriber must not stop the others.
      }
    }
  }

  subscribe(listener: (event: PushEvent) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  close(): Promise<void> {
    this.listeners.clear()
    return Promise.resolve()
  }
}

export const PUSH_CHANNEL = 'numisma:push'

/** The minimum of an ioredis client this bus needs (kept small so tests can reason about it). */
interface RedisLike {
  publish(channel: string, message: string): Promise<unknown>
  subscribe(channel: string): Promise<unknown>
  on(event: 'message', listener: (channel: string, message: string) => void): unknown
  quit(): Promise<unknown>
}

/**
 * Several instances (DESIGN §1 production): every instance publishes to one Redis channel and
 * delivers what arrives there to its own WebSocket clients — including its own events, so every
 * instance sees the same order.
 */
export class RedisEventBus implements EventBus {
  private readonly local = new InProcessEventBus()

  constructor(
    private readonly publisher: RedisLike,
    private readonly subscriber: RedisLike,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {
    this.subscriber.on('message', (channel, message) => {
      if (channel !== PUSH_CHANNEL) return
      try {
        // Another instance's message: checked, since a malformed one must not reach a client.
        this.local.publish(PushEventSchema.parse(JSON.parse(message)))
      } catch (error) {
        this.onError(error)
      }
    })
  }

  async start(): Promise<void> {
    await this.subscriber.subscribe(PUSH_CHANNEL)
  }

  publish(event: PushEvent): void {
    this.publisher.publish(PUSH_CHANNEL, JSON.stringify(event)).catch(this.onError)
  }

  subscribe(listener: (event: PushEvent) => void): () => void {
    return this.local.subscribe(listener)
  }

  async close(): Promise<void> {
    await this.local.close()
    await Promise.allSettled([this.publisher.quit(), this.subscriber.quit()])
  }
}
