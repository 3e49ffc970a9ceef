import { type QueryClient, useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { inBackground } from '../background'
import { USER_STATISTICS_KEY } from '../orders/query-keys'
import { type PushManager, pushManager } from '../push'

/** The collector's conversation (GET /chat/conversation), with their unread count. */
export const CHAT_CONVERSATION_KEY = ['chat', 'conversation'] as const

/** An agent's answer, or the collector reading it, changes the user centre's badge and the count. */
export function invalidateChatUnread(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: USER_STATISTICS_KEY }),
    queryClient.invalidateQueries({ queryKey: CHAT_CONVERSATION_KEY }),
  ]).then(() => undefined)
}

/**
 * Until released, word on the page's push socket that an agent answered refreshes the unread
 * counts: the chat's own socket is open on /chat only, and the user centre's badge must not wait
 * for a reload.
 */
export function listenForChatNews(
  push: Pick<PushManager, 'onChat'>,
  queryClient: QueryClient,
): () => void {
  return push.onChat(() => inBackground(invalidateChatUnread(queryClient)))
}

/** Mounted once for a signed-in user, beside the outbid and reminder notices. */
export function useChatNews(): void {
  const queryClient = useQueryClient()
  useEffect(() => listenForChatNews(pushManager(), queryClient), [queryClient])
}
