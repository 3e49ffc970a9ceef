import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAIN_PREFIX } from '../src/app'
import { loadConfig } from '../src/platform/config'
import { createTestApp, nextMobile, type SignedCall, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'

/**
 * Issue 15 findings 3 and 4 (ADR 028): what an address's rate limits count. TRUST_PROXY=true took
 * the client-written leftmost X-Forwarded-For entry as the address, so a fresh spoofed value per
 * request bypassed every limit; and 30 requests refused by validation locked an address out of SMS
 * for an hour.
 */
const databases = await testDatabases()

const PROXY = '10.0.0.1'
const CLIENT = '203.0.113.7'
const randomIp = () =>
  Array.from({ length: 4 }, () => Math.floor(Math.random() * 254) + 1).join('.')

describe('TRUST_PROXY', () => {
  it('refuses true with a message that says what to give instead', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/hop count|number of proxies/)
  })

  it('takes a hop count, addresses or CIDRs, and nothing else', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1)
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false)
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false)
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.2' }).trustProxy).toBe(
      '10.0.0.0/8,192.168.1.2',
    )
    expect(loadConfig({ TRUST_PROXY: 'fd00::/8,loopback' }).trustProxy).toBe('fd00::/8,loopback')
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY/)
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/)
  })
})

describe.each(databases)('rate limits behind one proxy on $name', (kind) => {
  let t: TestApp

  beforeAll(async () => {
    t = await createTestApp(kind, {
      trustProxy: loadConfig({ TRUST_PROXY: '1' }).trustProxy,
      // The production limits.
      rateLimit: { sms: 5, smsPerCaller: 30, login: 20, staffLogin: 10 },
    })
  })
  afterAll(() => t.close())

  /** A request through the proxy from CLIENT, which wrote its own X-Forwarded-For first. */
  const viaProxy = (spoofed: string) => ({
    remoteAddress: PROXY,
    'x-forwarded-for': `${spoofed}, ${CLIENT}`,
  })

  it('spoofed X-Forwarded-For values do not multiply the staff sign-in allowance', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 15; i++) {
      const { remoteAddress, ...headers } = viaProxy(randomIp())
      const res = await t.inject({
        method: 'POST',
        url: `${MAIN_PREFIX}/admin/login`,
        remoteAddress,
        headers,
        payload: { username: 'admin', password: `guess-${i}` },
      })
      statuses.push(res.statusCode)
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true)
    expect(statuses.slice(10)).toEqual([429, 429, 429, 429, 429])
    // The limit is the client's, not the proxy's: another client behind it has its own.
    const other = await t.inject({
      method: 'POST',
      url: `${MAIN_PREFIX}/admin/login`,
      remoteAddress: PROXY,
      headers: { 'x-forwarded-for': `${randomIp()}, 203.0.113.8` },
      payload: { username: 'admin', password: 'guess' },
    })
    expect(other.statusCode).toBe(401)
  })

  it('nor the SMS allowance of the address', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 35; i++) {
      const { remoteAddress, ...spoof } = viaProxy(randomIp())
      const c: SignedCall = {
        method: 'POST',
        path: '/passport/sms',
        body: { mobile: nextMobile() },
      }
      const res = await t.inject({
        method: 'POST',
        url: `${MAIN_PREFIX}/passport/sms`,
        remoteAddress,
        headers: { ...t.sign(c), ...spoof },
        payload: c.body as object,
      })
      statuses.push(res.statusCode)
    }
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true)
    expect(statuses.slice(30)).toEqual([429, 429, 429, 429, 429])
    const c: SignedCall = { method: 'POST', path: '/passport/sms', body: { mobile: nextMobile() } }
    const other = await t.inject({
      method: 'POST',
      url: `${MAIN_PREFIX}/passport/sms`,
      remoteAddress: PROXY,
      headers: { ...t.sign(c), 'x-forwarded-for': '203.0.113.9' },
      payload: c.body as object,
    })
    expect(other.statusCode, other.body).toBe(200)
  })
})

describe.each(databases)('the SMS allowance of an address on $name', (kind) => {
  let t: TestApp

  beforeAll(async () => {
    t = await createTestApp(kind, { rateLimit: { sms: 5, smsPerCaller: 30 } })
  })
  afterAll(() => t.close())

  const sms = (body: unknown, remoteAddress: string) => {
    const c: SignedCall = { method: 'POST', path: '/passport/sms', body }
    return t.inject({
      method: 'POST',
      url: `${MAIN_PREFIX}/passport/sms`,
      remoteAddress,
      headers: t.sign(c),
      payload: body as object,
    })
  }

  it('is not spent by requests refused by validation', async () => {
    const address = '198.51.100.20'
    const invalid = [{ mobile: '123' }, { mobile: 13_800_000_000 }, {}, { mobile: 'x'.repeat(40) }]
    for (let i = 0; i < 30; i++) {
      const res = await sms(invalid[i % invalid.length], address)
      expect(res.statusCode).toBe(400)
    }
    const valid = await sms({ mobile: nextMobile() }, address)
    expect(valid.statusCode, valid.body).toBe(200)
  })

  it('is spent by valid requests: the 31st in an hour is refused', async () => {
    const address = '198.51.100.21'
    for (let i = 0; i < 30; i++) {
      expect((await sms({ mobile: nextMobile() }, address)).statusCode).toBe(200)
    }
    const refused = await sms({ mobile: nextMobile() }, address)
    expect(refused.statusCode).toBe(429)
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' })
  })
})
