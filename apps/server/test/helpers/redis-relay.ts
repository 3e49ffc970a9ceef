import net from 'node:net'

/**
 * A relay to the real Redis that can reset its connections and stop listening, or hold the
 * commands it is sent (a Redis that is stuck: they reach it, in order, once it is released).
 */
export class RedisRelay {
  private server?: net.Server
  private readonly sockets = new Set<net.Socket>()
  private held: (() => void)[] = []
  private holding = false
  port = 0

  constructor(private readonly target: URL) {}

  async start(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(Number(this.target.port || 6379), this.target.hostname)
      for (const s of [client, upstream]) {
        this.sockets.add(s)
        s.on('close', () => this.sockets.delete(s))
        s.on('error', () => {})
      }
      client.on('data', (d) => {
        if (this.holding) this.held.push(() => upstream.write(d))
        else upstream.write(d)
      })
      upstream.on('data', (d) => client.write(d))
      client.on('close', () => upstream.destroy())
      upstream.on('close', () => client.destroy())
    })
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(this.port, '127.0.0.1', () => resolve())
    })
    this.port = (server.address() as net.AddressInfo).port
    this.server = server
  }

  hold(): void {
    this.holding = true
  }

  release(): void {
    this.holding = false
    for (const write of this.held.splice(0)) write()
  }

  /** Redis "goes down": no listener, every open connection reset. */
  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy()
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    )
    this.server = undefined
  }
}
