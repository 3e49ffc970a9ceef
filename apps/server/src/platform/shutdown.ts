import {
  PUSH_CLOSE_RESTART,
  RESTART_RETRY_MAX_MS,
  RESTART_RETRY_MIN_MS,
} from '@numisma/contracts/push'
import type { FastifyInstance } from 'fastify'

/** A socket as the `ws` server holds it. */
interface ClosableSocket {
  close(code?: number, reason?: string): void
  terminate(): void
  readyState: number
}

/**
 * The wait a closed socket is told (ADR 032): spread evenly over the restart window, so 5,000
 * sockets closed at once come back at ~350 a second rather than in one burst.
 */
export function restartHint(random: () => number = Math.random): string {
  const span = RESTART_RETRY_MAX_MS - RESTART_RETRY_MIN_MS
  return JSON.stringify({ retryAfterMs: RESTART_RETRY_MIN_MS + Math.floor(random() * span) })
}

/** How long a socket has to answer the close before it is cut. */
const CLOSE_HANDSHAKE_MS = 1000

/**
 * @fastify/websocket's `preClose` (app.close(), which SIGTERM runs): every push and chat socket is
 * closed with 1012 Service Restart and a reconnect hint, then the WebSocket server closes. A
 * socket that does not finish the close handshake in a second is cut, so a dead peer cannot hold
 * the shutdown.
 */
export function closeSocketsForRestart(random: () => number = Math.random) {
  return function preClose(this: FastifyInstance, done: (error?: Error) => void): void {
    const server = this.websocketServer as {
      clients?: Set<ClosableSocket>
      close(cb: () => void): void
    }
    const sockets = [...(server.clients ?? [])]
    for (const socket of sockets) socket.close(PUSH_CLOSE_RESTART, restartHint(random))
    const cut = setTimeout(() => {
      for (const socket of sockets) if (socket.readyState !== 3) socket.terminate()
    }, CLOSE_HANDSHAKE_MS)
    cut.unref()
    server.close(() => undefined)
    done()
  }
}
