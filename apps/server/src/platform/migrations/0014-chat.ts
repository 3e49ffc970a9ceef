import type { Kysely } from 'kysely'
import type { MigrationContext } from './index'

/**
 * The customer-service chat (issue 11, DESIGN §7, ADR 018): one conversation per collector with
 * the house's agent, its messages (a resend with the same client id is stored once), how far each
 * side has read, and the pictures sent in it (re-encoded JPEGs, kept in the database like
 * remittance receipts so that every instance serves them).
 */
export function chat({ id, time, dialect }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await id(db.schema.createTable('chat_conversations'))
        .addColumn('user_id', 'integer', (c) => c.notNull().unique().references('users.id'))
        .addColumn('agent_id', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        // The last message's time: staff's list is newest activity first.
        .addColumn('updated_at', time, (c) => c.notNull())
        // The highest message id each side has read (0: none).
        .addColumn('user_read_upto', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('agent_read_upto', 'integer', (c) => c.notNull().defaultTo(0))
        .execute()
      await db.schema
        .createIndex('chat_conversations_updated')
        .on('chat_conversations')
        .columns(['updated_at', 'id'])
        .execute()

      await id(db.schema.createTable('chat_messages'))
        .addColumn('conversation_id', 'integer', (c) =>
          c.notNull().references('chat_conversations.id'),
        )
        // 'user' | 'agent'
        .addColumn('sender', 'text', (c) => c.notNull())
        // Which staff member answered as the agent (null for the collector's messages).
        .addColumn('staff_id', 'integer', (c) => c.references('staff_users.id'))
        // 'text' | 'image' | 'card'
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('text', 'text')
        .addColumn('image_key', 'text')
        // JSON ChatCard as filled when sent (the item may change or go later).
        .addColumn('card', 'text')
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        // A resend after a lost reply is stored once.
        .addUniqueConstraint('chat_messages_client', ['conversation_id', 'sender', 'client_id'])
        .execute()
      // History pages (newest first, before an id) and the unread counts walk this.
      await db.schema
        .createIndex('chat_messages_conversation')
        .on('chat_messages')
        .columns(['conversation_id', 'id'])
        .execute()

      await db.schema
        .createTable('chat_images')
        // Random, so a URL cannot be guessed; the route still checks who asks.
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('conversation_id', 'integer', (c) =>
          c.notNull().references('chat_conversations.id'),
        )
        // The re-encoded JPEG as bytes (base64 text would weigh a third more), and its length:
        // a collector's daily byte quota sums it (ADR 018).
        .addColumn('jpeg', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
        .addColumn('bytes', 'integer', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .execute()
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('chat_images').execute()
      await db.schema.dropTable('chat_messages').execute()
      await db.schema.dropTable('chat_conversations').execute()
    },
  }
}
