import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { inBackground } from '../lib/background'
import { openChatSocket, socketUrl } from '../lib/chat/socket'
import { addStaffMessage, CONVERSATIONS_KEY, SESSION_KEY } from './staff-queries'

/**
 * The staff chat socket while the desk is open: every conversation's messages arrive here. A new
 * message updates its conversation's history and the list; the list is fetched again for the
 * counts and for a conversation the desk has not seen yet, and after each open with the open
 * conversation's history (what arrived while the socket was down is not replayed).
 */
export function useStaffChatLive(): boolean {
  const queryClient = useQueryClient()
  const [connected, setConnected] = useState(true)
  useEffect(() => {
    const socket = openChatSocket({
      url: socketUrl('/svc/main', '/admin/chat/ws', window.location),
      onOpen: () => {
        setConnected(true)
        // Also the first open: what was stored before the socket's greeting reached no socket here.
        inBackground(queryClient.invalidateQueries({ queryKey: ['staff', 'chat'] }))
      },
      onClose: () => setConnected(false),
      // Signed out (here or in another tab) or no longer allowed: no reconnect. The session is
      // read again: without one the console shows its sign-in form, with fewer roles its menu.
      onEnded: () => inBackground(queryClient.invalidateQueries({ queryKey: SESSION_KEY })),
      onFrame: (frame) => {
        if (frame.type === 'message') {
          addStaffMessage(queryClient, frame.message)
          inBackground(queryClient.invalidateQueries({ queryKey: CONVERSATIONS_KEY }))
        } else if (frame.type === 'read') {
          inBackground(queryClient.invalidateQueries({ queryKey: CONVERSATIONS_KEY }))
        }
      },
    })
    return () => socket.close()
  }, [queryClient])
  return connected
}
