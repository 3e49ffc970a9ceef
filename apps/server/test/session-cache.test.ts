import { COOKIE } from '@numisma/contracts/cookies'
import { PUSH_CLOSE_POLICY } from '@numisma/contracts/push'
import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest'
import { PassportRepository } from '../src/modules/passport/repository'
import type { EventBus, PushEvent, RedisEventBus } from '../src/platform/event-bus'
import { createTestApp, type Session, type SignedCall, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { startTwoInstances, type TwoInstances } from './helpers/instances'
import { staffCaller } from './helpers/mall-orders'
import { redisAvailable } from './helpers/redis'
import type { RedisRelay } from './helpers/redis-relay'
import { appWithRelayedBus } from './helpers/relayed-bus'
import { watchSocket } from './helpers/watched-socket'

/**
 * ADR 035: signed-in calls check their session's credentials from memory. One query per session,
 * not per request; a logout refuses the session at once on its instance and, through the bus,
 * on the others.
 */
const databases = await testDatabases()
const postgres = databases.find((d) => d.name === 'postgres')
const withRedis = await redisAvailable()
const statistics = (as: Session): SignedCall => ({ method: 'GET', path: '/user/@statistics', as })

let lookups: MockInstance<PassportRepository['findSession']>
beforeAll(() => {
  lookups = vi.spyOn(PassportRepository.prototype, 'findSession')
})
afterEach(() => lookups.mockClear())
afterAll(() => lookups.mockRestore())

/** A bus that keeps what is published and delivers nothing, as if every message were lost. */
class DeafBus implements EventBus {
  readonly published: PushEvent[] = []
  publish(event: PushEvent): void {
    this.published.push(event)
  }
  subscribe(): () => void {
    return () => undefined
  }
  close(): Promise<void> {
    return Promise.resolve()
  }
}

describe.each(databases)('session credentials cached on $name', (kind) => {
  let t: TestApp
  let bus: DeafBus

  beforeAll(async () => {
    bus = new DeafBus()
    t = await createTestApp(kind, { bus })
  })
  afterAll(() => t.close())

  it('asks the database once for N signed requests of one session', async () => {
    const user = await t.signIn()
    for (let i = 0; i < 20; i++) expect((await t.call(statistics(user))).statusCode).toBe(200)
    // Concurrent requests of a session not yet cached share one query.
    const other = await t.signIn()
    const answers = await Promise.all(Array.from({ length: 10 }, () => t.call(statistics(other))))
    expect(answers.map((r) => r.statusCode)).toEqual(Array(10).fill(200))
    expect(lookups.mock.calls.map(([id]) => id)).toEqual([user.id, other.id])
  })

  it('refuses the session at once after its logout, with no bus delivering anything', async () => {
    const user = await t.signIn()
    expect((await t.call(statistics(user))).statusCode).toBe(200)
    const out = await t.call({ method: 'POST', path: '/passport/logout', as: user })
    expect(out.statusCode).toBe(200)
    const after = await t.call(statistics(user))
    expect(after.statusCode).toBe(401)
    expect(after.json().code).toBe('SESSION_INVALID')
    expect(bus.published).toContainEqual({ type: 'session_revoked', sessionId: user.id })
  })

  it('accepts a session opened after a refused lookup of it (no miss is kept)', async () => {
    const user = await t.signIn()
    const unknown = { ...user, id: 's_notasessionyet00000' }
    expect((await t.call(statistics(unknown))).json().code).toBe('SESSION_INVALID')
    expect((await t.call(statistics(unknown))).json().code).toBe('SESSION_INVALID')
    expect(lookups.mock.calls.filter(([id]) => id === unknown.id)).toHaveLength(2)
  })

  it('reads the session again after the TTL: a revocation no event told of ends it', async () => {
    const user = await t.signIn()
    expect((await t.call(statistics(user))).statusCode).toBe(200)
    await t.database.db
      .updateTable('sessions')
      .set({ revoked_at: t.clock.now() })
      .where('id', '=', user.id)
      .execute()
    t.clock.advance(30_000)
    expect((await t.call(statistics(user))).json().code).toBe('SESSION_INVALID')
  })
})

describe.runIf(postgres && withRedis)(
  'session credentials on two instances (PostgreSQL + Redis)',
  () => {
    let both: TwoInstances

    beforeAll(async () => {
      both = await startTwoInstances(postgres!)
    })
    afterAll(() => both.close())

    const callB = (b: FastifyInstance, a: TestApp, user: Session) =>
      b.inject({
        method: 'GET',
        url: `/svc/main/user/@statistics`,
        headers: a.sign(statistics(user)),
        cookies: { [COOKIE.sid]: user.sid },
      })

    it('a logout on A is refused on B within 200 ms, and closes its sockets on B', async () => {
      const { a, b } = both
      const user = await a.signIn()
      const other = await a.signIn()
      expect((await callB(b, a, user)).statusCode).toBe(200)
      expect((await callB(b, a, user)).statusCode).toBe(200)
      // B answered the second from memory.
      expect(lookups.mock.calls.filter(([id]) => id === user.id)).toHaveLength(1)
      await staffCaller(a)
      const staffLogin = await b.inject({
        method: 'POST',
        url: '/svc/main/admin/login',
        payload: { username: 'admin', password: 'staff-test-password' },
      })
      const staffSid = staffLogin.cookies.find((c) => c.name === 'staff_sid')!.value
      const mine = [
        await watchSocket(b, '/svc/push/ws', `sid=${user.sid}`),
        await watchSocket(b, '/svc/push/chat', `sid=${user.sid}`),
      ]
      // Another collector's sockets and a staff socket, which the revocation must leave alone.
      const others = [
        await watchSocket(b, '/svc/push/ws', `sid=${other.sid}`),
        await watchSocket(b, '/svc/push/chat', `sid=${other.sid}`),
        await watchSocket(b, '/svc/main/admin/chat/ws', `staff_sid=${staffSid}`),
      ]

      expect(
        (await a.call({ method: 'POST', path: '/passport/logout', as: user })).statusCode,
      ).toBe(200)
      const loggedOutAt = performance.now()
      let answer = await callB(b, a, user)
      while (answer.statusCode === 200 && performance.now() - loggedOutAt < 1_000) {
        await new Promise((resolve) => setTimeout(resolve, 5))
        answer = await callB(b, a, user)
      }
      const refusedAfter = performance.now() - loggedOutAt
      expect(answer.statusCode).toBe(401)
      expect(answer.json().code).toBe('SESSION_INVALID')
      expect(refusedAfter).toBeLessThan(200)
      // The session's sockets on B are closed, having heard nothing but their hello.
      for (const socket of mine) {
        expect(await socket.closed()).toEqual({
          code: PUSH_CLOSE_POLICY,
          reason: 'SESSION_INVALID',
        })
        expect(socket.frames.map((f) => f.type)).toEqual(['hello'])
      }
      // The others stay open and hear nothing of the event: a ping answered is the barrier (the
      // event reached B's subscribers before the refusal above, and a socket's frames keep order).
      for (const socket of others) {
        await socket.pong()
        expect(socket.socket.readyState).toBe(socket.socket.OPEN)
        expect(socket.frames.map((f) => f.type)).toEqual(['hello', 'pong'])
        socket.socket.terminate()
      }
    })
  },
)

/**
 * Redis pub/sub is not durable: a revocation published while an instance's subscriber is away
 * never reaches it. The instance clears its cache once it hears the channel again (ADR 035).
 */
describe.runIf(withRedis).each(databases)(
  'session credentials across a Redis outage ($name)',
  (kind) => {
    let relayed: Awaited<ReturnType<typeof appWithRelayedBus>>
    let relay: RedisRelay
    let bus: RedisEventBus
    let t: TestApp

    beforeAll(async () => {
      relayed = await appWithRelayedBus(kind)
      ;({ relay, bus, t } = relayed)
    })
    afterAll(() => relayed.close())

    it('reads every session again once the bus is back, so a revocation it missed counts at once', async () => {
      const user = await t.signIn()
      expect((await t.call(statistics(user))).statusCode).toBe(200)
      await relay.stop()
      // Ended meanwhile by another instance, whose event this one cannot hear: only the table says.
      await t.database.db
        .updateTable('sessions')
        .set({ revoked_at: t.clock.now() })
        .where('id', '=', user.id)
        .execute()
      // Until the bus is back the cached entry is trusted (the TTL bounds it; the clock is still).
      expect((await t.call(statistics(user))).statusCode).toBe(200)
      const heardAgain = new Promise<void>((resolve) => {
        const stop = bus.onResubscribed(() => {
          stop()
          resolve()
        })
      })
      await relay.start()
      await within(heardAgain, 10_000, 'the bus did not report hearing its channel again')
      const after = await t.call(statistics(user))
      expect(after.statusCode).toBe(401)
      expect(after.json().code).toBe('SESSION_INVALID')
      // And the channel is heard: a revocation published now reaches the instance.
      const next = await t.signIn()
      expect((await t.call(statistics(next))).statusCode).toBe(200)
      const evicted = new Promise<void>((resolve) => {
        const stop = bus.subscribe((event) => {
          if (event.type === 'session_revoked' && event.sessionId === next.id) {
            stop()
            resolve()
          }
        })
      })
      bus.publish({ type: 'session_revoked', sessionId: next.id })
      await evicted
    })
  },
)

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(what)), ms).unref()),
  ])
}
