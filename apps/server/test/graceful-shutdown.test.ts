import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import {
  PUSH_CLOSE_RESTART,
  RESTART_RETRY_MAX_MS,
  RESTART_RETRY_MIN_MS,
  restartRetryAfterMs,
} from '@numisma/contracts/push'
import { afterAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { createPostgresDatabase, type PostgresDatabase, testDatabases } from './helpers/databases'
import { REDIS_TEST_URL, redisAvailable } from './helpers/redis'
import { ServerProcess, sleep } from './helpers/server-process'

/**
 * Graceful shutdown of the real process (issue 14, ADR 032): on SIGTERM a request in flight still
 * completes with 200, new connections are refused, push sockets are closed with 1012 and a
 * reconnect hint, and the process exits 0 within SHUTDOWN_TIMEOUT_MS. SQLite without Redis, and
 * PostgreSQL with Redis when it answers (its leases, rate-limit client and bus close too).
 */
const ADMIN_PASSWORD = 'graceful-shutdown-admin'
const SHUTDOWN_TIMEOUT_MS = 5000
const databases = await testDatabases()
const withRedis = await redisAvailable()

const pgDatabases: PostgresDatabase[] = []
afterAll(async () => {
  for (const database of pgDatabases) await database.drop()
})

async function databaseEnv(kind: 'sqlite' | 'postgres'): Promise<Record<string, string>> {
  if (kind === 'sqlite') return {}
  const database = await createPostgresDatabase('helper_roles_gs')
  pgDatabases.push(database)
  return { DATABASE_URL: database.url, ...(withRedis ? { REDIS_URL: REDIS_TEST_URL } : {}) }
}

/** The server process on a port of its choosing, once it answers; its data directory is ours. */
async function startServer(env: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'helper-roles-gs-'))
  const instance = new ServerProcess({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SEED: 'none',
    LOG_FORMAT: 'json',
    NUMISMA_ADMIN_PASSWORD: ADMIN_PASSWORD,
    SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    ...env,
  })
  try {
    await instance.start()
  } catch (error) {
    fs.rmSync(dataDir, { recursive: true, force: true })
    throw error
  }
  return { instance, port: Number(new URL(instance.baseUrl).port), dataDir }
}

/** Whether a new TCP connection to the port is refused. */
const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(false)
    })
    socket.once('error', () => resolve(true))
  })

