import type { ChatMessage, ChatSend, StaffConversationPage } from '@numisma/contracts/chat'
import {
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query'
import { olderPageParam, withLiveMessage } from '../lib/chat/thread'
import { deskList, withConversation } from './desk-list'
import {
  getConversationMessages,
  getConversations,
  markConversationRead,
  replyInConversation,
  staffLogin,
  staffLogout,
  staffSession,
  StaffApiError,
} from './staff-api'

export const STAFF_PAGE_SIZE = 30
export const SESSION_KEY = ['staff', 'session'] as const
export const CONVERSATIONS_KEY = ['staff', 'chat', 'conversations'] as const
export const messagesKey = (id: number) => ['staff', 'chat', 'messages', id] as const

/** The signed-in staff member, or null when there is no session (the sign-in form shows). */
export function useStaffSession() {
  return useQuery({
    queryKey: SESSION_KEY,
    queryFn: async () => {
      try {
        return await staffSession()
      } catch (error) {
        if (error instanceof StaffApiError && (error.status === 401 || error.status === 403))
          return null
        throw error
      }
    },
    retry: false,
  })
}

export function useStaffLogin() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: { username: string; password: string }) =>
      staffLogin(input.username, input.password),
    // The session (with its roles) is read again now that the cookie is set.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SESSION_KEY }),
  })
}

export function useStaffLogout() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: staffLogout,
    onSettled: () => {
      queryClient.clear()
      queryClient.setQueryData(SESSION_KEY, null)
    },
  })
}

type ListData = InfiniteData<StaffConversationPage, string | undefined>

/** The list a page at a time (older pages on "load more"), joined by `deskList`. */
export function useConversations() {
  return useInfiniteQuery({
    queryKey: CONVERSATIONS_KEY,
    queryFn: ({ pageParam }) => getConversations(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextBefore ?? undefined,
    select: (data) => deskList(data.pages),
  })
}

const changeConversation = (
  queryClient: QueryClient,
  id: number,
  change: Parameters<typeof withConversation>[2],
) =>
  queryClient.setQueryData<ListData>(CONVERSATIONS_KEY, (data) =>
    data ? { ...data, pages: withConversation(data.pages, id, change) } : data,
  )

export function useConversationMessages(id: number | null) {
  return useInfiniteQuery({
    queryKey: messagesKey(id ?? 0),
    queryFn: ({ pageParam }) => getConversationMessages(id ?? 0, pageParam, STAFF_PAGE_SIZE),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => olderPageParam(last, STAFF_PAGE_SIZE),
    enabled: id !== null,
    refetchOnMount: 'always',
  })
}

/**
 * A message stored or arrived live: it joins its conversation's cached history, and the list
 * moves the conversation up with it as its last message (the server's counts come on the refetch).
 */
export function addStaffMessage(queryClient: QueryClient, message: ChatMessage): void {
  queryClient.setQueryData<InfiniteData<ChatMessage[], number | undefined>>(
    messagesKey(message.conversationId),
    (data) => (data ? { ...data, pages: withLiveMessage(data.pages, message) } : data),
  )
  changeConversation(queryClient, message.conversationId, (c) =>
    (c.lastMessage?.id ?? 0) < message.id
      ? { ...c, lastMessage: message, updatedAt: message.createdAt }
      : c,
  )
}

export function useReply(conversationId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (message: ChatSend) => replyInConversation(conversationId, message),
    onSuccess: (message) => addStaffMessage(queryClient, message),
  })
}

export function useMarkConversationRead() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: markConversationRead,
    onSuccess: (_, id) => {
      changeConversation(queryClient, id, (c) => ({ ...c, unread: 0 }))
      // The unread totals over all conversations come from the server.
      return queryClient.invalidateQueries({ queryKey: CONVERSATIONS_KEY })
    },
  })
}
