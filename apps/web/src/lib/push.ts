import type {
  PushChat,
  PushLot,
  PushOutbid,
  PushReminder,
  PushServerMessage,
} from '@numisma/contracts/push'
import { PUSH_ANSWER_MS, PUSH_QUIET_MS } from '@numisma/contracts/push-socket'
import { inBackground } from './background'
import { getClientConfig } from './config'
import { lazySchema } from './lazy-schema'
import { browserSocket, reconnectingSocket, type WebSocketLike } from './reconnecting-socket'

const pushMessageSchema = lazySchema(() =>
  import('@numisma/contracts/push').then((m) => m.PushServerMessageSchema),
)

/**
 * One shared WebSocket to the push role (DESIGN §4 "Realtime", §9): opened when something first
 * wants lots, outbid notices, reminders or chat news, subscribed to the union of the lots every mounted
 * component wants (the server replaces the set on each `subscribe`), and reopened with exponential
 * backoff (lib/reconnecting-socket.ts) — with the union sent again, since a new socket starts with
 * no subscriptions.
 */

/** The part of a browser WebSocket the manager uses (a fake in tests). */
export type PushSocket = WebSocketLike
export { reconnectDelay } from './reconnecting-socket'

export interface PushManagerDeps {
  url: () => string
  createSocket: (url: string) => PushSocket
  setTimer: (fn: () => void, ms: number) => unknown
  clearTimer: (handle: unknown) => void
  /** Batches the subscribe of components that mount together into one message. */
  defer?: (fn: () => void) => void
  /** Whether the page is on screen; a hidden page lets its socket go (optional). */
  isVisible?: () => boolean
  /** The heartbeat's clock (Date.now by default). */
  now?: () => number
}

export interface PushManager {
  /** Wants live state of these lots until the returned release is called. */
  watchLots(lotIds: readonly number[], onLot: (message: PushLot) => void): () => void
  /** Outbid notices for the signed-in user until the returned release is called. */
  onOutbid(listener: (message: PushOutbid) => void): () => void
  /** Ending-soon reminders of lots the signed-in user watches, until the release is called. */
  onReminder(listener: (message: PushReminder) => void): () => void
  /** Word that an agent answered the signed-in user's chat, until the release is called. */
  onChat(listener: (message: PushChat) => void): () => void
  /** Call when the page is shown or hidden again (reconnects at once when shown). */
  visibilityChanged(): void
  /** The lots currently subscribed on the server, for tests and the debug console. */
  subscribed(): number[]
}

interface Watch {
  ids: ReadonlySet<number>
  onLot: (message: PushLot) => void
}

