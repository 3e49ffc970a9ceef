import { z } from 'zod'
import { IdParamSchema, IdSchema, plainText } from './api'
import { PushPingSchema, PushPongSchema } from './push'

/**
 * The customer-service chat (spec §1, §3 "Chat-widget context"; DESIGN §7): one conversation per
 * collector with the house's agent (`peerId`, from configuration), persisted, live over WebSocket
 * both ways, with history, unread counts, pictures and an item's card. Staff answer as the agent
 * from their own view; several instances reach each other's sockets through the event bus.
 */

/** Spec §3: the chat widget's peer when none is configured (CHAT_AGENT_ID). */
export const DEFAULT_CHAT_AGENT_ID = 'numisma-service'

export const CHAT_TEXT_MAX = 1000
export const CHAT_PAGE_MAX = 50
/** A picture is sent as a data URL of at most this many characters (about 3 MiB of image). */
export const CHAT_IMAGE_DATA_URL_MAX = 4 * 1024 * 1024
/**
 * What one stored picture may weigh: past it the server re-encodes smaller and at a lower quality
 * (a photo of a coin is about 200–400 KB at 1600 px; a picture of noise would be 1.8 MB).
 */
export const CHAT_IMAGE_STORED_MAX_BYTES = 512 * 1024
/** A collector's pictures in any 24 hours, by count and by stored bytes (CHAT_IMAGE_QUOTA past either). */
export const CHAT_IMAGES_PER_DAY = 50
export const CHAT_IMAGE_BYTES_PER_DAY = 20 * 1024 * 1024

/** The item a collector asks about (spec §3 chat context: title, subtitle, image, price). */
export const ChatCardSchema = z.object({
  kind: z.enum(['lot', 'mall']),
  /** Lot id or mall product number: the server fills title, subtitle, image and price itself. */
  ref: z.string().min(1).max(64),
  title: z.string(),
  subtitle: z.string(),
  image: z.string(),
  /** Fen: the lot's current (or start) price, the mall item's price. */
  price: z.number().int(),
  /** The item page within the shop (`/productDetail?id=…`, `/productDetail?productNo=…`). */
  link: z.string(),
})
export type ChatCard = z.infer<typeof ChatCardSchema>

export const ChatSenderSchema = z.enum(['user', 'agent'])
export type ChatSender = z.infer<typeof ChatSenderSchema>

export const ChatMessageSchema = z.object({
  id: z.number().int(),
  conversationId: z.number().int(),
  from: ChatSenderSchema,
  kind: z.enum(['text', 'image', 'card']),
  text: z.string().optional(),
  /** For kind image: our media URL of the stored JPEG. */
  imageUrl: z.string().optional(),
  card: ChatCardSchema.optional(),
  /** The sender's own id for the message, so a resend after a lost reply is not stored twice. */
  clientId: z.string().optional(),
  createdAt: z.string(),
})
export type ChatMessage = z.infer<typeof ChatMessageSchema>

const ClientIdSchema = z
  .string()
  .min(8)
  .max(64)
  .regex(/^[\w-]+$/)

/** What a sender sends: text, a picture (data URL, stored as JPEG) or an item's card (by ref). */
export const ChatSendSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('text'),
    clientId: ClientIdSchema,
    text: plainText(1, CHAT_TEXT_MAX, { multiline: true }),
  }),
  z.object({
    kind: z.literal('image'),
    clientId: ClientIdSchema,
    image: z.string().max(CHAT_IMAGE_DATA_URL_MAX),
  }),
  z.object({
    kind: z.literal('card'),
    clientId: ClientIdSchema,
    card: z.object({ kind: z.enum(['lot', 'mall']), ref: z.string().min(1).max(64) }),
  }),
])
export type ChatSend = z.infer<typeof ChatSendSchema>

/** History, newest first, before a message id (`before` omitted: the newest). */
export const ChatHistoryQuerySchema = z.object({
  before: IdParamSchema.optional(),
  limit: z.coerce.number().int().min(1).max(CHAT_PAGE_MAX).default(30),
})

/**
 * The collector's side (main service, signed): `GET /chat/conversation` → the conversation, its
 * agent (`peerId`) and the collector's unread count; `GET /chat/messages?before=&limit=` → history,
 * newest first; `POST /chat/messages` (ChatSend) → the stored message (also the way pictures go);
 * `POST /chat/read` → the agent's messages read. `GET /user/@statistics` carries `unreadChat`.
 */
