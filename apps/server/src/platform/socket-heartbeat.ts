/** The part of a `ws` socket the heartbeat uses (a fake in unit tests). */
export interface HeartbeatSocket {
  readonly readyState: number
  /** Bytes queued for the network and not yet written. */
  readonly bufferedAmount: number
  ping(): void
  terminate(): void
  on(event: 'pong' | 'message', listener: () => void): unknown
}

export interface HeartbeatTimers {
  setInterval(fn: () => void, ms: number): unknown
  clearInterval(handle: unknown): void
  /** Runs `fn` on a later turn of the event loop, between two slices of sockets. */
  defer(fn: () => void): void
}

const OPEN = 1

/** Sockets pinged per turn of the event loop: 20,000 sockets are not one long stall. */
export const HEARTBEAT_SLICE = 1_000

const nodeTimers: HeartbeatTimers = {
  setInterval: (fn, ms) => setInterval(fn, ms).unref(),
  clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
  defer: (fn) => setImmediate(fn),
}

/**
 * WebSocket liveness for every socket of the server, push and chat alike (issue 14, item 5: no
 * connection held forever). Each interval every open socket is pinged; one that has given no sign
 * of life since the previous ping is cut. A sign of life is a pong (browsers and `ws` answer pings
 * by themselves), any message, or a send buffer that went down — a phone on a slow network still
 * reading a backlog gets its pong through late, and is not cut for it. A phone that changed
 * networks, or a peer gone without a close, leaves a half-open socket that would otherwise keep
 * its slot in the per-address cap and its subscriptions for good. The pings also keep a quiet
 * socket from looking idle to NAT gateways and to any proxy with a shorter idle timeout.
 *
 * A socket is pinged first at the tick after it opened and cut at the tick after an unanswered
 * ping: a dead peer is gone within two intervals. Returns the function that stops it.
 */
export function startSocketHeartbeat(
  server: { readonly clients: ReadonlySet<HeartbeatSocket> },
  intervalMs: number,
  timers: HeartbeatTimers = nodeTimers,
): () => void {
  const watched = new WeakSet<HeartbeatSocket>()
  const answered = new WeakSet<HeartbeatSocket>()
  const buffered = new WeakMap<HeartbeatSocket, number>()
  let stopped = false

  const check = (socket: HeartbeatSocket): void => {
    if (socket.readyState !== OPEN) return
    const queued = socket.bufferedAmount
    const draining = queued < (buffered.get(socket) ?? 0)
    buffered.set(socket, queued)
    if (!watched.has(socket)) {
      watched.add(socket)
      const alive = () => answered.add(socket)
      socket.on('pong', alive)
      socket.on('message', alive)
    } else if (!answered.has(socket) && !draining) {
      socket.terminate()
      return
    }
    answered.delete(socket)
    socket.ping()
  }

  const slice = (sockets: HeartbeatSocket[], from: number): void => {
    if (stopped) return
    const to = Math.min(sockets.length, from + HEARTBEAT_SLICE)
    for (let i = from; i < to; i++) check(sockets[i]!)
    if (to < sockets.length) timers.defer(() => slice(sockets, to))
  }

  const handle = timers.setInterval(() => slice([...server.clients], 0), intervalMs)
  return () => {
    stopped = true
    timers.clearInterval(handle)
  }
}
