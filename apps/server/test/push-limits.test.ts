import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestApp, type TestApp } from './helpers/app'
import { createLot } from './helpers/auction'
import { testDatabases } from './helpers/databases'
import { listen, openPush, type PushInbox } from './helpers/push-client'

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
      trustProxy: true,
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

  it('serialises a lot update once, however many sockets follow the lot (it runs inside the bid)', async () => {
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
