import {
  ChatConversationSchema,
  ChatMessageSchema,
  ChatReadSchema,
  type ChatConversation,
  type ChatMessage,
  type ChatRead,
  type ChatSend,
} from '@numisma/contracts/chat'
import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query'
import { z } from 'zod'
import { request } from '../../../lib/api-client'
import { olderPageParam, withLiveMessage } from '../../../lib/chat/thread'
import { CHAT_CONVERSATION_KEY, invalidateChatUnread } from '../../../lib/chat/unread'

export const CHAT_PAGE_SIZE = 30
export const CHAT_MESSAGES_KEY = ['chat', 'messages'] as const

/** GET /chat/conversation: the collector's conversation, its agent and their unread count. */
export function getChatConversation(): Promise<ChatConversation> {
  return request({
    path: '/chat/conversation',
    defaultError: 'GET_LIST_FAILED',
    schema: ChatConversationSchema,
  })
}

/** GET /chat/messages?before=&limit=: history, newest first. */
export function getChatMessages(before: number | undefined): Promise<ChatMessage[]> {
  return request({
    path: '/chat/messages',
    query: { before, limit: CHAT_PAGE_SIZE },
    defaultError: 'GET_LIST_FAILED',
    schema: z.array(ChatMessageSchema),
  })
}

/**
 * A refusal that a retry will not mend soon is told as a toast (the server's text: too many
 * messages a minute, the day's pictures used up); any other failure shows only on its bubble.
 */
const TOLD_REFUSALS: ReadonlySet<string> = new Set(['RATE_LIMITED', 'CHAT_IMAGE_QUOTA'])

/** POST /chat/messages: text, a picture or a card; the stored message comes back. */
export function sendChatMessage(message: ChatSend): Promise<ChatMessage> {
  return request({
    method: 'POST',
    path: '/chat/messages',
    body: message,
    defaultError: 'REQUEST_FAILED',
    schema: ChatMessageSchema,
    silent: (error) => !TOLD_REFUSALS.has(error.code),
  })
}

/** POST /chat/read: the agent's messages read. */
export function markChatRead(): Promise<ChatRead> {
  return request({
    method: 'POST',
    path: '/chat/read',
    defaultError: 'REQUEST_FAILED',
    schema: ChatReadSchema,
    // Reading works without it; the next visit marks again.
    silent: true,
  })
}

export function chatConversationQueryOptions() {
  return queryOptions({ queryKey: CHAT_CONVERSATION_KEY, queryFn: getChatConversation })
}

export function chatMessagesQueryOptions() {
  return infiniteQueryOptions({
    queryKey: CHAT_MESSAGES_KEY,
    queryFn: ({ pageParam }) => getChatMessages(pageParam),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => olderPageParam(last, CHAT_PAGE_SIZE),
  })
}

export function useChatConversation() {
  return useQuery(chatConversationQueryOptions())
}

/** Fetched afresh on every visit: the agent may have answered while the collector was away. */
export function useChatMessages() {
  return useInfiniteQuery({ ...chatMessagesQueryOptions(), refetchOnMount: 'always' })
}

/** A message stored (sent here, or arrived over the socket) joins the cached history once. */
export function addChatMessage(queryClient: QueryClient, message: ChatMessage): void {
  queryClient.setQueryData<InfiniteData<ChatMessage[], number | undefined>>(
    CHAT_MESSAGES_KEY,
    (data) =>
      data
        ? { ...data, pages: withLiveMessage(data.pages, message) }
        : { pages: [[message]], pageParams: [undefined] },
  )
}

export function useSendChatMessage() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: sendChatMessage,
    onSuccess: (message) => addChatMessage(queryClient, message),
  })
}

/** Reading refreshes the user centre's unread badge and the conversation's count. */
export function useMarkChatRead() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: markChatRead,
    onSettled: () => invalidateChatUnread(queryClient),
  })
}
