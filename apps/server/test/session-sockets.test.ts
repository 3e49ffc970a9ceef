import { PUSH_CLOSE_POLICY } from '@numisma/contracts/push'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { stillOpen, watchSocket } from './helpers/watched-socket'

/**
 * ADR 035: a collector's push and chat sockets check their session once, when they open. A logout
 * closes that session's sockets (1008), or the chat socket would go on carrying the conversation.
 */
describe.each(await testDatabases())('a logout closes its session’s sockets ($name)', (kind) => {
  let t: TestApp

  beforeAll(async () => {
    t = await createTestApp(kind)
  })
  afterAll(() => t.close())

  const sockets = async (as: Session) => ({
    push: await watchSocket(t.app, '/svc/push/ws', `sid=${as.sid}`),
    chat: await watchSocket(t.app, '/svc/push/chat', `sid=${as.sid}`),
  })

  it('closes the push and chat sockets of that session only, with 1008', async () => {
    const alice = await t.signIn()
    // The same collector on a second device: a session of its own, which stays.
    t.clock.advance(120_000)
    const aliceElsewhere = await t.signIn(alice.mobile)
    const bob = await t.signIn()
    const mine = await sockets(alice)
    const elsewhere = await sockets(aliceElsewhere)
    const others = await sockets(bob)
    expect(mine.push.frames[0]).toEqual({ type: 'hello', userId: Number(alice.userId) })

    const out = await t.call({ method: 'POST', path: '/passport/logout', as: alice })
    expect(out.statusCode).toBe(200)
    const reason = 'SESSION_INVALID'
    expect(await mine.push.closed()).toEqual({ code: PUSH_CLOSE_POLICY, reason })
    expect(await mine.chat.closed()).toEqual({ code: PUSH_CLOSE_POLICY, reason })
    // Nothing but their hello came before the close: the event itself is never sent.
    expect(mine.push.frames.map((f) => f.type)).toEqual(['hello'])
    expect(mine.chat.frames.map((f) => f.type)).toEqual(['hello'])

    for (const s of [elsewhere.push, elsewhere.chat, others.push, others.chat]) {
      expect(await stillOpen(s)).toBe(true)
      expect(s.frames.map((f) => f.type)).toEqual(['hello', 'pong'])
    }

    // The page opens them again: the chat is refused, the push socket is anonymous.
    const refused = new Promise<[number, string]>((resolve, reject) => {
      t.app
        .injectWS(
          '/svc/push/chat',
          { headers: { cookie: `sid=${alice.sid}` } },
          { onInit: (ws) => ws.on('close', (code, why) => resolve([code, why.toString()])) },
        )
        .catch(reject)
    })
    expect(await refused).toEqual([PUSH_CLOSE_POLICY, 'UNAUTHENTICATED'])
    const pushAgain = await watchSocket(t.app, '/svc/push/ws', `sid=${alice.sid}`)
    expect(pushAgain.frames[0]).toEqual({ type: 'hello', userId: null })

    for (const s of [elsewhere, others]) {
      s.push.socket.terminate()
      s.chat.socket.terminate()
    }
    pushAgain.socket.terminate()
  })
})
