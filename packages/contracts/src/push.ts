import { z } from 'zod'
import { IdSchema } from './api'
import { LotStatusSchema } from './catalog'

/**
 * Messages on the push WebSocket `/svc/push/ws` (DESIGN §4 "Realtime", §9). The client subscribes
 * to lots; the server sends lot updates, an outbid notice to the user who lost the lead, and an
 * ending-soon reminder to a user watching a lot, and word to a collector that an agent answered.
 */
export const PUSH_MAX_LOTS_PER_SUBSCRIBE = 200

export const PushSubscribeSchema = z.object({
  type: z.literal('subscribe'),
  lotIds: z.array(IdSchema).max(PUSH_MAX_LOTS_PER_SUBSCRIBE),
})
export type PushSubscribe = z.infer<typeof PushSubscribeSchema>

/**
 * The client asks whether its socket still reaches the server, after a quiet spell; the server
 * answers `pong`. A half-open socket (a phone that changed networks) hears nothing back, and the
 * client opens a new one (apps/web lib/reconnecting-socket.ts `Heartbeat`).
 */
export const PushPingSchema = z.object({ type: z.literal('ping') })
export const PushPongSchema = z.object({ type: z.literal('pong') })

/** What the client quietly waits before a ping, and how long for any answer after it. */
export const PUSH_QUIET_MS = 25_000
export const PUSH_ANSWER_MS = 10_000

export const PushLotSchema = z.object({
  type: z.literal('lot'),
  lotId: z.number().int(),
  price: z.number().int().nullable(),
  bidCount: z.number().int(),
  endsAt: z.string(),
  status: LotStatusSchema,
  /** The leader's masked display name. */
  leader: z.string().nullable(),
})
export type PushLot = z.infer<typeof PushLotSchema>

export const PushOutbidSchema = z.object({
  type: z.literal('outbid'),
  lotId: z.number().int(),
  price: z.number().int(),
})
export type PushOutbid = z.infer<typeof PushOutbidSchema>

/** A watched lot ends soon (DESIGN §4 "Ending-soon reminders"); sent once per user and lot. */
export const PushReminderSchema = z.object({
  type: z.literal('reminder'),
  lotId: z.number().int(),
  title: z.string(),
  endsAt: z.string(),
})
export type PushReminder = z.infer<typeof PushReminderSchema>

/**
 * An agent wrote in the user's customer-service conversation: the page refreshes its unread
 * counts. The message itself is the chat socket's (`/svc/push/chat`), which is open on /chat only.
 */
export const PushChatSchema = z.object({
  type: z.literal('chat'),
  conversationId: z.number().int(),
})
export type PushChat = z.infer<typeof PushChatSchema>

export const PushHelloSchema = z.object({ type: z.literal('hello'), userId: z.number().nullable() })
export const PushErrorSchema = z.object({ type: z.literal('error'), code: z.string() })

/**
 * The codes an `error` message carries, from the error catalogue: a message that is not a valid
 * subscribe, a socket sending faster than the server's per-socket rate (repeated abuse then closes
 * it with {@link PUSH_CLOSE_POLICY}), and a snapshot the server could not read (subscribe again).
 */
export const PUSH_ERROR_CODES = ['VALIDATION_FAILED', 'RATE_LIMITED', 'INTERNAL_ERROR'] as const
export type PushErrorCode = (typeof PUSH_ERROR_CODES)[number]

/** WebSocket close code 1008 (policy violation): the server closed a socket for abuse. */
export const PUSH_CLOSE_POLICY = 1008

/**
 * WebSocket close code 1012 (Service Restart): the instance is shutting down (ADR 032), for the
 * push socket and the chat sockets alike. The close reason is JSON `{"retryAfterMs": n}`: the
 * server spreads n over {@link RESTART_RETRY_MIN_MS}…{@link RESTART_RETRY_MAX_MS} per socket and
 * the client waits n plus a jitter of its own before reconnecting, so thousands of sockets closed
 * together do not all come back in the same millisecond.
 */
export const PUSH_CLOSE_RESTART = 1012
export const RESTART_RETRY_MIN_MS = 500
export const RESTART_RETRY_MAX_MS = 15_000

/** The wait a 1012 close reason asks for; undefined when it carries none (or a malformed one). */
export function restartRetryAfterMs(reason: string): number | undefined {
  try {
    const hint = JSON.parse(reason) as { retryAfterMs?: unknown }
    const ms = hint?.retryAfterMs
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return undefined
    return Math.min(ms, RESTART_RETRY_MAX_MS)
  } catch {
    return undefined
  }
}

/** Everything the server sends. */
export const PushServerMessageSchema = z.discriminatedUnion('type', [
  PushLotSchema,
  PushOutbidSchema,
  PushReminderSchema,
  PushChatSchema,
  PushHelloSchema,
  PushErrorSchema,
  PushPongSchema,
])
export type PushServerMessage = z.infer<typeof PushServerMessageSchema>
