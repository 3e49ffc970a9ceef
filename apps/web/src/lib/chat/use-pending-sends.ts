import type { ChatMessage, ChatSend } from '@numisma/contracts/chat'
import { useState } from 'react'
import type { PendingMessage } from './thread'

/**
 * Sends shown at once and until stored: a failed one stays with its retry (sent again with the same
 * clientId, so the server stores it once). The collector's page and the desk's pane share it.
 */
export function usePendingSends(send: (message: ChatSend) => Promise<ChatMessage>) {
  const [pending, setPending] = useState<PendingMessage[]>([])
  const submit = async (
    message: ChatSend,
    shown: Pick<PendingMessage, 'preview' | 'card'> = {},
  ): Promise<void> => {
    const entry: PendingMessage = {
      clientId: message.clientId,
      send: message,
      state: 'sending',
      ...shown,
      createdAt: new Date().toISOString(),
    }
    setPending((list) => [...list.filter((p) => p.clientId !== entry.clientId), entry])
    try {
      await send(message)
      setPending((list) => list.filter((p) => p.clientId !== entry.clientId))
    } catch {
      setPending((list) =>
        list.map((p) => (p.clientId === entry.clientId ? { ...p, state: 'failed' } : p)),
      )
    }
  }
  return { pending, submit }
}
