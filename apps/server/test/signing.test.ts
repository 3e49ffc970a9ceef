import { HEADER, xSign } from '@numisma/contracts/signing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'

const databases = await testDatabases()

describe.each(databases)('request signing on $name', (kind) => {
  let t: TestApp
  let user: Session

  beforeAll(async () => {
    t = await createTestApp(kind)
    user = await t.signIn()
  })
  afterAll(() => t.close())

  const statistics = { method: 'GET' as const, path: '/user/@statistics' }

  it('accepts a correctly signed call from a signed-in user', async () => {
    const res = await t.call({ ...statistics, as: user })
    expect(res.statusCode).toBe(200)
    expect(res.json().data.userId).toBe(user.userId)
  })

  it('refuses an unsigned call', async () => {
    const res = await t.inject({ method: 'GET', url: '/svc/main/user/@statistics' })
    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual({ code: 'SIGNATURE_MISSING', message: '请求未签名' })
  })

  it('answers in English when asked', async () => {
    const res = await t.inject({
      method: 'GET',
      url: '/svc/main/user/@statistics',
      headers: { 'accept-language': 'en-US,en;q=0.9' },
    })
    expect(res.json().message).toBe('the request is not signed')
  })

  it('refuses a wrong HMAC', async () => {
    const headers = t.sign({ ...statistics, as: user })
    const forged = headers.authorization!.replace(/.(=)$/, (m) => (m[0] === 'A' ? 'B=' : 'A='))
    const res = await t.call({ ...statistics, as: user, headers: { authorization: forged } })
    expect(res.statusCode).toBe(401)
    expect(res.json().code).toBe('SIGNATURE_INVALID')
  })

  it('refuses a request whose path, method or device differs from what was signed', async () => {
    const signed = t.sign({ method: 'GET', path: '/passport/logout', as: user })
    const otherPath = await t.inject({
      method: 'GET',
      url: '/svc/main/user/@statistics',
      headers: signed,
      cookies: { sid: user.sid },
    })
    expect(otherPath.json().code).toBe('SIGNATURE_INVALID')

    const post = t.sign({ method: 'POST', ...{ path: statistics.path }, as: user })
    const otherMethod = await t.inject({
      method: 'GET',
      url: '/svc/main/user/@statistics',
      headers: post,
      cookies: { sid: user.sid },
    })
    expect(otherMethod.json().code).toBe('SIGNATURE_INVALID')

    const otherDevice = await t.call({
      ...statistics,
      as: user,
      headers: { [HEADER.deviceId]: 'another-phone' },
    })
    expect(otherDevice.json().code).toBe('SIGNATURE_INVALID')
  })

  it('ignores the query string when signing', async () => {
    const res = await t.call({ method: 'GET', path: '/user/@statistics?x=1&y=%E8%A2%81', as: user })
    expect(res.statusCode).toBe(200)
  })

  it('refuses a wrong X-Sign', async () => {
    const headers = t.sign({ ...statistics, as: user })
    const res = await t.call({
      ...statistics,
      as: user,
      headers: {
        [HEADER.sign]: xSign(headers[HEADER.nonce]!, headers[HEADER.timestamp]!, 'guess'),
      },
    })
    expect(res.json().code).toBe('SIGNATURE_INVALID')
  })

  it('refuses a request older or newer than 300 s, accepts one at the edge', async () => {
    const headers = t.sign({ ...statistics, as: user })
    t.clock.advance(300_001)
    try {
      const stale = await t.call({ ...statistics, as: user, headers })
      expect(stale.statusCode).toBe(401)
      expect(stale.json().code).toBe('TIMESTAMP_EXPIRED')
    } finally {
      t.clock.advance(-300_001)
    }
    const future = t.sign({ ...statistics, as: user })
    t.clock.advance(-300_001)
    try {
      expect((await t.call({ ...statistics, as: user, headers: future })).json().code).toBe(
        'TIMESTAMP_EXPIRED',
      )
    } finally {
      t.clock.advance(300_001)
    }
    const edge = t.sign({ ...statistics, as: user })
    t.clock.advance(300_000)
    try {
      expect((await t.call({ ...statistics, as: user, headers: edge })).statusCode).toBe(200)
    } finally {
      t.clock.advance(-300_000)
    }
  })

  it('refuses a replayed request', async () => {
    const headers = t.sign({ ...statistics, as: user })
    const first = await t.call({ ...statistics, as: user, headers })
    const replay = await t.call({ ...statistics, as: user, headers })
    expect(first.statusCode).toBe(200)
    expect(replay.statusCode).toBe(401)
    expect(replay.json().code).toBe('NONCE_REPLAYED')
  })

  it('does not let a forged request burn a genuine nonce', async () => {
    const headers = t.sign({ ...statistics, as: user })
    const forged = await t.call({
      ...statistics,
      as: user,
      headers: { ...headers, authorization: headers.authorization!.replace('ZHAO s_', 'ZHAO s_x') },
    })
    expect(forged.statusCode).toBe(401)
    expect((await t.call({ ...statistics, as: user, headers })).statusCode).toBe(200)
  })

  it('refuses unknown app ids and the search pair on the main service', async () => {
    const unknown = await t.call({ ...statistics, as: { ...user, id: 'stranger' } })
    expect(unknown.json().code).toBe('APP_UNKNOWN')
    const searchPair = await t.call({
      method: 'GET',
      path: '/user/@statistics',
      as: { ...user, id: t.apps.search.id, key: t.apps.search.key },
    })
    expect(searchPair.json().code).toBe('APP_UNKNOWN')
  })

  it('binds a session pair to its user id and sid cookie', async () => {
    const other = await t.signIn()
    const noSid = await t.app.inject({
      method: 'GET',
      url: '/svc/main/user/@statistics',
      headers: t.sign({ ...statistics, as: user }),
    })
    expect(noSid.json().code).toBe('SESSION_INVALID')

    const wrongUser = await t.call({ ...statistics, as: { ...user, userId: other.userId } })
    expect(wrongUser.json().code).toBe('SESSION_INVALID')

    const stolenKey = await t.call({ ...statistics, as: { ...user, sid: other.sid } })
    expect(stolenKey.json().code).toBe('SESSION_INVALID')
  })

  it('treats the public H5 pair as anonymous even with a user id header', async () => {
    const res = await t.call({ ...statistics, headers: { [HEADER.userId]: user.userId } })
    expect(res.statusCode).toBe(401)
    expect(res.json().code).toBe('UNAUTHENTICATED')
  })

  it('refuses malformed timestamps and oversized headers', async () => {
    const bad = await t.call({
      ...statistics,
      as: user,
      headers: { [HEADER.timestamp]: 'yesterday' },
    })
    expect(bad.json().code).toBe('SIGNATURE_INVALID')
    const huge = await t.call({
      ...statistics,
      as: user,
      headers: { [HEADER.nonce]: 'n'.repeat(65) },
    })
    expect(huge.json().code).toBe('SIGNATURE_INVALID')
  })

  it('signs the search service with its own pair', async () => {
    const res = await t.call({ method: 'GET', path: '/nothing-here', service: 'search' })
    expect(res.statusCode).toBe(404)
    const h5OnSearch = await t.call({
      method: 'GET',
      path: '/nothing-here',
      service: 'search',
      as: { ...user, id: t.apps.h5.id, key: t.apps.h5.key, userId: '' },
    })
    expect(h5OnSearch.json().code).toBe('APP_UNKNOWN')
  })
})
