/** The part of a `ws` socket the heartbeat uses (a fake in unit tests). */
export interface HeartbeatSocket {
  readonly readyState: number
  ping(): void
  terminate(): void
  on(event: 'pong' | 'message', listener: () => void): unknown
}

export interface HeartbeatTimers {
  setInterval(fn: () => void, ms: number): unknown
  clearInterval(handle: unknown): void
}

const OPEN = 1

const nodeTimers: HeartbeatTimers = {
  setInterval: (fn, ms) => setInterval(fn, ms).unref(),
  clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
}

/**
 * WebSocket liveness for every socket of the server, push and chat alike (issue 14, item 5: no
 * connection held forever). Each interval every open socket is pinged; one that has not answered —
 * a pong, which browsers send by themselves, or any message — since the previous ping is cut.
 * A phone that changed networks, or a peer gone without a close, leaves a half-open socket that
 * would otherwise keep its slot in the per-address cap and its subscriptions for good. The pings
 * also keep a quiet socket from looking idle to nginx (`proxy_read_timeout`) and to NAT gateways.
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
  const handle = timers.setInterval(() => {
    for (const socket of server.clients) {
      if (socket.readyState !== OPEN) continue
      if (!watched.has(socket)) {
        watched.add(socket)
        const alive = () => answered.add(socket)
        socket.on('pong', alive)
        socket.on('message', alive)
      } else if (!answered.has(socket)) {
        socket.terminate()
        continue
      }
      answered.delete(socket)
      socket.ping()
    }
  }, intervalMs)
  return () => timers.clearInterval(handle)
}
