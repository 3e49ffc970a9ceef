import type { StaffConversation, StaffConversationPage } from '@numisma/contracts/chat'
import { describe, expect, it } from 'vitest'
import { deskList, withConversation } from './desk-list'

const conversation = (id: number, updatedAt: string, unread = 0): StaffConversation => ({
  id,
  userId: id * 10,
  display: `藏家 ${id}`,
  mobile: `1380000000${id}`,
  lastMessage: null,
  unread,
  updatedAt,
})

const page = (
  conversations: StaffConversation[],
  totals: Partial<StaffConversationPage> = {},
): StaffConversationPage => ({
  conversations,
  nextBefore: null,
  unreadConversations: 0,
  unreadMessages: 0,
  ...totals,
})

describe("the desk's conversation list over its pages", () => {
  it('joins the pages newest activity first, each conversation once, with the newest totals', () => {
    const list = deskList([
      page([conversation(3, '2026-11-26T10:03:00Z', 2), conversation(2, '2026-11-26T10:02:00Z')], {
        nextBefore: '1.2',
        unreadConversations: 4,
        unreadMessages: 9,
      }),
      // A conversation that moved up between two fetches shows up on both pages: once is enough.
      page([conversation(2, '2026-11-26T10:02:00Z'), conversation(1, '2026-11-26T10:01:00Z', 1)], {
        unreadConversations: 3,
        unreadMessages: 7,
      }),
    ])
    expect(list.conversations.map((c) => c.id)).toEqual([3, 2, 1])
    expect(list.unreadConversations).toBe(4)
    expect(list.unreadMessages).toBe(9)
    // Unread beyond the loaded pages: two conversations with 6 messages the agent cannot see yet.
    expect(list.unreadElsewhere).toBe(2)
  })

  it('updates one conversation wherever it sits in the pages', () => {
    const pages = [
      page([conversation(3, '2026-11-26T10:03:00Z')]),
      page([conversation(1, '2026-11-26T10:01:00Z', 4)]),
    ]
    const next = withConversation(pages, 1, (c) => ({ ...c, unread: 0 }))
    expect(next[1]!.conversations[0]!.unread).toBe(0)
    expect(next[0]).toBe(pages[0])
  })
})
