import type { ShareSignature } from '@numisma/contracts/wechat'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app'
import { SandboxSmsSender } from '../src/modules/passport/sms-sender'
import { jssdkSignature } from '../src/modules/wechat/jssdk-signature'
import { MP_PATHS, MP_TOKEN_TTL_SECONDS } from '../src/modules/wechat/mp-protocol'
import { WechatRepository } from '../src/modules/wechat/repository'
import { TOKEN_LEASE_MS, TOKEN_REFRESH_MARGIN_MS } from '../src/modules/wechat/shared-tokens'
import { WX_SANDBOX_PREFIX } from '../src/modules/wechat/mp-client'
import { SANDBOX_WECHAT_MP } from '../src/platform/config'
import type { Database } from '../src/platform/db'
import { createTestApp, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { injectedWechatMp } from './helpers/wechat'

/**
 * Issue 11 item 2: the JS-SDK share signature (spec §3, §7 "Share"): signed over the sandbox's
 * ticket and the page URL without its hash; the ticket fetched once for all concurrent callers and
 * all instances on one database, and again only when it nears its expiry.
 */
const databases = await testDatabases()
const PAGE = 'http://localhost/productDetail?id=42&from=share'

describe.each(databases)('share signature on $name', (kind) => {
  let t: TestApp
  const mp = injectedWechatMp()

  beforeAll(async () => {
    t = await createTestApp(kind, { wechatMp: mp.options })
    mp.attach(t.app)
  })
  afterAll(() => t.close())

  const sign = (url: string, on?: FastifyInstance) => {
    const path = `/h5/wechat/jsapi-signature?url=${encodeURIComponent(url)}`
    return on
      ? on.inject({
          method: 'GET',
          url: `/svc/main${path}`,
          headers: t.sign({ method: 'GET', path }),
        })
      : t.call({ method: 'GET', path })
  }
  const tickets = () => mp.calls(MP_PATHS.ticket)
  const storedTicket = async () =>
    (
      await t.database.db
        .selectFrom('platform_tokens')
        .select('value')
        .where('name', '=', 'mp.jsapi_ticket')
        .executeTakeFirstOrThrow()
    ).value

  it('signs the page URL without its hash over the platform ticket, as the app checks it', async () => {
    const res = await sign(`${PAGE}#/productDetail`)
    expect(res.statusCode, res.body).toBe(200)
    const data = res.json<{ data: ShareSignature }>().data
    expect(data.appid).toBe(SANDBOX_WECHAT_MP.appId)
    expect(data.timestamp).toBe(Math.floor(t.clock.now() / 1000))
    expect(data.signature).toBe(
      jssdkSignature({
        ticket: await storedTicket(),
        nonceStr: data.nonceStr,
        timestamp: data.timestamp,
        url: PAGE,
      }),
    )
    // The messaging app's own check of wx.config, against the tickets the sandbox issued.
    const check = await t.inject({
      method: 'POST',
      url: `${WX_SANDBOX_PREFIX}/jssdk/preverify`,
      payload: { ...data, appId: data.appid, url: PAGE, jsApiList: ['updateAppMessageShareData'] },
    })
    expect(check.json()).toEqual({ err_msg: 'config:ok' })
    // A fresh nonce every time.
    expect((await sign(PAGE)).json().data.nonceStr).not.toBe(data.nonceStr)
  })

  it('50 concurrent requests fetch one ticket; it is reused until 5 minutes before it expires', async () => {
    t.clock.advance(MP_TOKEN_TTL_SECONDS * 1000) // past whatever an earlier test fetched
    const before = tickets()
    const results = await Promise.all(Array.from({ length: 50 }, () => sign(PAGE)))
    expect(results.map((r) => r.statusCode)).toEqual(Array(50).fill(200))
    expect(tickets()).toBe(before + 1)
    expect(new Set(results.map((r) => r.json().data.signature)).size).toBe(50)

    t.clock.advance(MP_TOKEN_TTL_SECONDS * 1000 - TOKEN_REFRESH_MARGIN_MS - 1000)
    expect((await sign(PAGE)).statusCode).toBe(200)
    expect(tickets()).toBe(before + 1)
    t.clock.advance(1000)
    const renewed = await sign(PAGE)
    expect(renewed.statusCode).toBe(200)
    expect(tickets()).toBe(before + 2)
    const data = renewed.json<{ data: ShareSignature }>().data
    expect(data.signature).toBe(
      jssdkSignature({
        ticket: await storedTicket(),
        nonceStr: data.nonceStr,
        timestamp: data.timestamp,
        url: PAGE,
      }),
    )
  })

  it('two instances on one database fetch one ticket between them, racing or not', async () => {
    const b = await buildApp({
      // The database belongs to `t`, which closes it.
      database: { ...t.database, close: () => Promise.resolve() } satisfies Database,
      clock: t.clock,
      sms: new SandboxSmsSender(),
      env: 'development',
      webDist: '/nonexistent',
      // Its platform calls reach the same sandbox, counted with the first instance's.
      wechatMp: mp.options,
    })
    await b.ready()
    try {
      t.clock.advance(MP_TOKEN_TTL_SECONDS * 1000)
      const before = { tickets: tickets(), tokens: mp.calls(MP_PATHS.accessToken) }
      const racing = await Promise.all(
        Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? sign(PAGE) : sign(PAGE, b))),
      )
      expect(racing.map((r) => r.statusCode)).toEqual(Array(40).fill(200))
      expect(tickets()).toBe(before.tickets + 1)
      expect(mp.calls(MP_PATHS.accessToken)).toBe(before.tokens + 1)

      // One instance refreshing does not make the other refetch.
      t.clock.advance(MP_TOKEN_TTL_SECONDS * 1000)
      expect((await sign(PAGE)).statusCode).toBe(200)
      expect((await sign(PAGE, b)).statusCode).toBe(200)
      expect(tickets()).toBe(before.tickets + 2)
    } finally {
      await b.close()
    }
  })

  it.each([
    ['javascript:alert(1)'],
    ['ftp://localhost/file'],
    ['/productDetail?id=1'],
    [`http://localhost/${'a'.repeat(2048)}`],
  ])('refuses %j as a page URL with a coded 400', async (url) => {
    const res = await sign(url)
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('VALIDATION_FAILED')
  })

  it('stores a refreshed value only under the lease it was fetched under', async () => {
    const repo = new WechatRepository(t.database.db)
    const name = `lease-test-${kind.name}`
    const now = t.clock.now()
    const stale = now + TOKEN_REFRESH_MARGIN_MS
    const first = now + TOKEN_LEASE_MS
    expect(await repo.takeTokenLease(name, stale, now, first)).toBe(true)
    // Another instance may not take it while it runs, and may once it lapsed.
    expect(await repo.takeTokenLease(name, stale, now + 1, now + 1 + TOKEN_LEASE_MS)).toBe(false)
    const later = first + TOKEN_LEASE_MS
    expect(await repo.takeTokenLease(name, first + TOKEN_REFRESH_MARGIN_MS, first, later)).toBe(
      true,
    )
    expect(await repo.storeToken(name, 'newer', first + 7_200_000, first, later)).toBe(true)
    // The first holder's late answer is refused and the newer value stays.
    expect(await repo.storeToken(name, 'older', first + 7_200_000, first + 1, first)).toBe(false)
    expect((await repo.platformToken(name))?.value).toBe('newer')
  })

  it('is WX_UNAVAILABLE (503) when the ticket cannot be had', async () => {
    t.clock.advance(MP_TOKEN_TTL_SECONDS * 1000)
    mp.state.down = true
    try {
      const res = await sign(PAGE)
      expect(res.statusCode).toBe(503)
      expect(res.json().code).toBe('WX_UNAVAILABLE')
    } finally {
      mp.state.down = false
    }
    expect((await sign(PAGE)).statusCode).toBe(200)
  })

  it('forgets cached tokens when a server starts on its own sandbox, which forgot what it issued', async () => {
    // A running server (`npm start`): no transport, no API base — its platform is the sandbox in
    // its own process. Its database still holds the ticket an earlier run got.
    expect((await sign(PAGE)).statusCode).toBe(200)
    const before = await t.database.db
      .selectFrom('platform_tokens')
      .select(['name', 'expires_at'])
      .execute()
    expect(before.some((row) => row.expires_at > t.clock.now())).toBe(true)
    const restarted = await buildApp({
      database: { ...t.database, close: () => Promise.resolve() } satisfies Database,
      clock: t.clock,
      sms: new SandboxSmsSender(),
      env: 'development',
      webDist: '/nonexistent',
    })
    try {
      const after = await t.database.db.selectFrom('platform_tokens').select('expires_at').execute()
      expect(after.every((row) => row.expires_at === 0)).toBe(true)
    } finally {
      await restarted.close()
    }
  })
})
