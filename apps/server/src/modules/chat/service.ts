import {
  CHAT_IMAGE_BYTES_PER_DAY,
  CHAT_IMAGES_PER_DAY,
  type ChatCard,
  type ChatConversation,
  type ChatMessage,
  type ChatSend,
  type StaffConversation,
  type StaffConversationPage,
  type StaffConversationsQuery,
} from '@numisma/contracts/chat'
import type { Clock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import type { EventBus } from '../../platform/event-bus'
import type { Transact, Tx } from '../../platform/transactions'
import { limitDecodes } from './images'
import type {
  ChatRepository,
  ConversationRow,
  MessageRow,
  StaffConversationRow,
} from './repository'

/** What the server fills in of an item's card (the collector names only the kind and the ref). */
export type CardFill = Omit<ChatCard, 'kind' | 'ref'>

/** Who sends or reads: the collector in their own conversation, or staff as the agent in one. */
export type ChatActor =
  { side: 'user'; userId: number } | { side: 'agent'; staffId: number; conversationId: number }

export interface ChatLimits {
  /** A collector's messages in any minute (across instances: counted in the database). */
  userMessagesPerMinute: number
  /** A collector's pictures in any 24 hours (staff's are not counted). */
  imagesPerDay: number
  /** …and their stored bytes: pictures are kept in the database, which must not fill up. */
  imageBytesPerDay: number
}

export const DEFAULT_CHAT_LIMITS: ChatLimits = {
  userMessagesPerMinute: 30,
  imagesPerDay: CHAT_IMAGES_PER_DAY,
  imageBytesPerDay: CHAT_IMAGE_BYTES_PER_DAY,
}

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE

export interface ChatDeps {
  transact: Transact
  clock: Clock
  repo: Pick<
    ChatRepository,
    | 'conversationOfUser'
    | 'conversation'
    | 'openConversation'
    | 'messageByClientId'
    | 'insertMessage'
    | 'insertImage'
    | 'image'
    | 'history'
    | 'messagesByIds'
    | 'unread'
    | 'markRead'
    | 'sentSince'
    | 'picturesSince'
    | 'staffList'
    | 'staffUnread'
  >
  bus: Pick<EventBus, 'publish'>
  /** The conversation's peer (CHAT_AGENT_ID). */
  agentId: string
  /** The catalogue's and the mall's items as a card (undefined: no such item). */
  cards: {
    lot(id: number): Promise<CardFill | undefined>
    mall(productNo: string): Promise<CardFill | undefined>
  }
  /**
   * A data URL to a clean JPEG of at most CHAT_IMAGE_STORED_MAX_BYTES (modules/chat/images.ts);
   * throws CHAT_IMAGE_INVALID when it is no picture.
   */
  images: { normalise(dataUrl: string): Promise<Buffer> }
  /** An unguessable key for a stored picture. */
  newImageKey: () => string
  limits: ChatLimits
}

/** Where a picture is fetched, relative to the service: `/svc/main` for the collector, `/svc/main/admin` for staff. */
export const chatImagePath = (key: string) => `/chat/images/${key}`

export function toChatMessage(row: MessageRow): ChatMessage {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    from: row.sender === 'agent' ? 'agent' : 'user',
    kind: row.kind === 'image' ? 'image' : row.kind === 'card' ? 'card' : 'text',
    ...(row.text !== null ? { text: row.text } : {}),
    ...(row.image_key !== null ? { imageUrl: chatImagePath(row.image_key) } : {}),
    ...(row.card !== null ? { card: JSON.parse(row.card) as ChatCard } : {}),
    clientId: row.client_id,
    createdAt: new Date(row.created_at).toISOString(),
  }
}

/** A message's stored content, made before its transaction. */
interface Content {
  text: string | null
  image: { key: string; jpeg: Buffer } | null
  card: ChatCard | null
}

/** What a send stored: `fresh` false when the client id was already there (a resend). */
export interface Sent {
  message: ChatMessage
  userId: number
  fresh: boolean
}

/**
 * The customer-service chat (DESIGN §7, ADR 018): one conversation per collector with the house's
 * agent, opened by the collector's first message. A message is stored before anyone hears of it,
 * once per sender and client id; after the commit it goes on the bus, so the collector's and every
 * staff socket on every instance receive it.
 */
export class ChatService {
  constructor(private readonly deps: ChatDeps) {}

  get agentId(): string {
    return this.deps.agentId
  }

  async conversation(userId: number): Promise<ChatConversation> {
    const row = await this.deps.repo.conversationOfUser(userId)
    if (!row) return { id: null, peerId: this.deps.agentId, unread: 0 }
    return { id: row.id, peerId: row.agent_id, unread: await this.deps.repo.unread(row, 'user') }
  }

  /** The collector's unread count (`GET /user/@statistics`). */
  async unreadCount(userId: number): Promise<number> {
    const row = await this.deps.repo.conversationOfUser(userId)
    return row ? this.deps.repo.unread(row, 'user') : 0
  }

