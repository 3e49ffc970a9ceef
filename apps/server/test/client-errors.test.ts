import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { listen, openPush } from './helpers/push-client'

const databases = await testDatabases()
// In production's order (headers 15 s < idle 90 s < request 120 s), each 500 ms apart so which
// timeout ends a connection does not depend on timer jitter.
const TIMEOUTS = { requestMs: 2000, headersMs: 1000, idleMs: 1500, checkIntervalMs: 100 }

interface RawAnswer {
  status: number
  headers: Record<string, string>
  body: string
  /** Milliseconds from the first byte sent to the server closing the connection. */
  closedAfterMs: number
}

/** A raw TCP client: sends `first`, then each of `trickle` a `everyMs` apart, until closed. */
function raw(
  port: number,
  first: string,
  trickle: { chunks: string[]; everyMs: number } = { chunks: [], everyMs: 0 },
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, '127.0.0.1')
    const received: Buffer[] = []
    const started = Date.now()
    let timer: NodeJS.Timeout | undefined
    socket.on('data', (chunk) => received.push(chunk))
    socket.on('error', () => undefined)
    socket.on('close', () => {
      clearInterval(timer)
      const text = Buffer.concat(received).toString()
      const [head = '', body = ''] = text.split('\r\n\r\n')
      const [statusLine = '', ...lines] = head.split('\r\n')
      resolve({
        status: Number(statusLine.split(' ')[1] ?? 0),
        headers: Object.fromEntries(
          lines.map((l) => [
            l.slice(0, l.indexOf(':')).toLowerCase(),
            l.slice(l.indexOf(':') + 1).trim(),
          ]),
        ),
        body,
        closedAfterMs: Date.now() - started,
      })
    })
    socket.setTimeout(15_000, () => reject(new Error('the server never closed the connection')))
    socket.write(first)
    const chunks = [...trickle.chunks]
    if (chunks.length > 0) {
      timer = setInterval(() => {
        const next = chunks.shift()
        if (next === undefined || socket.destroyed) return clearInterval(timer)
        socket.write(next)
      }, trickle.everyMs)
    }
  })
}

function expectCoded(answer: RawAnswer, status: number, code: string): void {
  expect(answer.status).toBe(status)
  expect(answer.headers['content-type']).toMatch(/^application\/json/)
  expect(answer.headers.connection).toBe('close')
  expect(answer.headers['x-content-type-options']).toBe('nosniff')
  expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body))
  const body = JSON.parse(answer.body) as Record<string, unknown>
  expect(Object.keys(body).sort()).toEqual(['code', 'message'])
  expect(body.code).toBe(code)
  expect(typeof body.message).toBe('string')
}

describe.each(databases)("what Node's HTTP parser refuses, and slow clients, on $name", (kind) => {
  let t: TestApp
  let base: string
  let port: number

  beforeAll(async () => {
    t = await createTestApp(kind, { httpTimeouts: TIMEOUTS })
    base = await listen(t.app)
    port = Number(new URL(base).port)
  })
  afterAll(() => t.close())

  it.each([
    ['a bad method', 'F@O /svc/health HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a bad header name', 'GET /svc/health HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n'],
    [
      'a control character in a header value',
      'GET /svc/health HTTP/1.1\r\nHost: x\r\nX-A: a\x01b\r\n\r\n',
    ],
    ['a malformed request line', 'GET\r\n\r\n'],
    ['no HTTP at all', 'hello there\r\n\r\n'],
    ['a bad content length', 'POST /svc/health HTTP/1.1\r\nHost: x\r\nContent-Length: x1\r\n\r\n'],
  ])('answers %s with 400 {code, message} and closes', async (_name, request) => {
    expectCoded(await raw(port, request), 400, 'VALIDATION_FAILED')
  })

  it('answers oversized headers with 431 {code, message}', async () => {
    const request = `GET /svc/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`
    expectCoded(await raw(port, request), 431, 'HEADERS_TOO_LARGE')
  })

  it('still answers a well-formed request', async () => {
    const answer = await raw(
      port,
      'GET /svc/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    )
    expect(answer.status).toBe(200)
  })

  it('cuts off a body sent a byte a second with 408 {code, message} within the request timeout', async () => {
    const body = JSON.stringify({ username: 'admin', password: 'x'.repeat(40) })
    const answer = await raw(
      port,
      'POST /svc/main/admin/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${body.length}\r\n\r\n${body[0]}`,
      { chunks: Array.from(body.slice(1)), everyMs: 1000 },
    )
    expectCoded(answer, 408, 'REQUEST_TIMEOUT')
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(TIMEOUTS.requestMs - 100)
    expect(answer.closedAfterMs).toBeLessThan(TIMEOUTS.requestMs + 1500)
  })

  it('answers a client that never finishes its headers with 408 {code, message}', async () => {
    const answer = await raw(port, 'GET /svc/health HTTP/1.1\r\nHost: x\r\n', {
      chunks: Array.from({ length: 30 }, (_, i) => `X-Slow-${i}: a\r\n`),
      everyMs: 300,
    })
    // Node's headers timeout is a client error like any other: answered, not just dropped.
    expectCoded(answer, 408, 'REQUEST_TIMEOUT')
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(TIMEOUTS.headersMs - 100)
    expect(answer.closedAfterMs).toBeLessThan(TIMEOUTS.headersMs + 1500)
  })

  it('answers a connection that sends nothing with 408 {code, message} at the headers timeout', async () => {
    // Node counts a connection's headers time from the connection, so it ends before the idle one.
    const answer = await raw(port, '')
    expectCoded(answer, 408, 'REQUEST_TIMEOUT')
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(TIMEOUTS.headersMs - 100)
    expect(answer.closedAfterMs).toBeLessThan(TIMEOUTS.idleMs)
  })

  it('drops a body that stops coming at the idle timeout, without a byte of answer', async () => {
    // Node's socket timeout destroys the socket and raises no client error, so nothing answers:
    // an upload stalled for idleMs (90 s in production) ends silently, before its 408 would.
    const answer = await raw(
      port,
      'POST /svc/main/admin/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        'Content-Length: 20\r\n\r\n{',
    )
    const { status, headers, body } = answer
    expect({ status, headers, body }).toEqual({ status: 0, headers: {}, body: '' })
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(TIMEOUTS.idleMs - 100)
    expect(answer.closedAfterMs).toBeLessThan(TIMEOUTS.requestMs)
  })

  it('keeps an upgraded push socket open past every one of those timeouts', async () => {
    const push = await openPush(base, { origin: base })
    await new Promise((resolve) => setTimeout(resolve, TIMEOUTS.requestMs + 1500))
    expect(push.closeCode).toBeNull()
    push.socket.send(JSON.stringify({ type: 'subscribe', lotIds: [1] }))
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(push.closeCode).toBeNull()
    push.socket.close()
  })
})
