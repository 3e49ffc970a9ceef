import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { DEFAULT_CHAT_AGENT_ID } from '@numisma/contracts/chat'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LedgerService } from '../src/modules/ledger/service'
import { loadConfig, SANDBOX_WECHAT_MP, workspaceRoot } from '../src/platform/config'
import { createTestApp, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'

const [sqlite] = await testDatabases()

describe('process endpoints and the web app', () => {
  let t: TestApp
  let dist: string

  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'numisma-dist-'))
    fs.mkdirSync(path.join(dist, 'assets'))
    fs.writeFileSync(
      path.join(dist, 'index.html'),
      '<html><head><!--numisma-config--></head><body>shop</body></html>',
    )
    fs.writeFileSync(
      path.join(dist, 'passport.html'),
      '<html><head><!--numisma-config--></head><body>passport</body></html>',
    )
    fs.writeFileSync(
      path.join(dist, 'admin.html'),
      '<html><head><!--numisma-config--></head><body>console</body></html>',
    )
    fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)')
    t = await createTestApp(sqlite!, { webDist: dist })
  })
  afterAll(async () => {
    await t.close()
    fs.rmSync(dist, { recursive: true, force: true })
  })

  it('reports health', async () => {
    const res = await t.inject({ method: 'GET', url: '/svc/health' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ data: { status: 'ok' } })
  })

  it('serves the public client config unsigned', async () => {
    const res = await t.inject({ method: 'GET', url: '/svc/client-config' })
    expect(res.json().data).toEqual({
      env: 'development',
      services: { main: '/svc/main', search: '/svc/search', push: '/svc/push' },
      apps: { h5: t.apps.h5, search: t.apps.search },
      signSecret: t.apps.signSecret,
      // Outside production: the platform sandbox's official account and authorize page (ADR 017).
      wechat: {
        appId: SANDBOX_WECHAT_MP.appId,
        authorizeUrl: '/svc/sandbox/wx/connect/oauth2/authorize',
      },
      chat: { agentId: DEFAULT_CHAT_AGENT_ID },
    })
  })

  it('serves the SPA with the config inlined for every client route', async () => {
    for (const url of ['/', '/ucenter', '/productDetail?id=3', '/order/cashpay/list', '/nope']) {
      const res = await t.inject({ method: 'GET', url })
      expect(res.statusCode, url).toBe(200)
      expect(res.headers['content-type']).toContain('text/html')
      expect(res.body).toContain('shop')
      expect(res.body).toContain(`id="__NUMISMA_CONFIG__">{"env":"development"`)
      expect(res.body).not.toContain('<!--numisma-config-->')
    }
  })

  it('serves the sign-in app at /passport', async () => {
    const res = await t.inject({ method: 'GET', url: '/passport?redirect=%2FmyBuy' })
    expect(res.body).toContain('passport')
    expect(res.body).toContain(t.apps.h5.key)
  })

  it('serves the operator console at /admin and its page paths, not over the staff API', async () => {
    for (const url of ['/admin', '/admin/', '/admin/chat?c=3']) {
      const res = await t.inject({ method: 'GET', url })
      expect(res.statusCode).toBe(200)
      expect(res.body).toContain('console')
      expect(res.body).toContain(t.apps.h5.key)
    }
    const api = await t.inject({ method: 'GET', url: '/svc/main/admin/session' })
    expect(api.statusCode).toBe(401)
    const raw = await t.inject({ method: 'GET', url: '/admin.html' })
    expect(raw.body).not.toContain('<!--numisma-config-->')
  })

  it('serves hashed assets with a long cache and 404s missing files', async () => {
    const asset = await t.inject({ method: 'GET', url: '/assets/app-abc123.js' })
    expect(asset.statusCode).toBe(200)
    expect(asset.headers['cache-control']).toContain('immutable')
    const missing = await t.inject({ method: 'GET', url: '/assets/missing.js' })
    expect(missing.statusCode).toBe(404)
    expect(missing.json().code).toBe('NOT_FOUND')
  })

  it('answers unknown API paths with a coded 404 (after the signature check)', async () => {
    const unsigned = await t.inject({ method: 'GET', url: '/svc/main/no/such/call' })
    expect(unsigned.statusCode).toBe(401)
    const signed = await t.call({ method: 'GET', path: '/no/such/call' })
    expect(signed.statusCode).toBe(404)
    expect(signed.json()).toEqual({ code: 'NOT_FOUND', message: '内容不存在' })
    const other = await t.inject({ method: 'GET', url: '/svc/elsewhere' })
    expect(other.json().code).toBe('NOT_FOUND')
  })

  it('refuses broken JSON and oversized bodies with codes, never a 500', async () => {
    const headers = t.sign({ method: 'POST', path: '/passport/sms' })
    const broken = await t.inject({
      method: 'POST',
      url: '/svc/main/passport/sms',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: '{"mobile": ',
    })
    expect(broken.statusCode).toBe(400)
    expect(broken.json().code).toBe('VALIDATION_FAILED')

    const huge = await t.inject({
      method: 'POST',
      url: '/svc/main/passport/sms',
      headers: {
        ...t.sign({ method: 'POST', path: '/passport/sms' }),
        'content-type': 'application/json',
      },
      payload: JSON.stringify({ mobile: 'x'.repeat(300_000) }),
    })
    expect(huge.statusCode).toBe(413)
    expect(huge.json().code).toBe('PAYLOAD_TOO_LARGE')
  })

  it('publishes OpenAPI at /svc/docs', async () => {
    const res = await t.inject({ method: 'GET', url: '/svc/docs/json' })
    expect(res.statusCode).toBe(200)
    const paths = Object.keys(res.json<{ paths: Record<string, unknown> }>().paths)
    expect(paths).toEqual(
      expect.arrayContaining([
        '/svc/health',
        '/svc/main/passport/sms',
        '/svc/main/passport/login',
        '/svc/main/user/@statistics',
        '/svc/main/admin/login',
      ]),
    )
    expect((await t.inject({ method: 'GET', url: '/svc/docs' })).statusCode).toBeLessThan(400)
  })
})