  async history(
    actor: ChatActor,
    query: { before?: number; limit: number },
  ): Promise<ChatMessage[]> {
    const conversation = await this.find(actor)
    if (!conversation) return []
    const rows = await this.deps.repo.history(conversation.id, query.before, query.limit)
    return rows.map(toChatMessage)
  }

  send(actor: ChatActor, send: ChatSend): Promise<Sent> {
    // A picture is sent whole (checks, decoding, commit) in its decoding turn, so a burst queued
    // behind the first pictures, even a new collector's, meets the conversation, rate and quota
    // they committed before decoding anything.
    return send.kind === 'image'
      ? limitDecodes(() => this.sendNow(actor, send))
      : this.sendNow(actor, send)
  }

  private async sendNow(actor: ChatActor, send: ChatSend): Promise<Sent> {
    const { repo, clock } = this.deps
    const prepared = await this.prepare(actor, send)
    if ('sent' in prepared) return prepared.sent
    const { existing, content } = prepared
    const result = await this.deps.transact(async (tx) => {
      const now = clock.now()
      const conversation =
        actor.side === 'user'
          ? await repo.openConversation(tx, actor.userId, this.deps.agentId, now)
          : existing!
      // The conversation row is locked from here to the commit (openConversation), so a
      // collector's parallel sends count their rate and quota one after another. A copy of a
      // send that committed while this one waited is answered with it, never refused: the phone
      // would mark a stored message failed.
      const stored = await repo.messageByClientId(tx, conversation.id, actor.side, send.clientId)
      if (stored) return { row: stored, userId: conversation.user_id, fresh: false }
      if (actor.side === 'user') {
        await this.checkRate(tx, conversation.id)
        if (content.image) {
          await this.checkPictureQuota(tx, conversation.id, content.image.jpeg.length)
        }
      }
      const row = await repo.insertMessage(tx, {
        conversation_id: conversation.id,
        sender: actor.side,
        staff_id: actor.side === 'agent' ? actor.staffId : null,
        kind: send.kind,
        text: content.text,
        image_key: content.image?.key ?? null,
        card: content.card === null ? null : JSON.stringify(content.card),
        client_id: send.clientId,
        created_at: now,
      })
      if (!row) {
        // The same client id raced in from another request and won.
        const stored = await repo.messageByClientId(tx, conversation.id, actor.side, send.clientId)
        return { row: stored!, userId: conversation.user_id, fresh: false }
      }
      if (content.image) {
        await repo.insertImage(tx, {
          key: content.image.key,
          conversationId: conversation.id,
          jpeg: content.image.jpeg,
          now,
        })
      }
      return { row, userId: conversation.user_id, fresh: true }
    })
    const message = toChatMessage(result.row)
    if (result.fresh) {
      this.deps.bus.publish({
        type: 'chat',
        userId: result.userId,
        conversationId: message.conversationId,
        message,
      })
    }
    return { message, userId: result.userId, fresh: result.fresh }
  }

  /**
   * A resend's stored message, or the cheap rate and quota checks passed and the content made
   * (a picture decoded).
   */
  private async prepare(
    actor: ChatActor,
    send: ChatSend,
  ): Promise<{ sent: Sent } | { existing: ConversationRow | undefined; content: Content }> {
    const { repo } = this.deps
    const existing = await this.find(actor)
    if (existing) {
      // A resend costs no decoding and no rate: it is answered with what was stored.
      const stored = await repo.messageByClientId(undefined, existing.id, actor.side, send.clientId)
      if (stored) {
        return { sent: { message: toChatMessage(stored), userId: existing.user_id, fresh: false } }
      }
      if (actor.side === 'user') {
        try {
          await this.checkRate(undefined, existing.id)
          if (send.kind === 'image') await this.checkPictureQuota(undefined, existing.id, 0)
        } catch (refusal) {
          // A copy of this send may have committed since the look-up above, and be what filled
          // the rate: that copy is the answer, not the refusal.
          const copy = await repo.messageByClientId(undefined, existing.id, 'user', send.clientId)
          if (!copy) throw refusal
          return { sent: { message: toChatMessage(copy), userId: existing.user_id, fresh: false } }
        }
      }
    }
    return { existing, content: await this.content(send) }
  }

  /** Marks the other side's messages read; the other side hears how far. */
  async markRead(actor: ChatActor): Promise<{ conversationId: number | null; upTo: number }> {
    const conversation = await this.find(actor)
    if (!conversation) return { conversationId: null, upTo: 0 }
    const moved = await this.deps.transact((tx) =>
      this.deps.repo.markRead(tx, conversation.id, actor.side),
    )
    if (moved === undefined) {
      const upTo =
        actor.side === 'user' ? conversation.user_read_upto : conversation.agent_read_upto
      return { conversationId: conversation.id, upTo }
    }
    this.deps.bus.publish({
      type: 'chat_read',
      userId: conversation.user_id,
      conversationId: conversation.id,
      by: actor.side,
      upTo: moved,
    })
    return { conversationId: conversation.id, upTo: moved }
  }

