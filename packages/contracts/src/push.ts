import { z } from 'zod'
import { IdSchema } from './api'
import { LotStatusSchema } from './lot-status'

// The socket's timings and close codes are zod-free, for the web app's first load (issue 13); the
// server and the schemas below still name them from here.
export {
  PUSH_ANSWER_MS,
  PUSH_CLOSE_POLICY,
  PUSH_CLOSE_RESTART,
  PUSH_QUIET_MS,
  RESTART_RETRY_MAX_MS,
  RESTART_RETRY_MIN_MS,
  restartRetryAfterMs,
} from './push-socket'

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
