import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestApp, type TestApp } from './helpers/app'
import { createLot } from './helpers/auction'
import { testDatabases } from './helpers/databases'
import { busDelivered, listen, openPush, type PushInbox } from './helpers/push-client'

const [sqlite] = await testDatabases()

/** Issue 7, defect 3: who may open a push socket, checked before the upgrade. */
describe('push role: origins and sockets per address', () => {
  let t: TestApp
  let base: string
  const open: PushInbox[] = []
  const connect = async (options: Parameters<typeof openPush>[1] = {}) => {
    const push = await openPush(base, options)
    open.push(push)
    return push
  }

  beforeAll(async () => {
    t = await createTestApp(sqlite!, {
      trustProxy: 1,
      push: { limits: { maxConnectionsPerIp: 2 }, allowedOrigins: ['https://partner.example'] },
    })
    base = await listen(t.app)
  })
  afterAll(async () => {
    for (const { socket } of open) socket.terminate()
    await t.close()
  })

  it("refuses a foreign page's socket with 403, and lets the shop's own pages and native apps in", async () => {
    await expect(connect({ origin: 'https://evil.example' })).rejects.toThrow(
      'Unexpected server response: 403',
    )
    await expect(connect({ origin: 'null' })).rejects.toThrow('Unexpected server response: 403')
    const own = [
      { origin: base, headers: { 'x-forwarded-for': '10.0.0.1' } },
      { origin: 'https://m.numisma.cn', headers: { 'x-forwarded-for': '10.0.0.2' } },
      { origin: 'https://partner.example', headers: { 'x-forwarded-for': '10.0.0.3' } },
      { headers: { 'x-forwarded-for': '10.0.0.4' } },
    ]
    for (const options of own) {
      const push = await connect(options)
      await push.waitFor((m) => m.type === 'hello')
    }
  })

  it('caps sockets per client address (request.ip, through the trusted proxy) with 429', async () => {
    const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } })
    const first = await connect(from('10.0.1.1'))
    await connect(from('10.0.1.1'))
    await expect(connect(from('10.0.1.1'))).rejects.toThrow('Unexpected server response: 429')
    // Another address behind the same proxy has its own count.
    await connect(from('10.0.1.2'))

    first.socket.close()
    await first.closed()
    await expect
      .poll(() =>
        connect(from('10.0.1.1')).then(
          () => true,
          () => false,
        ),
      )
      .toBe(true)
  })

  it('serialises a lot update once, however many sockets follow the lot (it runs once per event)', async () => {
    const lotId = await createLot(t)
    const followers: PushInbox[] = []
    for (const ip of ['10.0.2.1', '10.0.2.2', '10.0.2.3']) {
      const push = await connect({ headers: { 'x-forwarded-for': ip } })
      push.socket.send(JSON.stringify({ type: 'subscribe', lotIds: [lotId] }))
      await push.waitFor((m) => m.type === 'lot' && m.lotId === lotId)
      followers.push(push)
    }
    const update = {
      type: 'lot' as const,
      lotId,
      price: 12_300,
      bidCount: 1,
      endsAt: new Date(t.clock.now() + 60_000).toISOString(),
      status: 'live' as const,
      leader: null,
    }
    const stringify = vi.spyOn(JSON, 'stringify')
    try {
      t.app.bus.publish(update)
      await busDelivered()
      const calls = stringify.mock.calls.filter(
        ([value]) => (value as { lotId?: unknown } | null)?.lotId === lotId,
      )
      expect(calls).toHaveLength(1)
    } finally {
      stringify.mockRestore()
    }
    for (const push of followers) await push.waitFor((m) => m.type === 'lot' && m.price === 12_300)
  })
})

/**
 * The Vite dev server (README) proxies /svc with `changeOrigin`: the upgrade reaches the server with
 * Host 127.0.0.1:8080 and the page's Origin http://localhost:5173. A reverse proxy that rewrites
 * Host does the same.
 */
describe('push role: a dev proxy in front (Host is not the Origin)', () => {
  const apps: TestApp[] = []
  afterAll(async () => {
    for (const app of apps) await app.close()
  })
  const start = async (env: 'development' | 'production') => {
    const t = await createTestApp(sqlite!, { env })
    apps.push(t)
    return listen(t.app)
  }

  it('lets a page on this machine in during development', async () => {
    const base = await start('development')
    for (const origin of ['http://localhost:5173', 'http://[::1]:4173']) {
      const push = await openPush(base, { origin })
      await push.waitFor((m) => m.type === 'hello')
      push.socket.terminate()
    }
  })

  it('refuses it in production, where only the shop and configured origins may', async () => {
    const base = await start('production')
    await expect(openPush(base, { origin: 'http://localhost:5173' })).rejects.toThrow(
      'Unexpected server response: 403',
    )
  })
})

/** Refusals behind a load balancer without TRUST_PROXY would otherwise be silent. */
describe('push role: refusals are logged, a few lines a minute', () => {
  let t: TestApp
  let base: string
  const lines: { level: number; msg: string; ip?: string; status?: number; skipped?: number }[] = []
  const warnings = (text: string) => lines.filter((l) => l.level === 40 && l.msg.includes(text))
  const open: PushInbox[] = []

  beforeAll(async () => {
    t = await createTestApp(sqlite!, {
      env: 'production',
      push: { limits: { maxConnectionsPerIp: 1 } },
      logger: {
        level: 'warn',
        stream: { write: (line: string) => void lines.push(JSON.parse(line) as never) },
      },
    })
    base = await listen(t.app)
  })
  afterAll(async () => {
    for (const { socket } of open) socket.terminate()
    await t.close()
  })

  it('warns once that X-Forwarded-For arrives while TRUST_PROXY is off', async () => {
    const viaProxy = { headers: { 'x-forwarded-for': '203.0.113.7' } }
    open.push(await openPush(base, viaProxy))
    await expect(openPush(base, viaProxy)).rejects.toThrow('Unexpected server response: 429')
    expect(warnings('TRUST_PROXY is off')).toHaveLength(1)
  })

  it('logs a refused upgrade at warn, at most once a minute per address and reason', async () => {
    const before = warnings('upgrade refused').length
    for (let i = 0; i < 5; i++) {
      await expect(openPush(base)).rejects.toThrow('Unexpected server response: 429')
      await expect(openPush(base, { origin: 'https://evil.example' })).rejects.toThrow(
        'Unexpected server response: 403',
      )
    }
    // This address's 429 line for the minute went out in the test above; the 403 gets its own.
    const refused = warnings('upgrade refused').slice(before)
    expect(refused.map((l) => l.status)).toEqual([403])
    expect(refused[0]).toMatchObject({ ip: '127.0.0.1', status: 403, skipped: 0 })

    t.clock.advance(60_000)
    await expect(openPush(base)).rejects.toThrow('Unexpected server response: 429')
    expect(warnings('upgrade refused').slice(before).at(-1)).toMatchObject({
      status: 429,
      skipped: 5,
    })
  })
})
