// A hostile socket client in its own process, as an attacker would be: the server's event loop is
// measured without the test's own client work on it. Usage (JSON in argv[2]):
//   { url, sockets, messages, lotSets: [[...ids], [...ids]] }    subscribes on the push role
//   { url, sockets, messages, payloads: ['…', '…'], headers }    any frames (the chat sockets)
// Frames go out in turn from `payloads` (or one subscribe per lot set), `{socket}` in one replaced
// by the socket's number (distinct client ids); `headers` go with the upgrade (a session cookie).
// `messages` counts the `message` frames heard (chat).
// Prints `flooding` once every socket is open and its flood is queued, then one JSON line with
// what each socket saw, and exits. Bounded: every socket is dropped after 10 s whatever happens.
import WebSocket from 'ws'

const plan = JSON.parse(process.argv[2])
const { url, sockets, messages, headers } = plan
const payloads =
  plan.payloads ?? plan.lotSets.map((lotIds) => JSON.stringify({ type: 'subscribe', lotIds }))

const clients = await Promise.all(
  Array.from(
    { length: sockets },
    () =>
      new Promise((resolve, reject) => {
        const socket = new WebSocket(url, { headers })
        const seen = { lots: 0, messages: 0, rateLimited: 0, errors: 0, closeCode: null }
        socket.on('message', (data) => {
          const message = JSON.parse(data.toString())
          if (message.type === 'lot') seen.lots += 1
          else if (message.type === 'message') seen.messages += 1
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
  for (const [i, { socket }] of clients.entries()) {
    const payload = payloads[n % payloads.length].replaceAll('{socket}', String(i))
    if (socket.readyState === WebSocket.OPEN) socket.send(payload)
  }
}
process.stdout.write('flooding\n')

const deadline = setTimeout(() => {
  for (const { socket } of clients) socket.terminate()
}, 10_000)
await Promise.all(clients.map((c) => c.closed))
clearTimeout(deadline)
process.stdout.write(`${JSON.stringify(clients.map((c) => c.seen))}\n`)
