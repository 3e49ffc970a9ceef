import type { PushChat } from '@numisma/contracts/push'
import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import { USER_STATISTICS_KEY } from '../orders/query-keys'
import { CHAT_CONVERSATION_KEY, listenForChatNews } from './unread'

/** A push manager that hands the test the chat listener it was given. */
function fakePush() {
  const push = {
    listener: null as ((message: PushChat) => void) | null,
    onChat(listener: (message: PushChat) => void) {
      push.listener = listener
      return () => {
        push.listener = null
      }
    },
  }
  return push
}

describe('listenForChatNews', () => {
  it("refreshes the user centre's counts and the conversation when an agent answers", () => {
    const queryClient = new QueryClient()
    queryClient.setQueryData(USER_STATISTICS_KEY, { unreadChat: 0 })
    queryClient.setQueryData(CHAT_CONVERSATION_KEY, { unread: 0 })
    queryClient.setQueryData(['orders'], [])
    const push = fakePush()

    const release = listenForChatNews(push, queryClient)
    expect(queryClient.getQueryState(USER_STATISTICS_KEY)?.isInvalidated).toBe(false)
    push.listener!({ type: 'chat', conversationId: 3 })

    expect(queryClient.getQueryState(USER_STATISTICS_KEY)?.isInvalidated).toBe(true)
    expect(queryClient.getQueryState(CHAT_CONVERSATION_KEY)?.isInvalidated).toBe(true)
    expect(queryClient.getQueryState(['orders'])?.isInvalidated).toBe(false)
    release()
    expect(push.listener).toBeNull()
  })
})
