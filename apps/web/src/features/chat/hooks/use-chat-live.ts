import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { inBackground } from '../../../lib/background'
import { openChatSocket, socketUrl } from '../../../lib/chat/socket'
import { getClientConfig } from '../../../lib/config'
import { clearLoginCookies } from '../../../lib/cookies'
import { startSignIn } from '../../../lib/in-app/sign-in'
import { addChatMessage, CHAT_MESSAGES_KEY } from '../api/chat-api'

/**
 * The collector's chat socket while /chat is open: a message (the agent's, or this collector's
 * own from another tab) joins the cached history; each open fetches the history again, since
 * what arrived while the socket was down is not replayed. Answers whether the socket is up.
 */
export function useChatLive(): boolean {
  const queryClient = useQueryClient()
  const [connected, setConnected] = useState(true)
  useEffect(() => {
    const socket = openChatSocket({
      url: socketUrl(getClientConfig().services.push, '/chat', window.location),
      onOpen: () => {
        setConnected(true)
        // Also the first open: a message stored between the page's fetch and the socket's greeting
        // reached no socket of this page.
        inBackground(queryClient.invalidateQueries({ queryKey: CHAT_MESSAGES_KEY }))
      },
      onClose: () => setConnected(false),
      // The session ended (signed out in another tab, or on another instance): the chat is for
      // signed-in collectors, so the page forgets the login and goes to sign in, coming back
      // here, as the route guard does for a signed-out visit.
      onEnded: () => {
        clearLoginCookies()
        const { pathname, search, hash } = window.location
        startSignIn(pathname + search + hash, 'replace')
      },
      onFrame: (frame) => {
        if (frame.type === 'message') addChatMessage(queryClient, frame.message)
      },
    })
    return () => socket.close()
  }, [queryClient])
  return connected
}