describe('process configuration (DESIGN §9)', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({})
    expect(config).toMatchObject({ port: 8080, seed: 'demo', env: 'development' })
    expect(config.dataDir).toBe(path.resolve('./data'))
    expect(config.databaseUrl).toBeUndefined()
  })

  it('is production when either NUMISMA_ENV or NODE_ENV says so, with no demo data by default', () => {
    // NODE_ENV=production alone once ran in development mode, handing out sandbox SMS codes.
    expect(loadConfig({ NODE_ENV: 'production' })).toMatchObject({
      env: 'production',
      seed: 'none',
    })
    expect(loadConfig({ NUMISMA_ENV: 'production' })).toMatchObject({
      env: 'production',
      seed: 'none',
    })
    expect(loadConfig({ NUMISMA_ENV: 'production', SEED: 'demo' }).seed).toBe('demo')
    // An explicit NUMISMA_ENV is the operator's word.
    expect(loadConfig({ NUMISMA_ENV: 'development', NODE_ENV: 'production' }).env).toBe(
      'development',
    )
    expect(() => loadConfig({ NUMISMA_ENV: 'staging' })).toThrow(/NUMISMA_ENV/)
  })

  it('reads every variable and refuses nonsense', () => {
    const config = loadConfig({
      PORT: '9000',
      DATA_DIR: '/tmp/x',
      SEED: 'none',
      NUMISMA_ENV: 'production',
      DATABASE_URL: 'postgres://db/x',
      REDIS_URL: 'redis://r',
    })
    expect(config).toMatchObject({
      port: 9000,
      dataDir: '/tmp/x',
      seed: 'none',
      env: 'production',
      databaseUrl: 'postgres://db/x',
      redisUrl: 'redis://r',
    })
    expect(loadConfig({}).trustProxy).toBe(false)
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2)
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1,10.0.0.2' }).trustProxy).toBe('10.0.0.1,10.0.0.2')
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/)
    expect(() => loadConfig({ SEED: 'lots' })).toThrow(/SEED/)
  })

  it('takes the quota multiplier from QUOTA_MULTIPLIER (default 10)', () => {
    expect(loadConfig({}).quotaMultiplier).toBe(10)
    expect(loadConfig({ QUOTA_MULTIPLIER: '5' }).quotaMultiplier).toBe(5)
    for (const bad of ['0', '-2', '2.5', 'ten']) {
      expect(() => loadConfig({ QUOTA_MULTIPLIER: bad })).toThrow(/QUOTA_MULTIPLIER/)
    }
  })

  it('logs readable lines in development and JSON in production, unless LOG_FORMAT says', () => {
    expect(loadConfig({}).prettyLogs).toBe(true)
    expect(loadConfig({ NUMISMA_ENV: 'production' }).prettyLogs).toBe(false)
    expect(loadConfig({ NODE_ENV: 'production' }).prettyLogs).toBe(false)
    expect(loadConfig({ NODE_ENV: 'production', LOG_FORMAT: 'pretty' }).prettyLogs).toBe(true)
    expect(loadConfig({ LOG_FORMAT: 'json' }).prettyLogs).toBe(false)
  })

  it('finds the web build from the sources and from the bundle alike', () => {
    const root = path.resolve(import.meta.dirname, '..', '..', '..')
    for (const from of ['apps/server/src/platform', 'apps/server/dist']) {
      expect(workspaceRoot(path.join(root, from))).toBe(root)
    }
    expect(loadConfig({}).webDist).toBe(path.join(root, 'apps', 'web', 'dist'))
  })
})

describe('the quota multiplier from configuration', () => {
  it('sets the quota a deposit gives', async () => {
    const t = await createTestApp(sqlite!, { quotaMultiplier: 3 })
    try {
      const user = await t.signIn()
      await new LedgerService(t.database, t.clock).creditDeposit(Number(user.userId), 1_000, 'x')
      const stats = await t.call({ method: 'GET', path: '/user/@statistics', as: user })
      expect(stats.json().data).toMatchObject({ deposit: 1_000, quota: 3_000, exposure: 0 })
    } finally {
      await t.close()
    }
  })
})
