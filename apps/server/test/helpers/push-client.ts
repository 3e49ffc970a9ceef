import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import WebSocket from 'ws'

/** Starts the app on a real port on 127.0.0.1 and returns its base URL (`http://127.0.0.1:N`). */
export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  return `http://127.0.0.1:${port}`
}

export interface PushInbox {
  socket: WebSocket
  messages: Record<string, unknown>[]
  /** The close code once the socket has closed. */
  closeCode: number | null
  waitFor(match: (m: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<unknown>
  closed(timeoutMs?: number): Promise<number>
}

/**
 * A real WebSocket client (the `ws` library, as a native app would use) on the push role. Resolves
 * once open; rejects with `Unexpected server response: <status>` when the upgrade is refused.
 */
export function openPush(
  base: string,
  options: {
    headers?: Record<string, string>
    origin?: string
    /** false: never answer the server's pings, like a peer gone without closing. */
    autoPong?: boolean
  } = {},
): Promise<PushInbox> {
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/svc/push/ws`, {
    headers: options.headers,
    ...(options.origin === undefined ? {} : { origin: options.origin }),
    ...(options.autoPong === undefined ? {} : { autoPong: options.autoPong }),
  })
  const inbox: PushInbox = {
    socket,
    messages: [],
    closeCode: null,
    async waitFor(match, timeoutMs = 3000) {
      const deadline = Date.now() + timeoutMs
      while (Date.now() < deadline) {
        const found = inbox.messages.find(match)
        if (found) return found
        await new Promise((r) => setTimeout(r, 10))
      }
      throw new Error(`no matching message; got ${JSON.stringify(inbox.messages.slice(-5))}`)
    },
    async closed(timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs
      while (inbox.closeCode === null) {
        if (Date.now() > deadline) throw new Error('socket still open')
        await new Promise((r) => setTimeout(r, 10))
      }
      return inbox.closeCode
    },
  }
  socket.on('message', (data: Buffer) => {
    inbox.messages.push(JSON.parse(data.toString()) as Record<string, unknown>)
  })
  socket.on('close', (code: number) => {
    inbox.closeCode = code
  })
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(inbox))
    // Before open: the refusal. After: a broken socket, which shows as its close code.
    socket.on('error', reject)
  })
}

/** The in-process bus delivers on the next turn of the event loop (platform/event-bus.ts). */
export const busDelivered = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))
