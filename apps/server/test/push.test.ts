import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { createLot, creditDeposit } from './helpers/auction'
import { testDatabases } from './helpers/databases'

const [sqlite] = await testDatabases()
const YUAN = 100

/** Collects a socket's messages so a test can wait for the one it expects. */
function inbox(socket: { on(event: 'message', listener: (data: Buffer) => void): unknown }) {
  const messages: Record<string, unknown>[] = []
  socket.on('message', (data: Buffer) =>
    messages.push(JSON.parse(data.toString()) as Record<string, unknown>),
  )
  return {
    messages,
    async waitFor(match: (m: Record<string, unknown>) => boolean, timeoutMs = 3000) {
      const deadline = Date.now() + timeoutMs
      while (Date.now() < deadline) {
        const found = messages.find(match)
        if (found) return found
        await new Promise((r) => setTimeout(r, 10))
      }
      throw new Error(`no matching message; got ${JSON.stringify(messages)}`)
    },
  }
}

describe('push role (/svc/push/ws)', () => {
  let t: TestApp
  let alice: Session
  let bob: Session

  beforeAll(async () => {
    t = await createTestApp(sqlite!)
    alice = await t.signIn()
    bob = await t.signIn()
    for (const u of [alice, bob]) await creditDeposit(t, u.userId, 100_000 * YUAN)
  })
  afterAll(() => t.close())

  const connect = (as?: Session) =>
    t.app.injectWS('/svc/push/ws', { headers: as ? { cookie: `sid=${as.sid}` } : {} })

  it('sends a snapshot on subscribe, then every change, to anonymous watchers too', async () => {
    const lotId = await createLot(t)
    const socket = await connect()
    const box = inbox(socket)
    socket.send(JSON.stringify({ type: 'subscribe', lotIds: [lotId] }))
    await box.waitFor((m) => m.type === 'lot' && m.lotId === lotId && m.bidCount === 0)
    await t.call({
      method: 'POST',
      path: '/bidding/bid',
      as: alice,
      body: { lotId, amount: 1_000 * YUAN, proxy: false },
    })
    const update = await box.waitFor((m) => m.type === 'lot' && m.bidCount === 1)
    expect(update).toMatchObject({ lotId, price: 1_000 * YUAN, status: 'live' })
    expect(update.leader).toMatch(/^.\*\*\*.$/)
    socket.terminate()
  })

  it('tells the outbid user, and only them', async () => {
    const lotId = await createLot(t)
    const aliceSocket = await connect(alice)
    const bobSocket = await connect(bob)
    const aliceBox = inbox(aliceSocket)
    const bobBox = inbox(bobSocket)
    // The snapshot after subscribing shows the server has set the connection up.
    for (const [socket, box] of [
      [aliceSocket, aliceBox],
      [bobSocket, bobBox],
    ] as const) {
      socket.send(JSON.stringify({ type: 'subscribe', lotIds: [lotId] }))
      await box.waitFor((m) => m.type === 'lot' && m.lotId === lotId)
    }
    await t.call({
      method: 'POST',
      path: '/bidding/bid',
      as: alice,
      body: { lotId, amount: 1_000 * YUAN, proxy: false },
    })
    await t.call({
      method: 'POST',
      path: '/bidding/bid',
      as: bob,
      body: { lotId, amount: 1_100 * YUAN, proxy: false },
    })
    expect(await aliceBox.waitFor((m) => m.type === 'outbid')).toEqual({
      type: 'outbid',
      lotId,
      price: 1_100 * YUAN,
    })
    await new Promise((r) => setTimeout(r, 50))
    expect(bobBox.messages.filter((m) => m.type === 'outbid')).toEqual([])
    aliceSocket.terminate()
    bobSocket.terminate()
  })

  it('does not send lots nobody subscribed to, and refuses junk', async () => {
    const lotId = await createLot(t)
    const socket = await connect()
    const box = inbox(socket)
    socket.send('not json')
    await box.waitFor((m) => m.type === 'error' && m.code === 'VALIDATION_FAILED')
    socket.send(JSON.stringify({ type: 'subscribe', lotIds: ['x'] }))
    await box.waitFor(
      (m) => m.type === 'error' && box.messages.filter((x) => x.type === 'error').length === 2,
    )
    await t.call({
      method: 'POST',
      path: '/bidding/bid',
      as: alice,
      body: { lotId, amount: 1_000 * YUAN, proxy: false },
    })
    await new Promise((r) => setTimeout(r, 50))
    expect(box.messages.filter((m) => m.type === 'lot')).toEqual([])
    socket.terminate()
  })
})
