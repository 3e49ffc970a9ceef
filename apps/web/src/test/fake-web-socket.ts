import type { WebSocketLike } from '../lib/reconnecting-socket'

/** A WebSocket for unit tests: records what is sent and closed; the test fires its events. */
export class FakeWebSocket implements WebSocketLike {
  readyState = 0
  sent: string[] = []
  closed = false
  onopen: (() => void) | null = null
  onmessage: ((event: { data: unknown }) => void) | null = null
  onclose: WebSocketLike['onclose'] = null
  onerror: (() => void) | null = null
  send(data: string) {
    this.sent.push(data)
  }
  close() {
    this.closed = true
  }
  /** The server accepted: open, then the open event. */
  open() {
    this.readyState = 1
    this.onopen?.()
  }
}
