/**
 * Push events (DESIGN §4 "Realtime"). Embedded mode fans out in-process; production backs the
 * same interface with Redis pub/sub so every instance's WebSocket clients hear every bid.
 */
export type PushEvent =
  | {
      type: 'lot'
      lotId: number
      price: number | null
      bidCount: number
      endsAt: string
      status: 'preview' | 'live' | 'sold' | 'unsold'
      /** The leader's masked display name. */
      leader: string | null
    }
  | { type: 'outbid'; userId: number; lotId: number; price: number }

export interface EventBus {
  publish(event: PushEvent): void
  subscribe(listener: (event: PushEvent) => void): () => void
  close(): Promise<void>
}

export class InProcessEventBus implements EventBus {
  private readonly listeners = new Set<(event: PushEvent) => void>()

  publish(event: PushEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event)
      } catch {
        // One broken subscriber must not stop the others.
      }
    }
  }

  subscribe(listener: (event: PushEvent) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  close(): Promise<void> {
    this.listeners.clear()
    return Promise.resolve()
  }
}
