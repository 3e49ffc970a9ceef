/**
 * A WebSocket that comes back after a drop, with exponential backoff (1 s, 2 s, 4 s … 30 s, reset by
 * a successful open): the push socket (lib/push.ts) and the chat sockets (lib/chat/socket.ts) are
 * both one of these. What a (re)open must do — send the subscriptions again, fetch history again —
 * is the owner's `onOpen`; whether to come back at all is its `wanted`.
 */

/** The part of a browser WebSocket used here (a fake in tests). */
export interface WebSocketLike {
  readonly readyState: number
  send(data: string): void
  close(): void
  onopen: (() => void) | null
  onmessage: ((event: { data: unknown }) => void) | null
  onclose: (() => void) | null
  onerror: (() => void) | null
}

export const RECONNECT_BASE_MS = 1_000
export const RECONNECT_MAX_MS = 30_000
const OPEN = 1

export function reconnectDelay(attempt: number): number {
  return Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** Math.max(0, attempt - 1))
}

export interface ReconnectingSocketDeps {
  url: () => string
  createSocket: (url: string) => WebSocketLike
  setTimer: (fn: () => void, ms: number) => unknown
  clearTimer: (handle: unknown) => void
  /** Whether the owner still wants the socket: asked after a drop and when the backoff ends. */
  wanted: () => boolean
  onOpen: () => void
  onMessage: (data: unknown) => void
  /** The socket dropped (a reconnect is scheduled when still wanted). */
  onClose?: () => void
}

export interface ReconnectingSocket {
  /** Opens a socket unless one is there or a reconnect is already scheduled. */
  connect(): void
  /** Closes the socket and cancels a scheduled reconnect (`connect` may open it again). */
  disconnect(): void
  /** Cancels a scheduled reconnect and its backoff, so that `connect` opens now. */
  retryNow(): void
  /** Sends on an open socket; false when there is none. */
  send(data: string): boolean
  isOpen(): boolean
}

export function reconnectingSocket(deps: ReconnectingSocketDeps): ReconnectingSocket {
  let socket: WebSocketLike | null = null
  let open = false
  let attempt = 0
  let timer: unknown = null

  function connect(): void {
    if (socket || timer !== null) return
    let current: WebSocketLike
    try {
      current = deps.createSocket(deps.url())
    } catch {
      scheduleReconnect()
      return
    }
    socket = current
    // A socket let go (closed, replaced) may still fire: its events change nothing.
    current.onopen = () => {
      if (socket !== current) return
      open = true
      attempt = 0
      deps.onOpen()
    }
    current.onmessage = (event) => {
      if (socket === current) deps.onMessage(event.data)
    }
    current.onerror = () => undefined
    current.onclose = () => {
      if (socket !== current) return
      socket = null
      open = false
      deps.onClose?.()
      if (deps.wanted()) scheduleReconnect()
    }
  }

  function scheduleReconnect(): void {
    if (timer !== null) return
    attempt += 1
    timer = deps.setTimer(() => {
      timer = null
      if (deps.wanted()) connect()
    }, reconnectDelay(attempt))
  }

  function cancelReconnect(): void {
    if (timer === null) return
    deps.clearTimer(timer)
    timer = null
  }

  const isOpen = () => socket !== null && open && socket.readyState === OPEN

  return {
    connect,
    disconnect() {
      cancelReconnect()
      const current = socket
      socket = null
      open = false
      current?.close()
    },
    retryNow() {
      if (timer === null) return
      cancelReconnect()
      attempt = 0
    },
    send(data) {
      if (!isOpen()) return false
      socket!.send(data)
      return true
    },
    isOpen,
  }
}

/** Adapts a browser WebSocket to `WebSocketLike`. */
export function browserSocket(ws: WebSocket): WebSocketLike {
  const socket: WebSocketLike = {
    get readyState() {
      return ws.readyState
    },
    send: (data) => ws.send(data),
    close: () => ws.close(),
    onopen: null,
    onmessage: null,
    onclose: null,
    onerror: null,
  }
  ws.onopen = () => socket.onopen?.()
  ws.onmessage = (event: MessageEvent) => socket.onmessage?.({ data: event.data })
  ws.onclose = () => socket.onclose?.()
  ws.onerror = () => socket.onerror?.()
  return socket
}
