import {
  ChatServerFrameSchema,
  type ChatClientFrame,
  type ChatServerFrame,
} from '@numisma/contracts/chat'
import { PUSH_ANSWER_MS, PUSH_CLOSE_POLICY, PUSH_QUIET_MS } from '@numisma/contracts/push-socket'
import { browserSocket, reconnectingSocket, type WebSocketLike } from '../reconnecting-socket'

/**
 * A chat socket (the collector's `/svc/push/chat`, the staff's `/svc/main/admin/chat/ws`): open
 * while a chat screen is, reopened with the push socket's backoff after a drop. Messages sent while
 * it was down are not replayed by the server, so every (re)open calls `onOpen`, where the screen
 * fetches its history again. After a quiet spell it asks the server with a `ping` and opens a new
 * socket when nothing answers (the push socket's heartbeat): a phone that changed networks would
 * otherwise keep a half-open socket and stop showing the other side's messages without a word.
 */
export interface ChatSocketDeps {
  url: string
  onFrame: (frame: ChatScreenFrame) => void
  onOpen: () => void
  /** The socket dropped (a reconnect is scheduled unless the close was final: see onEnded). */
  onClose?: () => void
  /**
   * The server closed the socket because its caller is not (or no longer) signed in or allowed
   * (1008 with a reason of {@link FINAL_CLOSE_REASONS}): no reconnect follows, since every one
   * would be refused the same way. The screen finds out who it is again through its calls.
   */
  onEnded?: (reason: string) => void
  createSocket?: (url: string) => WebSocketLike
  setTimer?: (fn: () => void, ms: number) => unknown
  clearTimer?: (handle: unknown) => void
  /** The heartbeat's clock (Date.now by default). */
  now?: () => number
}

/** The frames a chat screen acts on: the heartbeat's `pong` is the socket's own business. */
export type ChatScreenFrame = Exclude<ChatServerFrame, { type: 'pong' }>

export interface ChatSocket {
  close(): void
}

/** Close reasons (with 1008) after which reconnecting cannot help: signed out, not staff. */
export const FINAL_CLOSE_REASONS: readonly string[] = [
  'UNAUTHENTICATED',
  'SESSION_INVALID',
  'FORBIDDEN',
]

export function openChatSocket(deps: ChatSocketDeps): ChatSocket {
  let closed = false
  const socket = reconnectingSocket({
    url: () => deps.url,
    createSocket: deps.createSocket ?? ((url: string) => browserSocket(new WebSocket(url))),
    setTimer: deps.setTimer ?? ((fn: () => void, ms: number) => window.setTimeout(fn, ms)),
    clearTimer: deps.clearTimer ?? ((h: unknown) => window.clearTimeout(h as number)),
    wanted: () => !closed,
    onOpen: deps.onOpen,
    onMessage: (data) => {
      const frame = parseChatFrame(data)
      if (frame && frame.type !== 'pong') deps.onFrame(frame)
    },
    onClose: (event) => {
      deps.onClose?.()
      if (event?.code === PUSH_CLOSE_POLICY && FINAL_CLOSE_REASONS.includes(event.reason ?? '')) {
        closed = true
        deps.onEnded?.(event.reason!)
      }
    },
    now: deps.now,
    heartbeat: {
      message: JSON.stringify({ type: 'ping' } satisfies ChatClientFrame),
      quietMs: PUSH_QUIET_MS,
      answerMs: PUSH_ANSWER_MS,
    },
  })
  socket.connect()
  return {
    close() {
      closed = true
      socket.disconnect()
    },
  }
}

export function parseChatFrame(raw: unknown): ChatServerFrame | null {
  if (typeof raw !== 'string') return null
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    return null
  }
  const parsed = ChatServerFrameSchema.safeParse(value)
  return parsed.success ? parsed.data : null
}

/** `ws(s)://` for a path on this page's host, or an absolute http(s) base turned into ws(s). */
export function socketUrl(
  base: string,
  path: string,
  location: { protocol: string; host: string },
) {
  const trimmed = base.replace(/\/+$/, '')
  if (/^wss?:\/\//.test(trimmed)) return `${trimmed}${path}`
  if (/^https?:\/\//.test(trimmed)) return `${trimmed.replace(/^http/, 'ws')}${path}`
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws'
  const prefix = trimmed.startsWith('/') ? trimmed : `/${trimmed}`
  return `${scheme}://${location.host}${prefix}${path}`
}
