import type { ChatSend } from '@numisma/contracts/chat'
import { describe, expect, it } from 'vitest'
import { FakeClock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import type { PushEvent } from '../../platform/event-bus'
import type { Tx } from '../../platform/transactions'
import type { ConversationRow, MessageRow, NewMessage } from './repository'
import { type CardFill, type ChatDeps, ChatService, DEFAULT_CHAT_LIMITS } from './service'

/** ChatService with an in-memory repository: the use cases without a database. */
function setup(options: { failCommit?: boolean; perMinute?: number } = {}) {
  const clock = new FakeClock(Date.UTC(2026, 10, 26, 12, 0, 0))
  const conversations: ConversationRow[] = []
  const messages: MessageRow[] = []
  const images = new Map<string, { conversationId: number; jpeg: Buffer }>()
  const published: PushEvent[] = []
  const decoded: string[] = []
  const lots = new Map<number, CardFill>([
    [
      7,
      {
        title: '袁大头',
        subtitle: '美品 · 专场',
        image: 'a.jpg',
        price: 120_000,
        link: '/productDetail?id=7',
      },
    ],
  ])
  let keys = 0
  const tx = {} as Tx
  const repo: ChatDeps['repo'] = {
    conversationOfUser: (userId) =>
      Promise.resolve(conversations.find((c) => c.user_id === userId)),
    conversation: (id) => Promise.resolve(conversations.find((c) => c.id === id)),
    openConversation: (_tx, userId, agentId, now) => {
      let row = conversations.find((c) => c.user_id === userId)
      if (!row) {
        row = {
          id: conversations.length + 1,
          user_id: userId,
          agent_id: agentId,
          created_at: now,
          updated_at: now,
          user_read_upto: 0,
          agent_read_upto: 0,
        }
        conversations.push(row)
      }
      return Promise.resolve(row)
    },
    messageByClientId: (_tx, conversationId, sender, clientId) =>
      Promise.resolve(
        messages.find(
          (m) =>
            m.conversation_id === conversationId && m.sender === sender && m.client_id === clientId,
        ),
      ),
    insertMessage: (_tx, row: NewMessage) => {
      if (
        messages.some(
          (m) =>
            m.conversation_id === row.conversation_id &&
            m.sender === row.sender &&
            m.client_id === row.client_id,
        )
      ) {
        return Promise.resolve(undefined)
      }
      const stored = { ...row, id: messages.length + 1 }
      messages.push(stored)
      return Promise.resolve(stored)
    },
    insertImage: (_tx, row) => {
      images.set(row.key, { conversationId: row.conversationId, jpeg: row.jpeg })
      return Promise.resolve()
    },
    image: (key) => {
      const image = images.get(key)
      const owner = image && conversations.find((c) => c.id === image.conversationId)
      return Promise.resolve(image && owner && { userId: owner.user_id, jpeg: image.jpeg })
    },
    history: (conversationId, before, limit) =>
      Promise.resolve(
        messages
          .filter(
            (m) => m.conversation_id === conversationId && (before === undefined || m.id < before),
          )
          .sort((a, b) => b.id - a.id)
          .slice(0, limit),
      ),
    messagesByIds: (ids) => Promise.resolve(messages.filter((m) => ids.includes(m.id))),
    unread: (conversation, side) =>
      Promise.resolve(
        messages.filter(
          (m) =>
            m.conversation_id === conversation.id &&
            m.sender !== side &&
            m.id > (side === 'user' ? conversation.user_read_upto : conversation.agent_read_upto),
        ).length,
      ),
    markRead: (_tx, conversationId, side) => {
      const row = conversations.find((c) => c.id === conversationId)!
      const upTo = Math.max(
        0,
        ...messages.filter((m) => m.conversation_id === conversationId).map((m) => m.id),
      )
      const column = side === 'user' ? 'user_read_upto' : 'agent_read_upto'
      if (row[column] >= upTo) return Promise.resolve(undefined)
      row[column] = upTo
      return Promise.resolve(upTo)
    },
    sentSince: (_tx, conversationId, sender, since) =>
      Promise.resolve(
        messages.filter(
          (m) =>
            m.conversation_id === conversationId && m.sender === sender && m.created_at > since,
        ).length,
      ),
    picturesSince: (_tx, conversationId, sender, since) => {
      const sent = messages.filter(
        (m) =>
          m.conversation_id === conversationId &&
          m.sender === sender &&
          m.created_at > since &&
          m.image_key !== null,
      )
      return Promise.resolve({
        count: sent.length,
        bytes: sent.reduce((sum, m) => sum + (images.get(m.image_key!)?.jpeg.length ?? 0), 0),
      })
    },
    staffList: () => Promise.resolve([]),
    staffUnread: () => Promise.resolve({ conversations: 0, messages: 0 }),
  }
  const service = new ChatService({
    // A transaction that fails at commit leaves nothing for anyone to hear.
    transact: async (work) => {
      const result = await work(tx)
      if (options.failCommit) throw new Error('commit failed')
      return result
    },
    clock,
    repo,
    bus: { publish: (event) => published.push(event) },
    agentId: 'numisma-service',
    cards: {
      lot: (id) => Promise.resolve(lots.get(id)),
      mall: () => Promise.resolve(undefined),
    },
    images: {
      normalise: (dataUrl) => {
        decoded.push(dataUrl)
        if (!dataUrl.startsWith('data:image/'))
          return Promise.reject(new AppError('CHAT_IMAGE_INVALID'))
        return Promise.resolve(Buffer.from('jpeg'))
      },
    },
    newImageKey: () => `key${keys++}`.padEnd(32, '0'),
    limits: { ...DEFAULT_CHAT_LIMITS, userMessagesPerMinute: options.perMinute ?? 30 },
  })
  return { service, clock, published, decoded, messages }
}

const alice = { side: 'user' as const, userId: 8 }
const text = (clientId: string, body = '你好'): ChatSend => ({ kind: 'text', clientId, text: body })

describe('ChatService', () => {
  it('tells the bus of a stored message, once, and answers a resend with what was stored', async () => {
    const { service, published } = setup()
    const first = await service.send(alice, text('client-0001'))
    expect(first.fresh).toBe(true)
    expect(published).toEqual([
      {
        type: 'chat',
        userId: 8,
        conversationId: first.message.conversationId,
        message: first.message,
      },
    ])
    const again = await service.send(alice, text('client-0001', 'changed'))
    expect(again).toEqual({ ...first, fresh: false })
    expect(published).toHaveLength(1)
  })

  it('publishes nothing when the transaction does not commit', async () => {
    const { service, published } = setup({ failCommit: true })
    await expect(service.send(alice, text('client-0002'))).rejects.toThrow('commit failed')
    expect(published).toEqual([])
  })

  it('does not decode a resent picture again', async () => {
    const { service, decoded } = setup()
    const image: ChatSend = {
      kind: 'image',
      clientId: 'client-0003',
      image: 'data:image/png;base64,AA',
    }
    const first = await service.send(alice, image)
    expect(first.message.imageUrl).toMatch(/^\/chat\/images\/key0/)
    await service.send(alice, image)
    expect(decoded).toHaveLength(1)
    await expect(
      service.send(alice, { kind: 'image', clientId: 'client-0004', image: 'junk' }),
    ).rejects.toMatchObject({ code: 'CHAT_IMAGE_INVALID' })
  })

  it("refuses a new collector's burst of pictures by the rate before decoding them", async () => {
    const { service, decoded } = setup({ perMinute: 3 })
    const answers = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        service.send(alice, {
          kind: 'image',
          clientId: `client-burst-${i}`,
          image: 'data:image/png;base64,AA',
        }),
      ),
    )
    // (This fake's transactions do not serialise: the exact rate is the HTTP tests' on both DBs.)
    const refused = answers.filter((a) => a.status === 'rejected')
    expect(refused.length).toBeGreaterThanOrEqual(6)
    for (const a of refused) expect(a.reason).toMatchObject({ code: 'RATE_LIMITED' })
    // Two decode at once with no conversation yet; every later one meets the rate first.
    expect(decoded.length).toBeLessThanOrEqual(4)
  })

  it('fills a card from the catalogue; an unknown or malformed ref is CHAT_ITEM_NOT_FOUND', async () => {
    const { service } = setup()
    const sent = await service.send(alice, {
      kind: 'card',
      clientId: 'client-0005',
      card: { kind: 'lot', ref: '7' },
    })
    expect(sent.message.card).toEqual({
      kind: 'lot',
      ref: '7',
      title: '袁大头',
      subtitle: '美品 · 专场',
      image: 'a.jpg',
      price: 120_000,
      link: '/productDetail?id=7',
    })
    for (const card of [
      { kind: 'lot' as const, ref: '8' },
      { kind: 'lot' as const, ref: '7x' },
      { kind: 'mall' as const, ref: 'P-1' },
    ]) {
      await expect(
        service.send(alice, { kind: 'card', clientId: 'client-0006', card }),
      ).rejects.toMatchObject({ code: 'CHAT_ITEM_NOT_FOUND' })
    }
  })

  it('holds a collector to the per-minute rate, and staff to none', async () => {
    const { service, clock } = setup({ perMinute: 3 })
    const first = await service.send(alice, text('client-1000'))
    await service.send(alice, text('client-1001'))
    await service.send(alice, text('client-1002'))
    await expect(service.send(alice, text('client-1003'))).rejects.toMatchObject({
      code: 'RATE_LIMITED',
    })
    const agent = {
      side: 'agent' as const,
      staffId: 1,
      conversationId: first.message.conversationId,
    }
    for (let i = 0; i < 5; i++) await service.send(agent, text(`agent-000${i}`))
    clock.advance(60_001)
    expect((await service.send(alice, text('client-1003'))).fresh).toBe(true)
  })

  it('counts the other side unread and tells it of a read mark that moved', async () => {
    const { service, published } = setup()
    const mine = await service.send(alice, text('client-2000'))
    const agent = {
      side: 'agent' as const,
      staffId: 1,
      conversationId: mine.message.conversationId,
    }
    const answer = await service.send(agent, text('agent-2000', '您好'))
    expect(await service.unreadCount(8)).toBe(1)
    expect(await service.conversation(8)).toEqual({
      id: mine.message.conversationId,
      peerId: 'numisma-service',
      unread: 1,
    })
    published.length = 0
    expect(await service.markRead(alice)).toEqual({
      conversationId: mine.message.conversationId,
      upTo: answer.message.id,
    })
    expect(published).toEqual([
      {
        type: 'chat_read',
        userId: 8,
        conversationId: mine.message.conversationId,
        by: 'user',
        upTo: answer.message.id,
      },
    ])
    await service.markRead(alice)
    expect(published).toHaveLength(1)
    expect(await service.unreadCount(8)).toBe(0)
  })

  it('shows a picture to its collector and staff only; staff name a conversation that exists', async () => {
    const { service } = setup()
    const sent = await service.send(alice, {
      kind: 'image',
      clientId: 'client-3000',
      image: 'data:image/png;base64,AA',
    })
    const key = sent.message.imageUrl!.split('/').pop()!
    expect((await service.image(key, { userId: 8 })).toString()).toBe('jpeg')
    expect((await service.image(key, 'staff')).toString()).toBe('jpeg')
    await expect(service.image(key, { userId: 9 })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(
      service.history({ side: 'agent', staffId: 1, conversationId: 99 }, { limit: 10 }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect(await service.history({ side: 'user', userId: 9 }, { limit: 10 })).toEqual([])
    expect(await service.conversation(9)).toEqual({
      id: null,
      peerId: 'numisma-service',
      unread: 0,
    })
  })
})
