import { COOKIE } from '@numisma/contracts/cookies'
import { HEADER, xSign } from '@numisma/contracts/signing'
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createTestApp,
  nextMobile,
  type Session,
  type SignedCall,
  type TestApp,
} from './helpers/app'
import { persistentDatabase, testDatabases } from './helpers/databases'
import { balanceOf, fundBalance } from './helpers/payments'

/**
 * Issue 15 (deliverable 4): the request signature of DESIGN §3 and ADR 003 under attack — each
 * signed header tampered, stale and replayed requests, a signature moved to another path, and a
 * session pair without its `sid` (stolen from the readable cookies) or after sign-out. The happy
 * paths and the basic refusals are in signing.test.ts; replay across a restart and instances in
 * nonce-replay.test.ts.
 */
const databases = await testDatabases()

const statistics: SignedCall = { method: 'GET', path: '/user/@statistics' }

const without = (headers: Record<string, string>, name: string) =>
  Object.fromEntries(Object.entries(headers).filter(([key]) => key !== name))

/** Swaps the last character of a base64 HMAC for another valid one. */
const flipLast = (authorization: string) =>
  authorization.replace(/(.)(=*)$/, (_m, c: string, pad: string) => (c === 'A' ? 'B' : 'A') + pad)

describe.each(databases)('request signature under attack on $name', (kind) => {
  let t: TestApp
  let alice: Session
  let bob: Session

  beforeAll(async () => {
    t = await createTestApp(kind)
    alice = await t.signIn()
    bob = await t.signIn()
  })
  afterAll(() => t.close())

  const send = (
    headers: Record<string, string>,
    as: Session | null = alice,
    path = statistics.path,
  ) =>
    t.inject({
      method: 'GET',
      url: `/svc/main${path}`,
      headers,
      cookies: as ? { [COOKIE.sid]: as.sid } : {},
    })

  /** Each signed header, tampered, and the code it must answer. */
  const tampered: {
    name: string
    tamper: (h: Record<string, string>) => Record<string, string>
    code: string
  }[] = [
    {
      name: 'Authorization HMAC',
      tamper: (h) => ({ ...h, authorization: flipLast(h.authorization!) }),
      code: 'SIGNATURE_INVALID',
    },
    {
      name: 'X-Sign',
      tamper: (h) => ({
        ...h,
        [HEADER.sign]: xSign(h[HEADER.nonce]!, h[HEADER.timestamp]!, 'guessed'),
      }),
      code: 'SIGNATURE_INVALID',
    },
    {
      name: 'X-Timestamp (1 ms later, X-Sign kept)',
      tamper: (h) => ({ ...h, [HEADER.timestamp]: String(Number(h[HEADER.timestamp]) + 1) }),
      code: 'SIGNATURE_INVALID',
    },
    {
      name: 'X-Nonce (fresh, X-Sign kept)',
      tamper: (h) => ({ ...h, [HEADER.nonce]: randomUUID() }),
      code: 'SIGNATURE_INVALID',
    },
    {
      name: 'X-App-Id (the public pair’s)',
      tamper: (h) => ({ ...h, [HEADER.appId]: t.apps.h5.id }),
      code: 'SIGNATURE_INVALID',
    },
    {
      name: 'X-App-Id (with Authorization’s app id too)',
      tamper: (h) => ({
        ...h,
        [HEADER.appId]: 's_forged',
        authorization: h.authorization!.replace(/^ZHAO [^:]+:/, 'ZHAO s_forged:'),
      }),
      code: 'SESSION_INVALID',
    },
    {
      name: 'X-Device-Id',
      tamper: (h) => ({ ...h, [HEADER.deviceId]: 'another-phone' }),
      code: 'SIGNATURE_INVALID',
    },
    {
      name: 'X-User-Id',
      tamper: (h) => ({ ...h, [HEADER.userId]: bob.userId }),
      code: 'SESSION_INVALID',
    },
  ]

  it.each(tampered)(
    'refuses a tampered $name with 401 $code, and burns no nonce',
    async ({ tamper, code }) => {
      const genuine = t.sign({ ...statistics, as: alice })
      const res = await send(tamper(genuine))
      expect(res.statusCode).toBe(401)
      expect(res.json()).toEqual({ code, message: expect.any(String) })
      // The genuine request, sent after the forgery, still goes through once.
      expect((await send(genuine)).statusCode).toBe(200)
      expect((await send(genuine)).json().code).toBe('NONCE_REPLAYED')
    },
  )

  it.each([
    HEADER.authorization,
    HEADER.sign,
    HEADER.timestamp,
    HEADER.nonce,
    HEADER.appId,
    HEADER.deviceId,
  ])('refuses a request without %s (SIGNATURE_MISSING)', async (name) => {
    const headers = without(t.sign({ ...statistics, as: alice }), name)
    const res = await send(headers)
    expect(res.statusCode).toBe(401)
    expect(res.json().code).toBe('SIGNATURE_MISSING')
  })

  it('refuses a session call without X-User-Id (SESSION_INVALID)', async () => {
    const headers = without(t.sign({ ...statistics, as: alice }), HEADER.userId)
    expect((await send(headers)).json().code).toBe('SESSION_INVALID')
  })

  it('accepts a timestamp 299 s off either way and refuses 301 s (TIMESTAMP_EXPIRED)', async () => {
    for (const [offset, status] of [
      [299_000, 200],
      [-299_000, 200],
      [301_000, 401],
      [-301_000, 401],
    ] as const) {
      const headers = t.sign({ ...statistics, as: alice })
      t.clock.advance(offset)
      try {
        const res = await send(headers)
        expect({ offset, status: res.statusCode }).toEqual({ offset, status })
        if (status === 401) expect(res.json().code).toBe('TIMESTAMP_EXPIRED')
      } finally {
        t.clock.advance(-offset)
      }
    }
  })

  it('refuses a replayed request, also for a money call, and does not run it twice', async () => {
    const move = { method: 'PATCH' as const, path: `/user/${alice.userId}/@finance` }
    const headers = t.sign({ ...move, as: alice })
    const call = () =>
      t.inject({
        method: 'PATCH',
        url: `/svc/main${move.path}`,
        headers,
        cookies: { [COOKIE.sid]: alice.sid },
        payload: { amount: 0 },
      })
    const first = await call()
    expect(first.statusCode).not.toBe(401)
    const replay = await call()
    expect(replay.statusCode).toBe(401)
    expect(replay.json().code).toBe('NONCE_REPLAYED')
  })

  it('refuses a signature made for one path on another, and for one service on the other', async () => {
    const forNotices = t.sign({ method: 'GET', path: '/user/notices', as: alice })
    const elsewhere = await send(forNotices)
    expect(elsewhere.statusCode).toBe(401)
    expect(elsewhere.json().code).toBe('SIGNATURE_INVALID')
    // The same path under another id.
    const forOrder1 = t.sign({ method: 'GET', path: '/user/order/1', as: alice })
    const order2 = await send(forOrder1, alice, '/user/order/2')
    expect(order2.json().code).toBe('SIGNATURE_INVALID')
    // Search's pair is not the main service's.
    const search = t.sign({ method: 'GET', path: '/user/@statistics', service: 'search' })
    expect((await send(search, null)).json().code).toBe('APP_UNKNOWN')
  })

  it('refuses a stolen key without the sid cookie, or with another session’s', async () => {
    const stolen = await send(t.sign({ ...statistics, as: alice }), null)
    expect(stolen.statusCode).toBe(401)
    expect(stolen.json().code).toBe('SESSION_INVALID')
    const withBobs = await send(t.sign({ ...statistics, as: alice }), bob)
    expect(withBobs.statusCode).toBe(401)
    expect(withBobs.json().code).toBe('SESSION_INVALID')
    // Bob's own sid and user id with Alice's pair: still not Alice's session.
    const asBob = await send(t.sign({ ...statistics, as: { ...alice, userId: bob.userId } }), bob)
    expect(asBob.json().code).toBe('SESSION_INVALID')
  })

  it('refuses a captured request replayed under a fresh nonce without the sid (ADR 003’s limit)', async () => {
    // The canonical string covers neither query nor body, and X-Sign's secret is public: whoever
    // captures Authorization can re-nonce it and send another body. Only the HttpOnly sid stops it.
    const move = { method: 'PATCH' as const, path: `/user/${alice.userId}/@finance` }
    const captured = t.sign({ ...move, as: alice })
    const nonce = randomUUID()
    const timestamp = String(t.clock.now())
    const renonced = {
      ...captured,
      [HEADER.nonce]: nonce,
      [HEADER.timestamp]: timestamp,
      [HEADER.sign]: xSign(nonce, timestamp, t.apps.signSecret),
    }
    const res = await t.inject({
      method: 'PATCH',
      url: `/svc/main${move.path}`,
      headers: renonced,
      payload: { amount: 1 },
    })
    expect(res.statusCode).toBe(401)
    expect(res.json().code).toBe('SESSION_INVALID')
  })

  it('refuses a signed-out session’s pair, even with its sid', async () => {
    const carol = await t.signIn()
    expect((await t.call({ ...statistics, as: carol })).statusCode).toBe(200)
    const out = await t.call({ method: 'POST', path: '/passport/logout', as: carol })
    expect(out.statusCode).toBe(200)
    const after = await t.call({ ...statistics, as: carol })
    expect(after.statusCode).toBe(401)
    expect(after.json().code).toBe('SESSION_INVALID')
  })
})

