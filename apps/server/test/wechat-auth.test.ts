import { COOKIE, COOKIE_MAX_AGE_SECONDS } from '@numisma/contracts/cookies'
import { WX_BIND_TOKEN_TTL_SECONDS, type WxOpenIdResult } from '@numisma/contracts/wechat'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sandboxOpenid } from '../src/modules/sandbox/mp-sandbox'
import { MP_PATHS } from '../src/modules/wechat/mp-protocol'
import { SANDBOX_WECHAT_MP } from '../src/platform/config'
import { sha256Hex } from '../src/platform/crypto'
import { createTestApp, nextMobile, type Session, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { injectedWechatPay } from './helpers/payments'
import { authorizeCode, getWxOpenId, injectedWechatMp, wxBind } from './helpers/wechat'

/**
 * Issue 11 item 2: signing in inside the messaging app — the platform sandbox's OAuth code,
 * exchanged once by `GET /h5/auth/getWxOpenId/{code}`, a first-time open id bound to a mobile
 * number by `POST /passport/wx-bind`, a linked one signed straight in — and JSAPI pay naming a
 * linked payer by the open id.
 */
const databases = await testDatabases()
let tester = 0
const nextTester = () => `测试者${process.pid % 1000}-${tester++}`

type Unlinked = Extract<WxOpenIdResult, { linked: false }>
type Linked = Extract<WxOpenIdResult, { linked: true }>

describe.each(databases)('messaging-app sign-in on $name', (kind) => {
  let t: TestApp
  const mp = injectedWechatMp()
  const pay = injectedWechatPay()
  const unifiedOrders: string[] = []

  beforeAll(async () => {
    t = await createTestApp(kind, {
      wechatMp: mp.options,
      wechatPay: {
        ...pay.options,
        transport: (path, xml) => {
          if (path === '/pay/unifiedorder') unifiedOrders.push(xml)
          return pay.options.transport!(path, xml)
        },
      },
    })
    mp.attach(t.app)
    pay.attach(t.app)
  })
  afterAll(() => t.close())

  const exchange = async (name: string) => {
    const res = await getWxOpenId(t, await authorizeCode(t, name))
    expect(res.statusCode, res.body).toBe(200)
    return res.json<{ data: WxOpenIdResult }>().data
  }
  const firstTime = async (name: string): Promise<Unlinked> => {
    const data = await exchange(name)
    expect(data.linked).toBe(false)
    return data as Unlinked
  }
  const bindTokenRows = () => t.database.db.selectFrom('wechat_bind_tokens').selectAll().execute()
  const linksOf = (openid: string) =>
    t.database.db.selectFrom('wechat_links').selectAll().where('openid', '=', openid).execute()
  const sessionOf = (res: { json: () => unknown; cookies: { name: string; value: string }[] }) => {
    const data = (res.json() as { data: Omit<Session, 'sid' | 'deviceId'> }).data
    const sid = res.cookies.find((c) => c.name === COOKIE.sid)!.value
    return { ...data, sid, deviceId: 'wx-device' }
  }

  it('binds a first-time open id to a mobile number, then signs it straight in next time', async () => {
    const name = nextTester()
    const openid = sandboxOpenid(SANDBOX_WECHAT_MP.appId, name)
    const first = await firstTime(name)
    expect(first).toMatchObject({ openid, nickname: name })
    expect(first.avatar).toMatch(/^\/svc\/sandbox\/wx\/|^http/)
    expect(first.bindToken.length).toBeGreaterThanOrEqual(32)
    // Stored hashed only.
    const stored = (await bindTokenRows()).find((r) => r.openid === openid)!
    expect(stored.token_hash).toBe(sha256Hex(first.bindToken))
    expect(JSON.stringify(await bindTokenRows())).not.toContain(first.bindToken)

    const mobile = nextMobile()
    const bound = await wxBind(t, first.bindToken, mobile)
    expect(bound.statusCode, bound.body).toBe(200)
    const login = sessionOf(bound)
    expect(login).toMatchObject({ mobile, display: `藏友${mobile.slice(-4)}` })
    expect(await linksOf(openid)).toMatchObject([{ user_id: Number(login.userId), nickname: name }])
    const statistics = await t.call({ method: 'GET', path: '/user/@statistics', as: login })
    expect(statistics.statusCode).toBe(200)

    const again = await getWxOpenId(t, await authorizeCode(t, name))
    expect(again.statusCode, again.body).toBe(200)
    const linked = again.json<{ data: Linked }>().data
    expect(linked).toMatchObject({ linked: true, openid })
    expect(linked.login).toMatchObject({ userId: login.userId, mobile })
    expect(linked.login.id).not.toBe(login.id)
    // The cookies of /passport/login, and a session that works.
    const cookies = Object.fromEntries(again.cookies.map((c) => [c.name, c]))
    for (const cookie of ['sid', 'id', 'key', 'userId', 'display', 'mobile', 'agreement']) {
      expect(cookies[cookie]?.maxAge, cookie).toBe(COOKIE_MAX_AGE_SECONDS)
    }
    expect(cookies[COOKIE.sid]?.httpOnly).toBe(true)
    expect(cookies[COOKIE.agreement]?.value).toBe('1')
    expect(cookies[COOKIE.id]?.value).toBe(linked.login.id)
    const session = sessionOf({
      json: () => ({ data: linked.login }),
      cookies: again.cookies,
    })
    const me = await t.call({ method: 'GET', path: '/user/@statistics', as: session })
    expect(me.statusCode, me.body).toBe(200)
    expect(me.json().data.userId).toBe(login.userId)
  })

  it('an existing mobile account binds and keeps its account', async () => {
    const existing = await t.signIn()
    const first = await firstTime(nextTester())
    const bound = await wxBind(t, first.bindToken, existing.mobile)
    expect(bound.statusCode, bound.body).toBe(200)
    expect(sessionOf(bound).userId).toBe(existing.userId)
  })

  it('exchanges a code once: a reused code is WX_CODE_INVALID and never reaches the platform again', async () => {
    const code = await authorizeCode(t, nextTester())
    const before = mp.calls(MP_PATHS.webAccessToken)
    expect((await getWxOpenId(t, code)).statusCode).toBe(200)
    const again = await getWxOpenId(t, code)
    expect(again.statusCode).toBe(400)
    expect(again.json().code).toBe('WX_CODE_INVALID')
    expect(mp.calls(MP_PATHS.webAccessToken)).toBe(before + 1)
  })

  it('the same code arriving many times at once reaches the platform once and makes one token', async () => {
    const name = nextTester()
    const code = await authorizeCode(t, name)
    const before = mp.calls(MP_PATHS.webAccessToken)
    const results = await Promise.all(Array.from({ length: 8 }, () => getWxOpenId(t, code)))
    expect(results.map((r) => r.statusCode).sort()).toEqual([
      200, 400, 400, 400, 400, 400, 400, 400,
    ])
    for (const r of results.filter((r) => r.statusCode === 400)) {
      expect(r.json().code).toBe('WX_CODE_INVALID')
    }
    expect(mp.calls(MP_PATHS.webAccessToken)).toBe(before + 1)
    const openid = sandboxOpenid(SANDBOX_WECHAT_MP.appId, name)
    expect((await bindTokenRows()).filter((r) => r.openid === openid)).toHaveLength(1)
  })

  it('a code the platform does not know is WX_CODE_INVALID', async () => {
    const res = await getWxOpenId(t, 'not-a-code-the-platform-issued')
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('WX_CODE_INVALID')
  })

  it('a bind token binds once, and not after 15 minutes', async () => {
    const first = await firstTime(nextTester())
    const mobile = nextMobile()
    expect((await wxBind(t, first.bindToken, mobile)).statusCode).toBe(200)
    const reused = await wxBind(t, first.bindToken, mobile)
    expect(reused.statusCode).toBe(400)
    expect(reused.json().code).toBe('WX_BIND_EXPIRED')

    const late = await firstTime(nextTester())
    t.clock.advance(WX_BIND_TOKEN_TTL_SECONDS * 1000)
    const expired = await wxBind(t, late.bindToken, nextMobile())
    expect(expired.statusCode).toBe(400)
    expect(expired.json().code).toBe('WX_BIND_EXPIRED')

    const unknown = await wxBind(t, 'no-such-token', nextMobile())
    expect(unknown.json().code).toBe('WX_BIND_EXPIRED')
  })

  it('a wrong SMS code binds nothing and leaves the token good', async () => {
    const first = await firstTime(nextTester())
    const mobile = nextMobile()
    await t.call({ method: 'POST', path: '/passport/sms', body: { mobile } })
    const code = t.sms.lastCodeFor(mobile)!
    const wrong = await t.call({
      method: 'POST',
      path: '/passport/wx-bind',
      body: {
        bindToken: first.bindToken,
        mobile,
        code: code === '000000' ? '111111' : '000000',
        agreement: true,
      },
    })
    expect(wrong.json().code).toBe('SMS_CODE_INVALID')
    expect(await linksOf(first.openid)).toHaveLength(0)
    expect((await wxBind(t, first.bindToken, mobile)).statusCode).toBe(200)
  })

  it('refuses WX_ACCOUNT_LINKED to a mobile already linked to another open id, writing nothing', async () => {
    const mobile = nextMobile()
    const one = await firstTime(nextTester())
    expect((await wxBind(t, one.bindToken, mobile)).statusCode).toBe(200)
    const other = await firstTime(nextTester())
    const refused = await wxBind(t, other.bindToken, mobile)
    expect(refused.statusCode).toBe(409)
    expect(refused.json().code).toBe('WX_ACCOUNT_LINKED')
    expect(await linksOf(other.openid)).toHaveLength(0)
    expect(refused.cookies.find((c) => c.name === COOKIE.sid)).toBeUndefined()
    // The token was not used: another mobile number can still take it.
    expect((await wxBind(t, other.bindToken, nextMobile())).statusCode).toBe(200)
  })

  it('refuses WX_OPENID_LINKED to an open id linked to another account, before spending the SMS code', async () => {
    const name = nextTester()
    const a = await firstTime(name)
    const b = await firstTime(name)
    expect((await wxBind(t, a.bindToken, nextMobile())).statusCode).toBe(200)
    const mobile = nextMobile()
    const refused = await wxBind(t, b.bindToken, mobile)
    expect(refused.statusCode).toBe(409)
    expect(refused.json()).toMatchObject({
      code: 'WX_OPENID_LINKED',
      message: '该微信账号已绑定其他手机号',
    })
    expect(refused.cookies.find((c) => c.name === COOKIE.sid)).toBeUndefined()
    // The code the user typed is still good: the number signs in with it.
    const login = await t.call({
      method: 'POST',
      path: '/passport/login',
      body: { mobile, code: t.sms.lastCodeFor(mobile), agreement: true },
      deviceId: 'wx-device',
    })
    expect(login.statusCode, login.body).toBe(200)
  })

  it('answers sign-ins with Cache-Control: no-store (they carry session keys and bind tokens)', async () => {
    const name = nextTester()
    const first = await getWxOpenId(t, await authorizeCode(t, name))
    expect(first.headers['cache-control']).toBe('no-store')
    const bound = await wxBind(t, first.json<{ data: Unlinked }>().data.bindToken, nextMobile())
    expect(bound.statusCode).toBe(200)
    expect(bound.headers['cache-control']).toBe('no-store')
    const linked = await getWxOpenId(t, await authorizeCode(t, name))
    expect(linked.json<{ data: WxOpenIdResult }>().data.linked).toBe(true)
    expect(linked.headers['cache-control']).toBe('no-store')
  })

  it('still hands out a bind token when only the profile cannot be fetched (the code is spent by then)', async () => {
    const name = nextTester()
    const code = await authorizeCode(t, name)
    mp.state.downPath = MP_PATHS.userInfo
    try {
      const res = await getWxOpenId(t, code)
      expect(res.statusCode, res.body).toBe(200)
      const data = res.json<{ data: Unlinked }>().data
      expect(data).toMatchObject({ linked: false, nickname: '', avatar: '' })
      expect((await wxBind(t, data.bindToken, nextMobile())).statusCode).toBe(200)
    } finally {
      mp.state.downPath = undefined
    }
  })

  it('an open id linked meanwhile to the same account binds again fine', async () => {
    const name = nextTester()
    const a = await firstTime(name)
    const b = await firstTime(name)
    const mobile = nextMobile()
    const first = await wxBind(t, a.bindToken, mobile)
    const second = await wxBind(t, b.bindToken, mobile)
    expect(second.statusCode, second.body).toBe(200)
    expect(sessionOf(second).userId).toBe(sessionOf(first).userId)
    expect(await linksOf(a.openid)).toHaveLength(1)
  })

  it('JSAPI pay names a linked payer by the open id, and an unlinked one by nothing', async () => {
    const name = nextTester()
    const first = await firstTime(name)
    const linked = sessionOf(await wxBind(t, first.bindToken, nextMobile()))
    const unlinked = await t.signIn()
    const recharge = (as: Session) =>
      t.call({ method: 'PATCH', path: '/user/recharge/@finance', as, body: { amount: 10_000 } })

    const before = unifiedOrders.length
    const res = await recharge(linked)
    expect(res.statusCode, res.body).toBe(200)
    expect(unifiedOrders.slice(before).join()).toContain(
      `<openid><![CDATA[${first.openid}]]></openid>`,
    )

    const mid = unifiedOrders.length
    expect((await recharge(unlinked)).statusCode).toBe(200)
    expect(unifiedOrders.length).toBe(mid + 1)
    expect(unifiedOrders.slice(mid).join()).not.toContain('<openid>')
  })

  it('is WX_UNAVAILABLE (503) while the platform is down, and the code can be used once it is back', async () => {
    const code = await authorizeCode(t, nextTester())
    mp.state.down = true
    try {
      const res = await getWxOpenId(t, code)
      expect(res.statusCode).toBe(503)
      expect(res.json().code).toBe('WX_UNAVAILABLE')
    } finally {
      mp.state.down = false
    }
    expect((await getWxOpenId(t, code)).statusCode).toBe(200)
  })

  it('tells the page where the authorize page is', async () => {
    const res = await t.inject({ method: 'GET', url: '/svc/client-config' })
    expect(res.json().data.wechat).toEqual({
      appId: SANDBOX_WECHAT_MP.appId,
      authorizeUrl: '/svc/sandbox/wx/connect/oauth2/authorize',
    })
  })
})
