import { ChatServerFrameSchema, type ChatServerFrame } from '@numisma/contracts/chat'
import { reconnectDelay, type PushSocket } from '../push'

/**
 * A chat socket (the collector's `/svc/push/chat`, the staff's `/svc/main/admin/chat/ws`): open
 * while a chat screen is, reopened with the push socket's backoff after a drop. Messages sent while
 * it was down are not replayed by the server, so every (re)open calls `onOpen`, where the screen
 * fetches its history again.
 */
export interface ChatSocketDeps {
  url: string
  onFrame: (frame: ChatServerFrame) => void
  onOpen: () => void
  /** The socket dropped (a reconnect is scheduled). */
  onClose?: () => void
  createSocket?: (url: string) => PushSocket
  setTimer?: (fn: () => void, ms: number) => unknown
  clearTimer?: (handle: unknown) => void
}

export interface ChatSocket {
  close(): void
}

export function openChatSocket(deps: ChatSocketDeps): ChatSocket {
  const create = deps.createSocket ?? ((url: string) => browserSocket(new WebSocket(url)))
  const setTimer = deps.setTimer ?? ((fn: () => void, ms: number) => window.setTimeout(fn, ms))
  const clearTimer = deps.clearTimer ?? ((h: unknown) => window.clearTimeout(h as number))
  let socket: PushSocket | null = null
  let attempt = 0
  let timer: unknown = null
  let closed = false

  function connect(): void {
    if (closed) return
    let current: PushSocket
    try {
      current = create(deps.url)
    } catch {
      retry()
      return
    }
    socket = current
    current.onopen = () => {
      attempt = 0
      deps.onOpen()
    }
    current.onmessage = (event) => {
      const frame = parseChatFrame(event.data)
      if (frame) deps.onFrame(frame)
    }
    current.onerror = () => undefined
    current.onclose = () => {
      if (socket !== current) return
      socket = null
      deps.onClose?.()
      retry()
    }
  }

  function retry(): void {
    if (closed || timer !== null) return
    attempt += 1
    timer = setTimer(() => {
      timer = null
      connect()
    }, reconnectDelay(attempt))
  }

  connect()
  return {
    close() {
      closed = true
      if (timer !== null) clearTimer(timer)
      timer = null
      const current = socket
      socket = null
      current?.close()
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

function browserSocket(ws: WebSocket): PushSocket {
  const socket: PushSocket = {
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
