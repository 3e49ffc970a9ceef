import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, nextMobile, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { listen } from './helpers/push-client'

/**
 * Issue 15 (deliverable 4): what a hostile client meets before any module — the security headers
 * on API answers, refusals and pages, a slow client cut off, what Node's parser refuses answered
 * with a code, and SMS limits that count only well-formed requests. The policy's details are
 * security-headers.test.ts's and client-errors.test.ts's; these are the attacker's view.
 */
const databases = await testDatabases()

const REQUIRED = ['content-security-policy', 'x-content-type-options', 'referrer-policy']

describe.each(databases)('security headers on $name', (kind) => {
  let t: TestApp

  let dist: string

  beforeAll(async () => {
    // The shop's own index.html source in a dist of its own, so the page is served as built.
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'numisma-security-'))
    const source = path.resolve(import.meta.dirname, '../../web/index.html')
    fs.copyFileSync(source, path.join(dist, 'index.html'))
    t = await createTestApp(kind, { trustProxy: '127.0.0.1', webDist: dist })
  })
  afterAll(async () => {
    await t.close()
    fs.rmSync(dist, { recursive: true, force: true })
  })

  const expectHardened = (headers: Record<string, unknown>, what: string) => {
    for (const name of REQUIRED) expect(headers[name], `${name} on ${what}`).toBeTruthy()
    expect(headers['x-content-type-options']).toBe('nosniff')
    const framing =
      String(headers['content-security-policy']).includes("frame-ancestors 'none'") ||
      headers['x-frame-options'] === 'DENY'
    expect(framing, `framing refused on ${what}`).toBe(true)
  }

  it('hardens a signed API answer, a refusal and the shop’s page', async () => {
    const answer = await t.call({ method: 'GET', path: '/pub/@time' })
    expect(answer.statusCode).toBe(200)
    expectHardened(answer.headers, 'an API answer')
    const refusal = await t.inject({ method: 'GET', url: '/svc/main/user/@statistics' })
    expect(refusal.statusCode).toBe(401)
    expectHardened(refusal.headers, 'a refusal')
    const page = await t.inject({ method: 'GET', url: '/productDetail?id=1' })
    expect(page.headers['content-type']).toMatch(/html/)
    expectHardened(page.headers, 'an HTML page')
    expect(page.headers['permissions-policy'], 'permissions on a page').toBeTruthy()
  })

  it('sends HSTS over https only', async () => {
    const http = await t.call({ method: 'GET', path: '/pub/@time' })
    expect(http.headers['strict-transport-security']).toBeUndefined()
    const https = await t.call({
      method: 'GET',
      path: '/pub/@time',
      headers: { 'x-forwarded-proto': 'https' },
    })
    expect(https.headers['strict-transport-security']).toMatch(/max-age=\d{7,}/)
  })
})

/** Sends raw bytes on a new connection; resolves with all it got back once the server closes it. */
function raw(
  base: string,
  bytes: string,
  timeoutMs = 5_000,
): Promise<{ text: string; ms: number }> {
  const { hostname, port } = new URL(base)
  const started = Date.now()
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(bytes))
    let text = ''
    socket.on('data', (chunk) => (text += chunk.toString()))
    socket.on('close', () => resolve({ text, ms: Date.now() - started }))
    socket.on('error', reject)
    setTimeout(() => {
      socket.destroy()
      reject(new Error(`still open after ${timeoutMs} ms: ${text}`))
    }, timeoutMs)
  })
}

const bodyOf = (text: string) => JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as object

describe.each(databases)('hostile connections on $name', (kind) => {
  let t: TestApp
  let base: string

  beforeAll(async () => {
    t = await createTestApp(kind, {
      httpTimeouts: { headersMs: 600, requestMs: 1_200, checkIntervalMs: 100 },
    })
    base = await listen(t.app)
  })
  afterAll(() => t.close())

  it('cuts off a client that never finishes its headers, with 408 and a code', async () => {
    const { text, ms } = await raw(
      base,
      'GET /svc/health HTTP/1.1\r\nHost: numisma.test\r\nX-Slow: ',
    )
    expect(ms).toBeLessThan(4_000)
    expect(text).toMatch(/^HTTP\/1\.1 408/)
    expect(bodyOf(text)).toMatchObject({ code: 'REQUEST_TIMEOUT', message: expect.any(String) })
  })

  it('answers what the HTTP parser refuses with {code, message}, not {error, statusCode}', async () => {
    for (const bytes of [
      'G@T /svc/health HTTP/1.1\r\nHost: numisma.test\r\n\r\n',
      'GET /svc/health HTTP/1.1\r\nHost: numisma.test\r\nBad Header: x\r\n\r\n',
      `GET /svc/health HTTP/1.1\r\nHost: numisma.test\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    ]) {
      const { text } = await raw(base, bytes)
      expect(text).toMatch(/^HTTP\/1\.1 4\d\d/)
      const body = bodyOf(text)
      expect(body).toMatchObject({
        code: expect.stringMatching(/^[A-Z_]+$/),
        message: expect.any(String),
      })
      expect(body).not.toHaveProperty('error')
    }
  })
})

describe.each(databases)('SMS limits count well-formed requests on $name', (kind) => {
  let t: TestApp

  beforeAll(async () => {
    t = await createTestApp(kind, {
      rateLimit: { sms: 5, smsPerCaller: 30, login: 20, staffLogin: 10 },
    })
  })
  afterAll(() => t.close())

  it('30 malformed SMS requests from one address do not lock it out of a real one', async () => {
    for (let i = 0; i < 31; i++) {
      const bad = await t.call({
        method: 'POST',
        path: '/passport/sms',
        body: { mobile: `12${i}` },
      })
      expect(bad.statusCode).toBe(400)
    }
    const real = await t.call({
      method: 'POST',
      path: '/passport/sms',
      body: { mobile: nextMobile() },
    })
    expect(real.statusCode, real.body).toBe(200)
  })
})