export const ChatConversationSchema = z.object({
  id: z.number().int().nullable(),
  peerId: z.string(),
  unread: z.number().int(),
})
export type ChatConversation = z.infer<typeof ChatConversationSchema>

/** Staff's list (`GET /admin/chat/conversations`): newest activity first. */
export const StaffConversationSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  display: z.string(),
  mobile: z.string(),
  lastMessage: ChatMessageSchema.nullable(),
  /** The collector's messages the agent has not read. */
  unread: z.number().int(),
  updatedAt: z.string(),
})
export type StaffConversation = z.infer<typeof StaffConversationSchema>

export const StaffConversationParamsSchema = z.object({ id: IdParamSchema })

export const STAFF_CONVERSATIONS_PAGE_MAX = 50

/**
 * `GET /admin/chat/conversations?before=&limit=`: a page of staff's list. `before` is the previous
 * page's `nextBefore` (last activity and id of its last row, so conversations with the same time
 * are neither skipped nor repeated).
 */
export const StaffConversationsQuerySchema = z.object({
  before: z
    .string()
    .regex(/^\d{1,15}\.\d{1,15}$/)
    .optional(),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(STAFF_CONVERSATIONS_PAGE_MAX)
    .default(STAFF_CONVERSATIONS_PAGE_MAX),
})
export type StaffConversationsQuery = z.infer<typeof StaffConversationsQuerySchema>

/**
 * A page of staff's list, with the unread totals over every conversation: an agent must see that
 * someone waits even when their conversation is beyond the pages loaded.
 */
export const StaffConversationPageSchema = z.object({
  conversations: z.array(StaffConversationSchema),
  /** The cursor of the next (older) page; null on the last. */
  nextBefore: z.string().nullable(),
  /** Conversations with the collector's messages unread by staff, and those messages. */
  unreadConversations: z.number().int(),
  unreadMessages: z.number().int(),
})
export type StaffConversationPage = z.infer<typeof StaffConversationPageSchema>

/** `POST /chat/read` and staff's `…/:id/read`: how far the caller has now read. */
export const ChatReadSchema = z.object({
  conversationId: z.number().int().nullable(),
  upTo: z.number().int(),
})
export type ChatRead = z.infer<typeof ChatReadSchema>

/** A stored picture's random key (`/chat/images/:key`). */
export const CHAT_IMAGE_KEY = /^[0-9a-f]{32}$/
export const ChatImageParamsSchema = z.object({ key: z.string().regex(CHAT_IMAGE_KEY) })

/**
 * The chat sockets: `/svc/push/chat` for a collector (the `sid` cookie names them) and
 * `/svc/main/admin/chat/ws` for staff (the staff cookie). Frames are JSON.
 *
 * Both carry the push socket's heartbeat, the same frames on the same timing (PUSH_QUIET_MS,
 * PUSH_ANSWER_MS): after a quiet spell the page sends `ping`, the server answers `pong`, and a page
 * that hears nothing opens a new socket (a phone that changed networks leaves its socket half open,
 * and the chat would stop showing the agent's answers without a word).
 */
export const ChatClientFrameSchema = z.discriminatedUnion('type', [
  /** Staff name the conversation; a collector's goes to their own. */
  z.object({
    type: z.literal('send'),
    conversationId: IdSchema.optional(),
    message: ChatSendSchema,
  }),
  z.object({ type: z.literal('read'), conversationId: IdSchema.optional() }),
  PushPingSchema,
])
export type ChatClientFrame = z.infer<typeof ChatClientFrameSchema>

export const ChatServerFrameSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('hello'),
    role: z.enum(['user', 'agent']),
    conversationId: z.number().int().nullable(),
  }),
  /** A new message in a conversation this socket sees (its own, echoed, included). */
  z.object({ type: z.literal('message'), message: ChatMessageSchema }),
  /** The other side read up to `upTo`. */
  z.object({
    type: z.literal('read'),
    conversationId: z.number().int(),
    by: ChatSenderSchema,
    upTo: z.number().int(),
  }),
  z.object({ type: z.literal('error'), code: z.string(), clientId: z.string().optional() }),
  PushPongSchema,
])
export type ChatServerFrame = z.infer<typeof ChatServerFrameSchema>
