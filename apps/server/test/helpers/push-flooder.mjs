// A hostile push client in its own process, as an attacker would be: the server's event loop is
// measured without the test's own client work on it. Usage (JSON in argv[2]):
//   { url, sockets, messages, lotSets: [[...ids], [...ids]] }
// Prints `flooding` once every socket is open and its flood is queued, then one JSON line with
// what each socket saw, and exits. Bounded: every socket is dropped after 10 s whatever happens.
import WebSocket from 'ws'

const { url, sockets, messages, lotSets } = JSON.parse(process.argv[2])
const payloads = lotSets.map((lotIds) => JSON.stringify({ type: 'subscribe', lotIds }))

const clients = await Promise.all(
  Array.from(
    { length: sockets },
    () =>
      new Promise((resolve, reject) => {
        const socket = new WebSocket(url)
        const seen = { lots: 0, rateLimited: 0, errors: 0, closeCode: null }
        socket.on('message', (data) => {
          const message = JSON.parse(data.toString())
          if (message.type === 'lot') seen.lots += 1
          else if (message.type === 'error' && message.code === 'RATE_LIMITED')
            seen.rateLimited += 1
          else if (message.type === 'error') seen.errors += 1
        })
        const closed = new Promise((done) =>
          socket.on('close', (code) => {
            seen.closeCode = code
            done()
          }),
        )
        socket.on('error', reject)
        socket.once('open', () => resolve({ socket, seen, closed }))
      }),
  ),
)

for (let n = 0; n < messages; n++) {
  for (const { socket } of clients) {
    if (socket.readyState === WebSocket.OPEN) socket.send(payloads[n % payloads.length])
  }
}
process.stdout.write('flooding\n')

const deadline = setTimeout(() => {
  for (const { socket } of clients) socket.terminate()
}, 10_000)
await Promise.all(clients.map((c) => c.closed))
clearTimeout(deadline)
process.stdout.write(`${JSON.stringify(clients.map((c) => c.seen))}\n`)
