/**
 * A child process of the push benchmarks (push-fanout.ts, idle-connections.ts): it holds many push
 * WebSockets (the `ws` library, as a native app would) and answers its parent over IPC. Not run by
 * hand.
 *
 * Sockets are spread over source addresses 127.0.x.y (the whole 127.0.0.0/8 is loopback on Linux):
 * the push role caps sockets per client address, and one source address also has only ~28,000
 * ephemeral ports. The production cap stays as it is; the load looks like many addresses.
 */
import WebSocket from 'ws'

/** Sockets per source address: under the push role's cap (32, limits.ts). */
export const SOCKETS_PER_ADDRESS = 30

/** The n-th source address: 127.0.1.2, 127.0.1.3 … 127.0.1.251, 127.0.2.2 … */
export function sourceAddress(index: number): string {
  const address = Math.floor(index / SOCKETS_PER_ADDRESS)
  return `127.0.${1 + Math.floor(address / 250)}.${2 + (address % 250)}`
}

/** Wall-clock milliseconds with sub-millisecond precision, comparable between processes. */
export const wallClock = () => performance.timeOrigin + performance.now()

export type WatcherCommand =
  | {
      cmd: 'open'
      base: string
      /** Each socket subscribes to one of these, round robin. */
      lotIds: number[]
      count: number
      /** Global index of this process's first socket (picks its source addresses). */
      firstIndex: number
      concurrency: number
      /** Deliveries to keep per socket (for the fan-out's timings). */
      expectedEvents: number
    }
  | { cmd: 'status'; bidCount: number }
  | { cmd: 'report' }
  | { cmd: 'close' }

export type WatcherReply =
  | { ev: 'opened'; open: number; failed: number; errors: string[]; ms: number }
  | { ev: 'status'; have: number; open: number }
  | {
      ev: 'report'
      /** Per delivery: the lot update's bid count and when it arrived (wallClock). */
      bidCounts: Int32Array
      times: Float64Array
      deliveries: number
      /** Deliveries past `expectedEvents` per socket, not kept. */
      overflow: number
      open: number
      closeCodes: Record<string, number>
    }

interface Watcher {
  socket: WebSocket
  /** The highest bid count this socket has been sent. */
  latest: number
}

function run(): void {
  const watchers: Watcher[] = []
  let bidCounts = new Int32Array(0)
  let times = new Float64Array(0)
  let deliveries = 0
  let overflow = 0
  let capacity = 0
  const closeCodes: Record<string, number> = {}
  const reply = (message: WatcherReply) => process.send!(message)

  const openOne = (
    url: string,
    lotId: number,
    index: number,
    subscribe: boolean,
  ): Promise<Watcher> =>
    new Promise((resolve, reject) => {
      const socket = new WebSocket(url, {
        localAddress: sourceAddress(index),
        perMessageDeflate: false,
      })
      const watcher: Watcher = { socket, latest: -1 }
      let subscribed = false
      socket.on('message', (data: Buffer) => {
        // The time first: parsing is the client's cost, not the delivery's.
        const at = wallClock()
        const message = JSON.parse(data.toString()) as { type: string; bidCount?: number }
        if (message.type !== 'lot') return
        const bidCount = message.bidCount ?? -1
        if (!subscribed) {
          // The snapshot that answers the subscribe: the socket is ready.
          subscribed = true
          watcher.latest = bidCount
          resolve(watcher)
          return
        }
        watcher.latest = Math.max(watcher.latest, bidCount)
        if (deliveries < capacity) {
          bidCounts[deliveries] = bidCount
          times[deliveries] = at
          deliveries += 1
        } else {
          overflow += 1
        }
      })
      socket.once('open', () => {
        if (subscribe) socket.send(JSON.stringify({ type: 'subscribe', lotIds: [lotId] }))
        else resolve(watcher)
      })
      socket.on('close', (code: number) => {
        closeCodes[code] = (closeCodes[code] ?? 0) + 1
        if (!subscribed) reject(new Error(`closed ${code} before its snapshot`))
      })
      socket.on('error', (error: Error) => reject(error))
    })

  process.on('message', (command: WatcherCommand) => {
    switch (command.cmd) {
      case 'open': {
        const started = performance.now()
        capacity = command.count * command.expectedEvents
        bidCounts = new Int32Array(capacity)
        times = new Float64Array(capacity)
        const url = `${command.base.replace(/^http/, 'ws')}/svc/push/ws`
        let next = 0
        let failed = 0
        const errors: string[] = []
        const worker = async () => {
          while (next < command.count) {
            const i = next++
            try {
              watchers.push(
                await openOne(
                  url,
                  command.lotIds[i % command.lotIds.length]!,
                  command.firstIndex + i,
                  command.lotIds.length > 0,
                ),
              )
            } catch (error) {
              failed += 1
              if (errors.length < 5) errors.push(String(error))
            }
          }
        }
        // A worker never rejects: each socket's failure is counted in it.
        Promise.all(Array.from({ length: command.concurrency }, worker))
          .then(() =>
            reply({
              ev: 'opened',
              open: watchers.filter((w) => w.socket.readyState === WebSocket.OPEN).length,
              failed,
              errors,
              ms: performance.now() - started,
            }),
          )
          .catch((error: unknown) => console.error('watcher: opening failed', error))
        return
      }
      case 'status':
        reply({
          ev: 'status',
          have: watchers.filter((w) => w.latest >= command.bidCount).length,
          open: watchers.filter((w) => w.socket.readyState === WebSocket.OPEN).length,
        })
        return
      case 'report':
        reply({
          ev: 'report',
          bidCounts: bidCounts.slice(0, deliveries),
          times: times.slice(0, deliveries),
          deliveries,
          overflow,
          open: watchers.filter((w) => w.socket.readyState === WebSocket.OPEN).length,
          closeCodes,
        })
        return
      case 'close':
        for (const { socket } of watchers) socket.terminate()
        setTimeout(() => process.exit(0), 100)
        return
    }
  })
}

if (process.env.NUMISMA_BENCH_WATCHER === '1') run()
