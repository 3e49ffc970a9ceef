import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { inBackground } from '../../../lib/background'
import { openChatSocket, socketUrl } from '../../../lib/chat/socket'
import { getClientConfig } from '../../../lib/config'
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
      // Signed out (here or in another tab) or no longer allowed: no reconnect; the history's
      // call meets the same refusal and the app's sign-out handling takes over from there.
      onEnded: () => inBackground(queryClient.invalidateQueries({ queryKey: CHAT_MESSAGES_KEY })),
      onFrame: (frame) => {
        if (frame.type === 'message') addChatMessage(queryClient, frame.message)
      },
    })
    return () => socket.close()
  }, [queryClient])
  return connected
}