export function createPushManager(deps: PushManagerDeps): PushManager {
  const watches = new Set<Watch>()
  const outbidListeners = new Set<(message: PushOutbid) => void>()
  const reminderListeners = new Set<(message: PushReminder) => void>()
  const chatListeners = new Set<(message: PushChat) => void>()
  const defer = deps.defer ?? ((fn: () => void) => queueMicrotask(fn))
  const visible = deps.isVisible ?? (() => true)
  let lastSent: string | null = null
  let syncQueued = false

  const union = (): number[] => {
    const all = new Set<number>()
    for (const watch of watches) for (const id of watch.ids) all.add(id)
    return [...all].sort((a, b) => a - b)
  }
  const needed = () =>
    (watches.size > 0 ||
      outbidListeners.size > 0 ||
      reminderListeners.size > 0 ||
      chatListeners.size > 0) &&
    visible()

  const socket = reconnectingSocket({
    url: deps.url,
    createSocket: deps.createSocket,
    setTimer: deps.setTimer,
    clearTimer: deps.clearTimer,
    wanted: needed,
    onOpen: () => sendSubscribe(true),
    // Checked before it is dispatched, in order of arrival: the check's code loads with the first.
    onMessage: (data) => inBackground(parsePush(data).then(dispatch)),
    onClose: () => (lastSent = null),
    now: deps.now,
    heartbeat: {
      message: JSON.stringify({ type: 'ping' }),
      quietMs: PUSH_QUIET_MS,
      answerMs: PUSH_ANSWER_MS,
    },
  })

  function sendSubscribe(force: boolean): void {
    if (!socket.isOpen()) return
    const lotIds = union()
    const key = lotIds.join(',')
    if (!force && key === lastSent) return
    lastSent = key
    socket.send(JSON.stringify({ type: 'subscribe', lotIds }))
  }

  function disconnect(): void {
    socket.disconnect()
    lastSent = null
  }

  /** Brings the connection in line with what is wanted now. */
  function sync(): void {
    if (!needed()) {
      disconnect()
      return
    }
    socket.connect()
    sendSubscribe(false)
  }

  function queueSync(): void {
    if (syncQueued) return
    syncQueued = true
    defer(() => {
      syncQueued = false
      sync()
    })
  }

  function dispatch(message: PushServerMessage | null): void {
    if (!message) return
    switch (message.type) {
      case 'lot':
        for (const watch of [...watches]) if (watch.ids.has(message.lotId)) watch.onLot(message)
        return
      case 'outbid':
        for (const listener of [...outbidListeners]) listener(message)
        return
      case 'reminder':
        for (const listener of [...reminderListeners]) listener(message)
        return
      case 'chat':
        for (const listener of [...chatListeners]) listener(message)
        return
      // The greeting, refusals (a rate limit, too many lots) and the heartbeat's answer need
      // nothing from the page.
      case 'hello':
      case 'error':
      case 'pong':
        return
    }
  }

  /** Adds a listener to a set until the returned release is called. */
  function listen<T>(listeners: Set<T>, listener: T): () => void {
    listeners.add(listener)
    queueSync()
    return () => {
      listeners.delete(listener)
      queueSync()
    }
  }

  return {
    watchLots(lotIds, onLot) {
      const watch: Watch = { ids: new Set(lotIds), onLot }
      watches.add(watch)
      queueSync()
      return () => {
        watches.delete(watch)
        queueSync()
      }
    },
    onOutbid: (listener) => listen(outbidListeners, listener),
    onReminder: (listener) => listen(reminderListeners, listener),
    onChat: (listener) => listen(chatListeners, listener),
    visibilityChanged() {
      // Back on screen: try now rather than waiting out the backoff.
      if (visible()) socket.retryNow()
      sync()
    },
    subscribed: () => (lastSent ? lastSent.split(',').map(Number) : []),
  }
}

/**
 * A server message checked against the contract, or null for anything else (garbage, drift — or
 * the check's code could not be loaded). Messages are checked in the order they came: each waits
 * for the one load of the schema.
 */
export async function parsePush(raw: unknown): Promise<PushServerMessage | null> {
  let value: unknown
  try {
    value = typeof raw === 'string' ? JSON.parse(raw) : raw
  } catch {
    return null
  }
  try {
    return (await pushMessageSchema.load()).parse(value)
  } catch {
    return null
  }
}

/** `ws(s)://host/svc/push/ws` from the push base (relative in embedded mode, or absolute). */
export function pushSocketUrl(
  pushBase: string,
  location: { protocol: string; host: string },
): string {
  const base = pushBase.replace(/\/+$/, '')
  if (/^wss?:\/\//.test(base)) return `${base}/ws`
  if (/^https?:\/\//.test(base)) return `${base.replace(/^http/, 'ws')}/ws`
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws'
  return `${scheme}://${location.host}${base.startsWith('/') ? base : `/${base}`}/ws`
}

let browserManager: PushManager | null = null

/** The page's one push connection. */
export function pushManager(): PushManager {
  if (browserManager) return browserManager
  const manager = createPushManager({
    url: () => pushSocketUrl(getClientConfig().services.push, window.location),
    createSocket: (url) => browserSocket(new WebSocket(url)),
    setTimer: (fn, ms) => window.setTimeout(fn, ms),
    clearTimer: (handle) => window.clearTimeout(handle as number),
    isVisible: () => document.visibilityState !== 'hidden',
  })
  document.addEventListener('visibilitychange', () => manager.visibilityChanged())
  browserManager = manager
  return manager
}
