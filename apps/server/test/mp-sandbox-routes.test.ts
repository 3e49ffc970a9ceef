import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jssdkSignature } from '../src/modules/wechat/jssdk-signature'
import { WX_SANDBOX_PREFIX } from '../src/modules/wechat/mp-client'
import { SANDBOX_WECHAT_MP } from '../src/platform/config'
import { createTestApp, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'

/** Issue 11: the messaging platform's official-account sandbox, through the app's routes. */
const databases = await testDatabases()
const HOST = 'shop.test'
const { appId, secret } = SANDBOX_WECHAT_MP
const CALLBACK = `http://${HOST}/wx/callback?to=%2Fitems%2F7`

describe.each(databases)('the platform sandbox on $name', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp(kind)
  })
  afterAll(() => t.close())

  const get = (path: string, query: Record<string, string>, cookie?: string) =>
    t.inject({
      method: 'GET',
      url: `${WX_SANDBOX_PREFIX}${path}?${new URLSearchParams(query).toString()}`,
      headers: { host: HOST, ...(cookie ? { cookie } : {}) },
    })
  const authorize = (query: Record<string, string> = {}, cookie?: string) =>
    get(
      '/connect/oauth2/authorize',
      {
        appid: appId,
        redirect_uri: CALLBACK,
        response_type: 'code',
        scope: 'snsapi_userinfo',
        state: 'st1',
        ...query,
      },
      cookie,
    )
  const consent = (
    fields: Record<string, string>,
    cookie?: string,
    from: Record<string, string> = { origin: `http://${HOST}` },
  ) =>
    t.inject({
      method: 'POST',
      url: `${WX_SANDBOX_PREFIX}/connect/oauth2/authorize/confirm`,
      headers: {
        host: HOST,
        'content-type': 'application/x-www-form-urlencoded',
        ...from,
        ...(cookie ? { cookie } : {}),
      },
      payload: new URLSearchParams({
        appid: appId,
        redirect_uri: CALLBACK,
        response_type: 'code',
        scope: 'snsapi_userinfo',
        state: 'st1',
        ...fields,
      }).toString(),
    })
  const exchange = (code: string) =>
    get('/sns/oauth2/access_token', {
      appid: appId,
      secret,
      code,
      grant_type: 'authorization_code',
    })
  const cookieOf = (res: { headers: Record<string, unknown> }): string => {
    const raw = res.headers['set-cookie']
    const first = Array.isArray(raw) ? String(raw[0]) : String(raw)
    return first.split(';')[0]!
  }

  it('shows the consent page in Chinese for snsapi_userinfo', async () => {
    const res = await authorize()
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/text\/html/)
    expect(res.body).toContain('泉藏拍卖')
    expect(res.body).toContain('获得你的公开信息（昵称、头像）')
    expect(res.body).toContain('>允许<')
    expect(res.body).toContain('>拒绝<')
  })

  it('refuses another app and a redirect to another host with the platform’s error page', async () => {
    const wrongApp = await authorize({ appid: 'wx0000000000000000' })
    expect(wrongApp.statusCode).toBe(400)
    expect(wrongApp.body).toContain('appid 参数错误')
    const elsewhere = await authorize({ redirect_uri: 'http://evil.test/wx/callback' })
    expect(elsewhere.statusCode).toBe(400)
    expect(elsewhere.body).toContain('redirect_uri 参数错误')
    const implicit = await authorize({ response_type: 'token' })
    expect(implicit.statusCode).toBe(400)
    expect(implicit.body).toContain('response_type 参数错误')
    const posted = await consent({
      decision: 'allow',
      name: '张三',
      redirect_uri: 'http://evil.test/',
    })
    expect(posted.statusCode).toBe(400)
    expect(posted.body).toContain('redirect_uri 参数错误')
  })

  it('allow: back with code and state, the code gives the open id once and the profile', async () => {
    const allowed = await consent({ decision: 'allow', name: '张三' })
    expect(allowed.statusCode).toBe(302)
    const back = new URL(String(allowed.headers.location))
    expect(`${back.origin}${back.pathname}`).toBe(`http://${HOST}/wx/callback`)
    expect(back.searchParams.get('to')).toBe('/items/7')
    expect(back.searchParams.get('state')).toBe('st1')
    const code = back.searchParams.get('code')!

    const token = (await exchange(code)).json<Record<string, unknown>>()
    expect(token).toMatchObject({ expires_in: 7200, scope: 'snsapi_userinfo' })
    expect(token.openid).toMatch(/^o[\w-]{27}$/)
    expect((await exchange(code)).json()).toMatchObject({ errcode: 40163 })
    expect((await exchange('never-issued')).json()).toMatchObject({ errcode: 40029 })

    const info = await get('/sns/userinfo', {
      access_token: String(token.access_token),
      openid: String(token.openid),
      lang: 'zh_CN',
    })
    expect(info.statusCode).toBe(200)
    const profile = info.json<{ nickname: string; headimgurl: string }>()
    expect(profile.nickname).toBe('张三')
    const avatar = new URL(profile.headimgurl)
    expect(avatar.pathname).toBe(`${WX_SANDBOX_PREFIX}/avatar/${String(token.openid)}`)
    const svg = await t.inject({ method: 'GET', url: avatar.pathname })
    expect(svg.headers['content-type']).toMatch(/image\/svg\+xml/)
    expect(svg.body).toMatch(/^<svg /)
  })

  it('keeps who the tester is in an HttpOnly, SameSite=Lax cookie', async () => {
    const allowed = await consent({ decision: 'allow', name: '赵六' })
    const raw = String(allowed.headers['set-cookie'])
    expect(raw).toMatch(/HttpOnly/i)
    expect(raw).toMatch(/SameSite=Lax/i)
  })

  it.each([
    ['another site’s Origin', { origin: 'https://evil.example' }],
    ['another site’s Referer', { referer: 'https://evil.example/page' }],
    ['neither Origin nor Referer', {}],
    ['an Origin on another port', { origin: `http://${HOST}:8081` }],
  ])('refuses a consent posted with %s: no code, no cookie', async (_what, from) => {
    const res = await consent({ decision: 'allow', name: '钱七' }, undefined, from)
    expect(res.statusCode).toBe(403)
    expect(res.body).toContain('data-testid="wx-authorize-problem"')
    expect(res.headers.location).toBeUndefined()
    expect(res.headers['set-cookie']).toBeUndefined()
  })

  it('accepts a consent whose Referer is its own page (no Origin sent)', async () => {
    const res = await consent({ decision: 'allow', name: '孙八' }, undefined, {
      referer: `http://${HOST}${WX_SANDBOX_PREFIX}/connect/oauth2/authorize?appid=${appId}`,
    })
    expect(res.statusCode).toBe(302)
  })

  it('remembers the consent: the next authorize goes straight back, as the platform does', async () => {
    const allowed = await consent({ decision: 'allow', name: '李四' })
    const cookie = cookieOf(allowed)
    const first = new URL(String(allowed.headers.location)).searchParams.get('code')!
    const again = await authorize({ state: 'st2' }, cookie)
    expect(again.statusCode).toBe(302)
    const back = new URL(String(again.headers.location))
    expect(back.searchParams.get('state')).toBe('st2')
    const second = back.searchParams.get('code')!
    expect(second).not.toBe(first)
    const a = (await exchange(first)).json<{ openid: string }>()
    const b = (await exchange(second)).json<{ openid: string }>()
    expect(b.openid).toBe(a.openid)

    // snsapi_base is silent for a known user, and its token may not read the profile (48001).
    const base = await authorize({ scope: 'snsapi_base' }, cookie)
    expect(base.statusCode).toBe(302)
    const baseCode = new URL(String(base.headers.location)).searchParams.get('code')!
    const baseToken = (await exchange(baseCode)).json<{ access_token: string; openid: string }>()
    expect(baseToken.openid).toBe(a.openid)
    const refused = await get('/sns/userinfo', baseToken)
    expect(refused.json()).toMatchObject({ errcode: 48001 })
  })

  it('snsapi_base asks who the user is when it does not know them', async () => {
    const res = await authorize({ scope: 'snsapi_base' })
    expect(res.statusCode).toBe(200)
    expect(res.body).toContain('data-testid="wx-consent"')
  })

  it('deny: back with the state only', async () => {
    const denied = await consent({ decision: 'deny' })
    expect(denied.statusCode).toBe(302)
    const back = new URL(String(denied.headers.location))
    expect(back.searchParams.get('state')).toBe('st1')
    expect(back.searchParams.has('code')).toBe(false)
    expect(denied.headers['set-cookie']).toBeUndefined()
  })

  it('answers the API’s errors as JSON in the platform’s codes', async () => {
    const bad = await get('/cgi-bin/token', {
      grant_type: 'client_credential',
      appid: appId,
      secret: 'wrong',
    })
    expect(bad.statusCode).toBe(200)
    expect(bad.json()).toMatchObject({
      errcode: 40125,
      errmsg: expect.stringMatching(/^invalid appsecret/),
    })
    expect(
      (await get('/cgi-bin/token', { grant_type: 'client_credential', secret })).json(),
    ).toMatchObject({ errcode: 41002 })
    expect(
      (await get('/cgi-bin/ticket/getticket', { access_token: 'nope', type: 'jsapi' })).json(),
    ).toMatchObject({ errcode: 40001 })
  })

  it('tokens, tickets and the app’s wx.config check; issues are counted', async () => {
    const before = t.app.mpSandbox!.issued()
    const token = (
      await get('/cgi-bin/token', { grant_type: 'client_credential', appid: appId, secret })
    ).json<{ access_token: string; expires_in: number }>()
    expect(token.expires_in).toBe(7200)
    const ticket = (
      await get('/cgi-bin/ticket/getticket', { access_token: token.access_token, type: 'jsapi' })
    ).json<{ errcode: number; errmsg: string; ticket: string; expires_in: number }>()
    expect(ticket).toMatchObject({ errcode: 0, errmsg: 'ok', expires_in: 7200 })
    expect(t.app.mpSandbox!.issued()).toEqual({
      tokens: before.tokens + 1,
      tickets: before.tickets + 1,
    })

    const url = `http://${HOST}/items/7?from=share`
    const timestamp = Math.floor(t.clock.now() / 1000)
    const config = {
      appId,
      timestamp,
      nonceStr: 'n0nce',
      url,
      jsApiList: ['updateAppMessageShareData'],
      signature: jssdkSignature({ ticket: ticket.ticket, nonceStr: 'n0nce', timestamp, url }),
    }
    const preverify = (body: unknown) =>
      t.inject({
        method: 'POST',
        url: `${WX_SANDBOX_PREFIX}/jssdk/preverify`,
        headers: { host: HOST },
        payload: body as Record<string, unknown>,
      })
    expect((await preverify(config)).json()).toEqual({ err_msg: 'config:ok' })
    expect((await preverify({ ...config, timestamp: timestamp + 1 })).json()).toEqual({
      err_msg: 'config:invalid signature',
    })
    expect((await preverify({ ...config, url: 'http://evil.test/items/7' })).json()).toEqual({
      err_msg: 'config:invalid url domain',
    })
    const malformed = await preverify({ appId })
    expect(malformed.statusCode).toBe(400)
    expect(malformed.json()).toHaveProperty('code')
  })
})
