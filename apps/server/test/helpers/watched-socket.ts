import type { FastifyInstance } from 'fastify'

type InjectedSocket = Awaited<ReturnType<FastifyInstance['injectWS']>>

/** A socket injected into the app, with every frame it received and how it closed. */
export interface WatchedSocket {
  socket: InjectedSocket
  frames: Record<string, unknown>[]
  /** The close code and reason once the socket closed; rejects if it is still open by then. */
  closed(timeoutMs?: number): Promise<{ code: number; reason: string }>
  waitFor(match: (f: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<unknown>
  /**
   * Sends a ping and waits for its pong: a barrier, since the server answers a socket's frames in
   * order, so whatever it would have sent before the pong has arrived by then.
   */
  pong(timeoutMs?: number): Promise<void>
}

/** Opens `path` with these cookies (`sid=…`, `staff_sid=…`); resolves once the hello arrived. */
export async function watchSocket(
  app: FastifyInstance,
  path: string,
  cookie: string,
): Promise<WatchedSocket> {
  const frames: Record<string, unknown>[] = []
  let onClose: (closed: { code: number; reason: string }) => void = () => undefined
  const closing = new Promise<{ code: number; reason: string }>((resolve) => (onClose = resolve))
  const socket = await app.injectWS(
    path,
    { headers: { cookie } },
    {
      onInit: (ws) => {
        ws.on('message', (data: Buffer) =>
          frames.push(JSON.parse(data.toString()) as Record<string, unknown>),
        )
        ws.on('close', (code: number, reason: Buffer) =>
          onClose({ code, reason: reason.toString() }),
        )
      },
    },
  )
  const waitFor = async (match: (f: Record<string, unknown>) => boolean, timeoutMs = 3000) => {
    const deadline = Date.now() + timeoutMs
    while (Date.now() < deadline) {
      const found = frames.find(match)
      if (found) return found
      await new Promise((r) => setTimeout(r, 5))
    }
    throw new Error(`no matching frame on ${path}; got ${JSON.stringify(frames)}`)
  }
  const watched: WatchedSocket = {
    socket,
    frames,
    closed: (timeoutMs = 3000) =>
      Promise.race([
        closing,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`${path} still open`)), timeoutMs).unref(),
        ),
      ]),
    waitFor,
    async pong(timeoutMs = 3000) {
      const pongs = () => frames.filter((f) => f.type === 'pong').length
      const before = pongs()
      socket.send(JSON.stringify({ type: 'ping' }))
      const deadline = Date.now() + timeoutMs
      while (pongs() === before) {
        if (Date.now() > deadline) throw new Error(`no pong on ${path}`)
        await new Promise((r) => setTimeout(r, 5))
      }
    },
  }
  await waitFor((f) => f.type === 'hello')
  return watched
}

/** Whether the socket is still open after the barrier of a ping answered. */
export async function stillOpen(watched: WatchedSocket): Promise<boolean> {
  await watched.pong()
  return watched.socket.readyState === watched.socket.OPEN
}