describe.each(databases)('sign-in cookies on $name', (kind) => {
  let t: TestApp

  beforeAll(async () => {
    // The proxy by its address (inject comes from 127.0.0.1); the hop count form is tested below.
    t = await createTestApp(kind, { trustProxy: '127.0.0.1' })
  })
  afterAll(() => t.close())

  const signInCookies = async (headers: Record<string, string> = {}) => {
    const mobile = `137${String(Date.now()).slice(-8)}`
    const sms = await t.call({ method: 'POST', path: '/passport/sms', body: { mobile }, headers })
    expect(sms.statusCode, sms.body).toBe(200)
    const login = await t.call({
      method: 'POST',
      path: '/passport/login',
      body: { mobile, code: t.sms.lastCodeFor(mobile), agreement: true },
      headers,
    })
    expect(login.statusCode, login.body).toBe(200)
    return new Map(login.cookies.map((c) => [c.name, c]))
  }

  const readable = [
    COOKIE.id,
    COOKIE.key,
    COOKIE.userId,
    COOKIE.display,
    COOKIE.mobile,
    COOKIE.agreement,
    COOKIE.loginTime,
  ]

  it('sets sid HttpOnly, SameSite=Lax, Path=/; the spec’s cookies readable by the page', async () => {
    const cookies = await signInCookies()
    expect(cookies.get(COOKIE.sid)).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' })
    expect(cookies.get(COOKIE.sid)?.secure).toBeFalsy()
    for (const name of readable) {
      expect(cookies.get(name), name).toMatchObject({ sameSite: 'Lax', path: '/' })
      expect(cookies.get(name)?.httpOnly, name).toBeFalsy()
    }
  })

  it('marks every cookie Secure behind a trusted https proxy', async () => {
    const cookies = await signInCookies({ 'x-forwarded-proto': 'https' })
    for (const name of [COOKIE.sid, ...readable])
      expect(cookies.get(name), name).toMatchObject({ secure: true })
    expect(cookies.get(COOKIE.sid)).toMatchObject({ httpOnly: true })
  })

  it('marks them Secure behind a proxy given as a hop count too (TRUST_PROXY=1)', async () => {
    const hops = await createTestApp(kind, { trustProxy: 1 })
    try {
      const mobile = nextMobile()
      const headers = { 'x-forwarded-proto': 'https' }
      await hops.call({ method: 'POST', path: '/passport/sms', body: { mobile }, headers })
      const login = await hops.call({
        method: 'POST',
        path: '/passport/login',
        body: { mobile, code: hops.sms.lastCodeFor(mobile), agreement: true },
        headers,
      })
      expect(login.cookies.find((c) => c.name === COOKIE.sid)).toMatchObject({
        secure: true,
        httpOnly: true,
      })
    } finally {
      await hops.close()
    }
  })

  it('sets the staff cookie HttpOnly and Secure over https too', async () => {
    const { staffCaller } = await import('./helpers/mall-orders')
    await staffCaller(t)
    const login = await t.inject({
      method: 'POST',
      url: '/svc/main/admin/login',
      headers: { 'x-forwarded-proto': 'https' },
      payload: { username: 'admin', password: 'staff-test-password' },
    })
    const staff = login.cookies.find((c) => c.name === COOKIE.staffSid)
    expect(staff).toMatchObject({ httpOnly: true, secure: true })
    expect(['Lax', 'Strict']).toContain(staff?.sameSite)
  })
})

describe.each(databases)('a captured money request replayed after a restart on $name', (kind) => {
  it('is refused by the restarted server, and the money moves once', async () => {
    const database = await persistentDatabase(kind)
    let t = await createTestApp(database)
    try {
      const alice = await t.signIn()
      await fundBalance(t, alice.userId, 10_000)
      const path = `/user/${alice.userId}/@finance`
      const captured = t.sign({ method: 'PATCH', path, as: alice })
      const send = (app: TestApp) =>
        app.inject({
          method: 'PATCH',
          url: `/svc/main${path}`,
          headers: captured,
          cookies: { [COOKIE.sid]: alice.sid },
          payload: { amount: 1_000 },
        })
      expect((await send(t)).statusCode).toBe(200)
      const now = t.clock.now()
      await t.close()
      t = await createTestApp(database)
      t.clock.set(now)
      const replay = await send(t)
      expect(replay.statusCode).toBe(401)
      expect(replay.json().code).toBe('NONCE_REPLAYED')
      expect(await balanceOf(t, alice.userId)).toBe(9_000)
      expect(await balanceOf(t, alice.userId, 'deposit')).toBe(1_000)
    } finally {
      await t.close()
      await database.dispose()
    }
  })
})
