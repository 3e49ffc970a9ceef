import type { StaffConversation, StaffConversationPage } from '@numisma/contracts/chat'

/** The desk's list as shown: every loaded page joined, and the unread the agent has not loaded. */
export interface DeskList {
  conversations: StaffConversation[]
  /** Over every conversation, loaded or not (the newest page's count). */
  unreadConversations: number
  unreadMessages: number
  /** Conversations with unread messages beyond the loaded pages: "load more" must say so. */
  unreadElsewhere: number
}

/** Newest activity first, whatever order the server sent. */
export function byActivity(list: readonly StaffConversation[]): StaffConversation[] {
  return [...list].sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt) || b.id - a.id)
}

/**
 * The pages as one list, the first (newest) page's copy and totals winning. Conversations only move
 * up, and "load more" asks for rows older than the last one loaded: a conversation that moved up
 * between two page fetches is on neither page (the live refetch of the first page repairs that),
 * not on both. The dedupe only guards a page patched in place (withConversation).
 */
export function deskList(pages: readonly StaffConversationPage[]): DeskList {
  const seen = new Map<number, StaffConversation>()
  for (const p of pages) for (const c of p.conversations) if (!seen.has(c.id)) seen.set(c.id, c)
  const conversations = byActivity([...seen.values()])
  const first = pages[0]
  const unreadConversations = first?.unreadConversations ?? 0
  const loadedUnread = conversations.filter((c) => c.unread > 0).length
  return {
    conversations,
    unreadConversations,
    unreadMessages: first?.unreadMessages ?? 0,
    unreadElsewhere: Math.max(0, unreadConversations - loadedUnread),
  }
}

/** The pages with one conversation changed (a live message, a read mark); other pages kept as they are. */
export function withConversation(
  pages: readonly StaffConversationPage[],
  id: number,
  change: (c: StaffConversation) => StaffConversation,
): StaffConversationPage[] {
  return pages.map((p) =>
    p.conversations.some((c) => c.id === id)
      ? { ...p, conversations: p.conversations.map((c) => (c.id === id ? change(c) : c)) }
      : p,
  )
}