  /**
   * A page of staff's list, newest activity first, and the unread totals over all of it. The
   * cursor is the page's last row as `<updated_at>.<id>`.
   */
  async staffConversations(query: StaffConversationsQuery): Promise<StaffConversationPage> {
    const [updatedAt, id] = (query.before ?? '').split('.').map(Number)
    const before = query.before === undefined ? undefined : { updatedAt: updatedAt!, id: id! }
    const [rows, unread] = await Promise.all([
      this.deps.repo.staffList(query.limit, before),
      this.deps.repo.staffUnread(),
    ])
    const last = rows.at(-1)
    return {
      conversations: await this.staffRows(rows),
      nextBefore: rows.length < query.limit || !last ? null : `${last.updated_at}.${last.id}`,
      unreadConversations: unread.conversations,
      unreadMessages: unread.messages,
    }
  }

  private async staffRows(rows: StaffConversationRow[]): Promise<StaffConversation[]> {
    const last = await this.deps.repo.messagesByIds(
      rows.flatMap((row) => (row.last_id === null ? [] : [row.last_id])),
    )
    const byId = new Map(last.map((m) => [m.id, m]))
    return rows.map((row) => {
      const message = row.last_id === null ? undefined : byId.get(row.last_id)
      return {
        id: row.id,
        userId: row.user_id,
        display: row.display,
        // Staff answer the collector and may call them back: the whole number (as on shipments).
        mobile: row.mobile,
        lastMessage: message ? toChatMessage(message) : null,
        unread: row.unread,
        updatedAt: new Date(row.updated_at).toISOString(),
      }
    })
  }

  /** A picture for the collector whose conversation it is, or for staff; anyone else: 404. */
  async image(key: string, viewer: { userId: number } | 'staff'): Promise<Buffer> {
    const row = await this.deps.repo.image(key)
    if (!row || (viewer !== 'staff' && row.userId !== viewer.userId)) {
      throw new AppError('NOT_FOUND')
    }
    return row.jpeg
  }

  /** The conversation an actor speaks in: the collector's own (maybe none yet), or the one staff name. */
  private async find(actor: ChatActor): Promise<ConversationRow | undefined> {
    if (actor.side === 'user') return this.deps.repo.conversationOfUser(actor.userId)
    const row = await this.deps.repo.conversation(actor.conversationId)
    if (!row) throw new AppError('NOT_FOUND', { conversationId: actor.conversationId })
    return row
  }

  /**
   * The collector's per-minute rate, so a script cannot flood staff. Checked before decoding a
   * picture (cheap) and again in the transaction (exact).
   */
  private async checkRate(tx: Tx | undefined, conversationId: number): Promise<void> {
    const since = this.deps.clock.now() - MINUTE
    const sent = await this.deps.repo.sentSince(tx, conversationId, 'user', since)
    if (sent >= this.deps.limits.userMessagesPerMinute) {
      throw new AppError('RATE_LIMITED', { perMinute: this.deps.limits.userMessagesPerMinute })
    }
  }

  /**
   * The collector's pictures in the last 24 hours, by count and by stored bytes with this one
   * (`adding`; 0 in the cheap check before decoding). Exact in the transaction, as the rate is.
   */
  private async checkPictureQuota(
    tx: Tx | undefined,
    conversationId: number,
    adding: number,
  ): Promise<void> {
    const { imagesPerDay, imageBytesPerDay } = this.deps.limits
    const sent = await this.deps.repo.picturesSince(
      tx,
      conversationId,
      'user',
      this.deps.clock.now() - DAY,
    )
    if (sent.count >= imagesPerDay || sent.bytes + adding > imageBytesPerDay) {
      throw new AppError('CHAT_IMAGE_QUOTA', {
        perDay: imagesPerDay,
        bytesPerDay: imageBytesPerDay,
        sent: sent.count,
        bytes: sent.bytes,
      })
    }
  }

  private async content(send: ChatSend): Promise<Content> {
    switch (send.kind) {
      case 'text':
        return { text: send.text, image: null, card: null }
      case 'image': {
        const jpeg = await this.deps.images.normalise(send.image)
        return { text: null, image: { key: this.deps.newImageKey(), jpeg }, card: null }
      }
      case 'card': {
        const { kind, ref } = send.card
        const fill =
          kind === 'lot'
            ? /^\d{1,15}$/.test(ref)
              ? await this.deps.cards.lot(Number(ref))
              : undefined
            : await this.deps.cards.mall(ref)
        if (!fill) throw new AppError('CHAT_ITEM_NOT_FOUND', { kind, ref })
        return { text: null, image: null, card: { kind, ref, ...fill } }
      }
    }
  }
}
