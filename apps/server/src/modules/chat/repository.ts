import type { ChatSender } from '@numisma/contracts/chat'
import type { Kysely } from 'kysely'
import type { ChatConversationsTable, ChatMessagesTable, DB } from '../../platform/schema'
import type { Tx } from '../../platform/transactions'

export type ConversationRow = Omit<
  ChatConversationsTable,
  'id' | 'user_read_upto' | 'agent_read_upto'
> & {
  id: number
  user_read_upto: number
  agent_read_upto: number
}
export type MessageRow = Omit<ChatMessagesTable, 'id'> & { id: number }
export type NewMessage = Omit<ChatMessagesTable, 'id'>

export interface StaffConversationRow extends ConversationRow {
  display: string
  mobile: string
  last_id: number | null
  unread: number
}

const readColumn = (side: ChatSender) =>
  side === 'user' ? ('user_read_upto' as const) : ('agent_read_upto' as const)
const other = (side: ChatSender): ChatSender => (side === 'user' ? 'agent' : 'user')

/** The chat's SQL. Methods that take `tx` run in the caller's write transaction. */
export class ChatRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async conversationOfUser(userId: number): Promise<ConversationRow | undefined> {
    return this.db
      .selectFrom('chat_conversations')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst()
  }

  async conversation(id: number): Promise<ConversationRow | undefined> {
    return this.db
      .selectFrom('chat_conversations')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()
  }

  /**
   * The user's conversation, opened on their first message (a unique user id: once, however
   * raced), and locked for the rest of the transaction: the no-op update on conflict takes the
   * row lock on PostgreSQL, so a collector's parallel sends count their per-minute rate one after
   * another instead of all seeing the same count under READ COMMITTED (SQLite has one writer).
   */
  async openConversation(
    tx: Tx,
    userId: number,
    agentId: string,
    now: number,
  ): Promise<ConversationRow> {
    return tx
      .insertInto('chat_conversations')
      .values({ user_id: userId, agent_id: agentId, created_at: now, updated_at: now })
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({
          updated_at: (eb) => eb.ref('chat_conversations.updated_at'),
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow()
  }

  /** The message a sender already stored under this client id, if any. */
  async messageByClientId(
    db: Tx | undefined,
    conversationId: number,
    sender: ChatSender,
    clientId: string,
  ): Promise<MessageRow | undefined> {
    return (db ?? this.db)
      .selectFrom('chat_messages')
      .selectAll()
      .where('conversation_id', '=', conversationId)
      .where('sender', '=', sender)
      .where('client_id', '=', clientId)
      .executeTakeFirst()
  }

  /** Stores a message; undefined when its client id is already there (a resend). */
  async insertMessage(tx: Tx, row: NewMessage): Promise<MessageRow | undefined> {
    const inserted = await tx
      .insertInto('chat_messages')
      .values(row)
      .onConflict((oc) => oc.columns(['conversation_id', 'sender', 'client_id']).doNothing())
      .returning('id')
      .executeTakeFirst()
    if (!inserted) return undefined
    await tx
      .updateTable('chat_conversations')
      .set({ updated_at: row.created_at })
      .where('id', '=', row.conversation_id)
      .execute()
    return { ...row, id: inserted.id }
  }

  async insertImage(
    tx: Tx,
    row: { key: string; conversationId: number; jpeg: Buffer; now: number },
  ): Promise<void> {
    await tx
      .insertInto('chat_images')
      .values({
        key: row.key,
        conversation_id: row.conversationId,
        jpeg: row.jpeg,
        bytes: row.jpeg.length,
        created_at: row.now,
      })
      .execute()
  }

  /** A picture with the collector whose conversation it belongs to. */
  async image(key: string): Promise<{ userId: number; jpeg: Buffer } | undefined> {
    const row = await this.db
      .selectFrom('chat_images')
      .innerJoin('chat_conversations', 'chat_conversations.id', 'chat_images.conversation_id')
      .select(['chat_conversations.user_id', 'chat_images.jpeg'])
      .where('chat_images.key', '=', key)
      .executeTakeFirst()
    return row && { userId: row.user_id, jpeg: Buffer.from(row.jpeg) }
  }

  /** The pictures one side sent since a time, and their stored bytes: the collector's daily quota. */
  async picturesSince(
    tx: Tx | undefined,
    conversationId: number,
    sender: ChatSender,
    since: number,
  ): Promise<{ count: number; bytes: number }> {
    const row = await (tx ?? this.db)
      .selectFrom('chat_messages as m')
      .innerJoin('chat_images as i', 'i.key', 'm.image_key')
      .select((eb) => [
        eb.fn.countAll<number | string>().as('n'),
        eb.fn.sum<number | string | null>('i.bytes').as('bytes'),
      ])
      .where('m.conversation_id', '=', conversationId)
      .where('m.sender', '=', sender)
      .where('m.created_at', '>', since)
      .executeTakeFirstOrThrow()
    return { count: Number(row.n), bytes: Number(row.bytes ?? 0) }
  }

  /** Messages newest first, before `before` when given. */
  async history(
    conversationId: number,
    before: number | undefined,
    limit: number,
  ): Promise<MessageRow[]> {
    let query = this.db
      .selectFrom('chat_messages')
      .selectAll()
      .where('conversation_id', '=', conversationId)
    if (before !== undefined) query = query.where('id', '<', before)
    return query.orderBy('id', 'desc').limit(limit).execute()
  }

  async messagesByIds(ids: readonly number[]): Promise<MessageRow[]> {
    if (ids.length === 0) return []
    return this.db.selectFrom('chat_messages').selectAll().where('id', 'in', ids).execute()
  }

  /** The other side's messages `side` has not read. */
  async unread(conversation: ConversationRow, side: ChatSender): Promise<number> {
    const row = await this.db
      .selectFrom('chat_messages')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('conversation_id', '=', conversation.id)
      .where('sender', '=', other(side))
      .where('id', '>', conversation[readColumn(side)])
      .executeTakeFirstOrThrow()
    return Number(row.n)
  }

  /**
   * Marks the conversation read by `side` up to its newest message; the mark only moves forward.
   * Returns the mark, or undefined when it did not move (nothing new to tell the other side).
   */
  async markRead(tx: Tx, conversationId: number, side: ChatSender): Promise<number | undefined> {
    const newest = await tx
      .selectFrom('chat_messages')
      .select((eb) => eb.fn.max('id').as('id'))
      .where('conversation_id', '=', conversationId)
      .executeTakeFirst()
    const upTo = newest?.id ?? 0
    const column = readColumn(side)
    const updated = await tx
      .updateTable('chat_conversations')
      .set({ [column]: upTo })
      .where('id', '=', conversationId)
      .where(column, '<', upTo)
      .executeTakeFirst()
    return Number(updated.numUpdatedRows) > 0 ? upTo : undefined
  }

  /** The collector's messages in the last `sinceMs`: the per-minute rate, across instances. */
  async sentSince(
    tx: Tx | undefined,
    conversationId: number,
    sender: ChatSender,
    since: number,
  ): Promise<number> {
    const row = await (tx ?? this.db)
      .selectFrom('chat_messages')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('conversation_id', '=', conversationId)
      .where('sender', '=', sender)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow()
    return Number(row.n)
  }

  /**
   * Staff's list: newest activity first (ties by id), with the collector and their unread count;
   * `before` is the last row of the previous page.
   */
  async staffList(
    limit: number,
    before?: { updatedAt: number; id: number },
  ): Promise<StaffConversationRow[]> {
    let query = this.db
      .selectFrom('chat_conversations as c')
      .innerJoin('users', 'users.id', 'c.user_id')
      .selectAll('c')
      .select(['users.display', 'users.mobile'])
      .select((eb) => [
        eb
          .selectFrom('chat_messages as m')
          .select((m) => m.fn.max('m.id').as('x'))
          .whereRef('m.conversation_id', '=', 'c.id')
          .as('last_id'),
        eb
          .selectFrom('chat_messages as m')
          .select((m) => m.fn.countAll<number | string>().as('x'))
          .whereRef('m.conversation_id', '=', 'c.id')
          .where('m.sender', '=', 'user')
          .whereRef('m.id', '>', 'c.agent_read_upto')
          .as('unread'),
      ])
    if (before !== undefined) {
      query = query.where((eb) =>
        eb.or([
          eb('c.updated_at', '<', before.updatedAt),
          eb.and([eb('c.updated_at', '=', before.updatedAt), eb('c.id', '<', before.id)]),
        ]),
      )
    }
    const rows = await query
      .orderBy('c.updated_at', 'desc')
      .orderBy('c.id', 'desc')
      .limit(limit)
      .execute()
    return rows.map((row) => ({
      ...row,
      last_id: row.last_id,
      unread: Number(row.unread ?? 0),
    }))
  }

  /** Over every conversation: those with the collector's messages staff have not read, and how many. */
  async staffUnread(): Promise<{ conversations: number; messages: number }> {
    const row = await this.db
      .selectFrom('chat_messages as m')
      .innerJoin('chat_conversations as c', 'c.id', 'm.conversation_id')
      .select((eb) => [
        eb.fn.count<number | string>('m.conversation_id').distinct().as('conversations'),
        eb.fn.countAll<number | string>().as('messages'),
      ])
      .where('m.sender', '=', 'user')
      .whereRef('m.id', '>', 'c.agent_read_upto')
      .executeTakeFirstOrThrow()
    return { conversations: Number(row.conversations), messages: Number(row.messages) }
  }
}
