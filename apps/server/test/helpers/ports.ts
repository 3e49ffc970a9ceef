import net from 'node:net'

/** A port free on loopback right now, for a server process a test starts. */
export const freePort = (): Promise<number> =>
  new Promise<number>((resolve, reject) => {
    const probe = net.createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo
      probe.close(() => resolve(port))
    })
  })