describe.each(databases.map((d) => d.name))('SIGTERM on %s', (kind) => {
  it('finishes the request in flight, refuses new connections, closes sockets with 1012 and exits 0', async () => {
    const server = await startServer(await databaseEnv(kind))
    const { port } = server
    try {
      // A push socket, open before the signal.
      const ws = new WebSocket(`ws://127.0.0.1:${port}/svc/push/ws`)
      const wsClosed = new Promise<{ code: number; reason: string }>((resolve) =>
        ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
      )
      await new Promise((resolve, reject) => {
        ws.once('open', resolve)
        ws.once('error', reject)
      })

      // A slow client: its request has begun (headers and half the body) when the signal comes.
      const body = JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD })
      const slow = net.connect(port, '127.0.0.1')
      await new Promise((resolve) => slow.once('connect', resolve))
      let answer = ''
      slow.on('data', (d: Buffer) => (answer += d.toString()))
      const slowEnded = new Promise((resolve) => slow.once('close', resolve))
      slow.write(
        'POST /svc/main/admin/login HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
          body.slice(0, 10),
      )
      await sleep(300)

      const signalled = Date.now()
      const exited = server.instance.stop('SIGTERM')

      const closed = await wsClosed
      expect(closed.code).toBe(PUSH_CLOSE_RESTART)
      const retryAfterMs = restartRetryAfterMs(closed.reason)
      expect(retryAfterMs).toBeGreaterThanOrEqual(RESTART_RETRY_MIN_MS)
      expect(retryAfterMs).toBeLessThanOrEqual(RESTART_RETRY_MAX_MS)

      // The listener closes at once: a new connection is refused.
      const deadline = Date.now() + 2000
      while (!(await refused(port))) {
        if (Date.now() > deadline) throw new Error('new connections still accepted')
        await sleep(20)
      }
      expect(server.instance.running).toBe(true)

      // The request in flight completes, its answer saying the connection closes: a proxy's
      // keep-alive pool must not send its next request down it (reset unanswered: a 502). A
      // request pipelined behind it meanwhile is served too, if answered: never a 503.
      slow.write(`${body.slice(10)}GET /svc/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)
      await slowEnded
      expect(answer).toMatch(/^HTTP\/1\.1 200 /)
      const heads = answer.split('\r\n\r\n').filter((part) => part.startsWith('HTTP/1.1'))
      for (const head of heads) {
        expect(head).toMatch(/^HTTP\/1\.1 200 [\s\S]*\r\nconnection: close(\r\n|$)/i)
      }
      // What the proxy does next, on a new connection, is refused, not reset mid-request.
      expect(await refused(port)).toBe(true)

      expect(await exited).toBe(0)
      expect(Date.now() - signalled).toBeLessThan(SHUTDOWN_TIMEOUT_MS)
      expect(server.instance.log).toMatch(/"msg":"shut down"/)
    } finally {
      await server.instance.stop('SIGKILL')
      fs.rmSync(server.dataDir, { recursive: true, force: true })
    }
  }, 60_000)

  it('with SHUTDOWN_DRAIN_MS keeps serving, closes no idle keep-alive connection, then stops', async () => {
    const DRAIN_MS = 3000
    const server = await startServer({
      ...(await databaseEnv(kind)),
      SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
    })
    const { port } = server
    try {
      // A proxy's pooled connection: one request answered, then idle, kept alive.
      const pooled = net.connect(port, '127.0.0.1')
      await new Promise((resolve) => pooled.once('connect', resolve))
      let answer = ''
      pooled.on('data', (d: Buffer) => (answer += d.toString()))
      let pooledClosedAt: number | undefined
      pooled.once('close', () => (pooledClosedAt = Date.now()))
      pooled.write('GET /svc/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
      await expect
        .poll(() => answer, { timeout: 10_000 })
        .toMatch(/^HTTP\/1\.1 200 [\s\S]*\r\n\r\n\{/)
      expect(answer).toMatch(/\r\nconnection: keep-alive\r\n/i)

      const signalled = Date.now()
      const exited = server.instance.stop('SIGTERM')
      await expect
        .poll(() => server.instance.log, { timeout: 10_000 })
        .toMatch(/"msg":"shutting down"/)
      await sleep(300)
      // Within the window: not ready, still serving new connections, and the idle pooled
      // connection is still open — only its next answer says it closes.
      const ready = await fetch(`http://127.0.0.1:${port}/svc/ready`)
      expect(ready.status).toBe(503)
      expect(ready.headers.get('connection')).toBe('close')
      expect(pooledClosedAt).toBeUndefined()
      answer = ''
      pooled.write('GET /svc/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
      await expect.poll(() => pooledClosedAt, { timeout: 10_000 }).toBeDefined()
      expect(answer).toMatch(/^HTTP\/1\.1 200 /)
      expect(answer).toMatch(/\r\nconnection: close\r\n/i)
      expect(Date.now() - signalled).toBeLessThan(DRAIN_MS)
      expect(await refused(port)).toBe(false)

      // After it the listener closes and the process exits 0.
      const deadline = Date.now() + DRAIN_MS + 3000
      while (!(await refused(port))) {
        if (Date.now() > deadline) throw new Error('new connections still accepted')
        await sleep(20)
      }
      expect(Date.now() - signalled).toBeGreaterThanOrEqual(DRAIN_MS - 50)
      expect(await exited).toBe(0)
    } finally {
      await server.instance.stop('SIGKILL')
      fs.rmSync(server.dataDir, { recursive: true, force: true })
    }
  }, 60_000)

  it('serves a request on a connection accepted just before the listener closed, then exits 0', async () => {
    const server = await startServer(await databaseEnv(kind))
    const { port } = server
    try {
      // A proxy's new connection, accepted but with nothing asked yet when the listener closes;
      // its POST comes after (a proxy writes it the moment it has connected).
      const late = net.connect(port, '127.0.0.1')
      await new Promise((resolve) => late.once('connect', resolve))
      let answer = ''
      late.on('data', (d: Buffer) => (answer += d.toString()))
      late.on('error', () => undefined)
      const lateEnded = new Promise((resolve) => late.once('close', resolve))

      const signalled = Date.now()
      const exited = server.instance.stop('SIGTERM')
      const deadline = Date.now() + 10_000
      while (!(await refused(port))) {
        if (Date.now() > deadline) throw new Error('new connections still accepted')
        await sleep(10)
      }
      late.write(
        'POST /svc/main/passport/nothing HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
          'Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
      )
      await lateEnded
      // Answered by the route (unsigned: 401), not reset and not 503, and the connection closes.
      expect(answer).toMatch(/^HTTP\/1\.1 401 [\s\S]*\r\nconnection: close\r\n/i)
      expect(answer).toMatch(/"code":"SIGNATURE_MISSING"/)
      expect(await exited).toBe(0)
      expect(Date.now() - signalled).toBeLessThan(SHUTDOWN_TIMEOUT_MS)
    } finally {
      await server.instance.stop('SIGKILL')
      fs.rmSync(server.dataDir, { recursive: true, force: true })
    }
  }, 60_000)

  it('cuts a request still in flight at SHUTDOWN_TIMEOUT_MS and still exits 0', async () => {
    const server = await startServer({
      ...(await databaseEnv(kind)),
      SHUTDOWN_TIMEOUT_MS: '800',
    })
    try {
      const stuck = net.connect(server.port, '127.0.0.1')
      await new Promise((resolve) => stuck.once('connect', resolve))
      const stuckEnded = new Promise((resolve) => stuck.once('close', resolve))
      stuck.on('error', () => undefined)
      stuck.write(
        'POST /svc/main/admin/login HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
          'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
      )
      await sleep(300)
      const signalled = Date.now()
      expect(await server.instance.stop('SIGTERM')).toBe(0)
      await stuckEnded
      const took = Date.now() - signalled
      expect(took).toBeGreaterThanOrEqual(700)
      expect(took).toBeLessThan(5000)
    } finally {
      await server.instance.stop('SIGKILL')
      fs.rmSync(server.dataDir, { recursive: true, force: true })
    }
  }, 60_000)
})

describe('ROLES naming no known role', () => {
  it('refuses to start, saying which name is wrong and what the roles are', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'helper-roles-gs-'))
    try {
      await expect(startServer({ DATA_DIR: dataDir, ROLES: 'main,serch' })).rejects.toThrow(
        /server exited while starting:[\s\S]*ROLES: unknown role "serch"; give a comma-separated list of main, search, push/,
      )
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  }, 60_000)
})
