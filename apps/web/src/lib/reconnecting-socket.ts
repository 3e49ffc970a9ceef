import { PUSH_CLOSE_RESTART, restartRetryAfterMs } from '@numisma/contracts/push-socket'

/**
 * A WebSocket that comes back after a drop, with exponential backoff (1 s, 2 s, 4 s … 30 s, reset
 * once a socket hears the server — not on open alone: a server that accepts and at once closes, or
 * never answers, would otherwise be retried every second for good): the push socket (lib/push.ts) and the chat sockets (lib/chat/socket.ts) are
 * both one of these. What a (re)open must do — send the subscriptions again, fetch history again —
 * is the owner's `onOpen`; whether to come back at all is its `wanted`.
 *
 * A server shutting down closes with 1012 and `{"retryAfterMs": n}` (ADR 032): the socket waits n
 * plus up to RESTART_JITTER_MS of its own, so thousands closed together come back spread out.
 */

/** The part of a browser WebSocket used here (a fake in tests). */
export interface WebSocketLike {
  readonly readyState: number
  send(data: string): void
  close(): void
  onopen: (() => void) | null
  onmessage: ((event: { data: unknown }) => void) | null
  /** `code` and `reason` of the close (a browser's CloseEvent); absent in older fakes. */
  onclose: ((event?: { code?: number; reason?: string }) => void) | null
  onerror: (() => void) | null
}

export const RECONNECT_BASE_MS = 1_000
export const RECONNECT_MAX_MS = 30_000
/** The client's own spread on top of a server's restart hint. */
export const RESTART_JITTER_MS = 2_000
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
  /**
   * The socket dropped, with the close's code and reason when the server sent one; asked before
   * `wanted`, so an owner that takes a close as final can say so there.
   */
  onClose?: (event?: { code?: number; reason?: string }) => void
  /** 0 ≤ n < 1, for the jitter after a restart (Math.random by default). */
  random?: () => number
  /** Whether an open socket still reaches the server: asked after a quiet spell (see Heartbeat). */
  heartbeat?: Heartbeat
  /** The clock the heartbeat reads (Date.now by default). */
  now?: () => number
}

/**
 * A phone that changes networks can leave its socket half open: nothing arrives, no close comes,
 * and the page would show a lot's price frozen without a word. After `quietMs` with nothing
 * received the socket sends `message`, which the server answers; when nothing at all has arrived
 * `answerMs` later the socket is given up and a new one opened, which subscribes and resumes.
 */
export interface Heartbeat {
  message: string
  quietMs: number
  answerMs: number
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
  let beat: unknown = null
  let lastHeard = 0
  const now = deps.now ?? Date.now

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
      lastHeard = now()
      startHeartbeat(current)
      deps.onOpen()
    }
    current.onmessage = (event) => {
      if (socket !== current) return
      lastHeard = now()
      attempt = 0
      deps.onMessage(event.data)
    }
    current.onerror = () => undefined
    current.onclose = (event) => {
      if (socket !== current) return
      socket = null
      open = false
      stopHeartbeat()
      deps.onClose?.(event)
      const restartMs =
        event?.code === PUSH_CLOSE_RESTART ? restartRetryAfterMs(event.reason ?? '') : undefined
      if (deps.wanted()) scheduleReconnect(restartMs)
    }
  }

  /** Checks after each quiet spell of `quietMs` that the open socket still hears the server. */
  function startHeartbeat(current: WebSocketLike): void {
    const hb = deps.heartbeat
    if (!hb) return
    const check = (): void => {
      beat = null
      if (socket !== current || !open) return
      const quiet = now() - lastHeard
      if (quiet < hb.quietMs) {
        beat = deps.setTimer(check, hb.quietMs - quiet)
        return
      }
      const sentAt = now()
      current.send(hb.message)
      beat = deps.setTimer(() => {
        beat = null
        if (socket !== current) return
        if (lastHeard >= sentAt) check()
        else giveUp(current)
      }, hb.answerMs)
    }
    beat = deps.setTimer(check, hb.quietMs)
  }

  function stopHeartbeat(): void {
    if (beat === null) return
    deps.clearTimer(beat)
    beat = null
  }

  /** The socket no longer reaches the server: dropped as if it had closed, and opened again. */
  function giveUp(current: WebSocketLike): void {
    socket = null
    open = false
    current.close()
    deps.onClose?.()
    if (deps.wanted()) scheduleReconnect()
  }

  /** After the backoff, or — a server restarting — after its hint plus a jitter of our own. */
  function scheduleReconnect(restartMs?: number): void {
    if (timer !== null) return
    let delay: number
    if (restartMs === undefined) {
      attempt += 1
      delay = reconnectDelay(attempt)
    } else {
      // Not a failure: the backoff starts afresh should the reopen fail.
      attempt = 0
      delay = restartMs + Math.floor((deps.random ?? Math.random)() * RESTART_JITTER_MS)
    }
    timer = deps.setTimer(() => {
      timer = null
      if (deps.wanted()) connect()
    }, delay)
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
      stopHeartbeat()
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
  ws.onclose = (event: CloseEvent) => socket.onclose?.({ code: event.code, reason: event.reason })
  ws.onerror = () => socket.onerror?.()
  return socket
}
