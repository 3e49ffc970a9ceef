import { Writable } from 'node:stream'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { MP_PATHS } from '../src/modules/wechat/mp-protocol'
import { FakeClock } from '../src/platform/clock'
import { loadConfig } from '../src/platform/config'
import { appOptionsFromConfig } from '../src/server-options'
import { createTestApp, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { authorizeCode, getWxOpenId, injectedWechatMp } from './helpers/wechat'

/**
 * The options `npm start` builds from the environment (server.ts → appOptionsFromConfig): each
 * setting loadConfig reads must reach the app. The official account's settings once stopped at
 * server.ts, so production answered every messaging-app sign-in 503 "not configured".
 */
const databases = await testDatabases()

const productionEnv = {
  NUMISMA_ENV: 'production',
  SEED: 'none',
  WEB_DIST: '/nonexistent',
  LOG_LEVEL: 'silent',
  LOG_FORMAT: 'json',
  PAY_PASSWORD_PEPPER: 'test-pepper-of-sixteen-chars-or-more',
  WECHAT_MP_APPID: 'wx5f0c2a9d1e3b7c48',
  WECHAT_MP_SECRET: 'a7d3e9c1b5f2048e6d9c3b1a7f5e2d40',
  WECHAT_OAUTH_BASE: 'https://open.weixin.qq.com',
  WECHAT_API_BASE: 'https://api.weixin.qq.com',
  WECHAT_MP_SANDBOX: 'false',
} as const

/** The app as server.ts would build it from `env`, on a test database (createTestApp's helpers). */
function appFromEnv(kind: (typeof databases)[number], env: Record<string, string>) {
  const {
    database: _database,
    clock: _clock,
    ...options
  } = appOptionsFromConfig(loadConfig(env), {
    database: undefined as never,
    clock: new FakeClock(Date.now()),
  })
  return createTestApp(kind, options)
}

describe.each(databases)('options from the environment on $name', (kind) => {
  describe('production with the official account configured', () => {
    let t: TestApp
    beforeAll(async () => {
      t = await appFromEnv(kind, productionEnv)
    })
    afterAll(() => t.close())
    afterEach(() => vi.restoreAllMocks())

    it('tells the page the real account and authorize page', async () => {
      const res = await t.inject({ method: 'GET', url: '/svc/client-config' })
      expect(res.json().data.wechat).toEqual({
        appId: productionEnv.WECHAT_MP_APPID,
        authorizeUrl: `https://open.weixin.qq.com${MP_PATHS.authorize}`,
      })
    })

    it('does not mount the platform sandbox', async () => {
      const res = await t.inject({ method: 'GET', url: `/svc/sandbox/wx${MP_PATHS.authorize}` })
      expect(res.statusCode).toBe(404)
    })

    it('exchanges a code with the configured API base and account', async () => {
      const asked: string[] = []
      vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
        asked.push(input instanceof Request ? input.url : input.toString())
        return new Response(JSON.stringify({ errcode: 40029, errmsg: 'invalid code' }))
      })
      const res = await getWxOpenId(t, 'code-from-the-real-platform')
      expect(res.json()).toMatchObject({ code: 'WX_CODE_INVALID' })
      expect(asked).toHaveLength(1)
      const url = new URL(asked[0]!)
      expect(`${url.origin}${url.pathname}`).toBe(
        `https://api.weixin.qq.com${MP_PATHS.webAccessToken}`,
      )
      expect(url.searchParams.get('appid')).toBe(productionEnv.WECHAT_MP_APPID)
    })
  })

  describe('sign-in codes per address (SMS_PER_ADDRESS_PER_HOUR)', () => {
    let t: TestApp
    beforeAll(async () => {
      t = await appFromEnv(kind, {
        WEB_DIST: '/nonexistent',
        LOG_LEVEL: 'silent',
        SMS_PER_ADDRESS_PER_HOUR: '2',
      })
    })
    afterAll(() => t.close())

    it('refuses the address its next code once it has had that many, whatever the numbers', async () => {
      const send = (mobile: string) =>
        t.call({ method: 'POST', path: '/passport/sms', body: { mobile } })
      expect((await send('13900000001')).statusCode).toBe(200)
      expect((await send('13900000002')).statusCode).toBe(200)
      const third = await send('13900000003')
      expect(third.statusCode).toBe(429)
      expect(third.json()).toMatchObject({ code: 'RATE_LIMITED' })
    })
  })

  describe('staff sign-ins per address (STAFF_LOGINS_PER_WINDOW)', () => {
    let t: TestApp
    beforeAll(async () => {
      t = await appFromEnv(kind, {
        WEB_DIST: '/nonexistent',
        LOG_LEVEL: 'silent',
        STAFF_LOGINS_PER_WINDOW: '2',
      })
    })
    afterAll(() => t.close())

    it('refuses the address its next attempt once it has made that many', async () => {
      const login = () =>
        t.inject({
          method: 'POST',
          url: '/svc/main/admin/login',
          payload: { username: 'nobody', password: 'wrong-password' },
        })
      expect((await login()).statusCode).toBe(401)
      expect((await login()).statusCode).toBe(401)
      const third = await login()
      expect(third.statusCode).toBe(429)
      expect(third.json()).toMatchObject({ code: 'RATE_LIMITED' })
    })
  })

  describe('request logs', () => {
    let t: TestApp
    const lines: string[] = []
    beforeAll(async () => {
      const config = loadConfig({ WEB_DIST: '/nonexistent', LOG_LEVEL: 'info', LOG_FORMAT: 'json' })
      const {
        database: _database,
        clock: _clock,
        ...options
      } = appOptionsFromConfig(config, {
        database: undefined as never,
        clock: new FakeClock(Date.now()),
      })
      const stream = new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(...chunk.toString().split('\n').filter(Boolean))
          done()
        },
      })
      const mp = injectedWechatMp()
      t = await createTestApp(kind, {
        ...options,
        wechatMp: { ...options.wechatMp, ...mp.options },
        logger: { ...(options.logger as object), stream },
      })
      mp.attach(t.app)
    })
    afterAll(() => t.close())

    it('never record a messaging-platform OAuth code (it signs a user in once)', async () => {
      const code = await authorizeCode(t, '日志测试者')
      lines.length = 0
      const res = await getWxOpenId(t, code)
      expect(res.statusCode, res.body).toBe(200)
      const requestLines = lines.filter((l) => l.includes('getWxOpenId'))
      expect(requestLines.length).toBeGreaterThan(0)
      expect(lines.filter((l) => l.includes(code))).toEqual([])
    })
  })
})
