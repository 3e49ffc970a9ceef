import { beforeEach, describe, expect, it } from 'vitest'
import { FakeClock } from '../../platform/clock'
import { jssdkSignature } from '../wechat/jssdk-signature'
import { MP_ERRCODE, type MpError } from '../wechat/mp-protocol'
import { isSandboxOpenid, MpSandbox, type MpResult, sandboxOpenid } from './mp-sandbox'

const account = { appId: 'wxsandbox0000001', secret: 'sandbox-secret', name: '测试公众号' }
const MINUTE = 60_000
const avatar = (openid: string): string => `http://shop.test/avatar/${openid}.svg`

function value<T>(result: MpResult<T>): T {
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result.error)}`)
  return result.value
}
function error<T>(result: MpResult<T>): MpError {
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.value)}`)
  return result.error
}

describe('MpSandbox', () => {
  let clock: FakeClock
  let sandbox: MpSandbox
  beforeEach(() => {
    clock = new FakeClock()
    sandbox = new MpSandbox(account, clock)
  })

  const exchange = (code: string, overrides: Record<string, string> = {}) =>
    sandbox.webAccessToken({
      appid: account.appId,
      secret: account.secret,
      code,
      grant_type: 'authorization_code',
      ...overrides,
    })
  const basicToken = () =>
    value(
      sandbox.accessToken({
        grant_type: 'client_credential',
        appid: account.appId,
        secret: account.secret,
      }),
    ).access_token

  describe('open ids', () => {
    it('are 28 characters, stable per app and tester, and recognisable per app', () => {
      const openid = sandboxOpenid(account.appId, '张三')
      expect(openid).toMatch(/^o[\w-]{27}$/)
      expect(sandboxOpenid(account.appId, '张三')).toBe(openid)
      expect(sandboxOpenid(account.appId, '李四')).not.toBe(openid)
      expect(sandboxOpenid('wxother', '张三')).not.toBe(openid)
      expect(isSandboxOpenid(account.appId, openid)).toBe(true)
      expect(isSandboxOpenid('wxother', openid)).toBe(false)
      const forged = `${openid.slice(0, -1)}${openid.endsWith('A') ? 'B' : 'A'}`
      expect(isSandboxOpenid(account.appId, forged)).toBe(false)
      expect(isSandboxOpenid(account.appId, 'oNotIssuedByTheSandbox00000')).toBe(false)
    })
  })

  describe('authorize checks', () => {
    const query = {
      appid: account.appId,
      response_type: 'code',
      redirect_uri: 'http://shop.test:8080/wx/callback?to=%2Fa',
      scope: 'snsapi_userinfo',
    }
    it('accepts our app, a redirect to the request’s host and a known scope', () => {
      expect(sandbox.authorizeProblem(query, 'shop.test')).toBeNull()
      expect(sandbox.authorizeProblem(query, 'shop.test:9000')).toBeNull()
    })
    it('refuses another app, another host, a non-http redirect and an unknown scope', () => {
      expect(sandbox.authorizeProblem({ ...query, appid: 'wxother' }, 'shop.test')).toBe('appid')
      expect(sandbox.authorizeProblem(query, 'evil.test')).toBe('redirect_uri')
      expect(
        sandbox.authorizeProblem({ ...query, redirect_uri: 'javascript:alert(1)' }, 'shop.test'),
      ).toBe('redirect_uri')
      expect(sandbox.authorizeProblem({ ...query, response_type: 'token' }, 'shop.test')).toBe(
        'response_type',
      )
      expect(sandbox.authorizeProblem({ ...query, scope: 'snsapi_login' }, 'shop.test')).toBe(
        'scope',
      )
    })
  })

  describe('codes', () => {
    it('exchange once for a web access token and the open id', () => {
      const code = sandbox.issueCode('张三', 'snsapi_userinfo')
      const token = value(exchange(code))
      expect(token).toMatchObject({
        expires_in: 7200,
        openid: sandbox.openidOf('张三'),
        scope: 'snsapi_userinfo',
      })
      expect(error(exchange(code)).errcode).toBe(MP_ERRCODE.CODE_BEEN_USED)
      expect(error(exchange(code)).errmsg).toMatch(/^code been used, rid: [0-9a-f-]+$/)
    })

    it('lapse after five minutes; an unknown one is invalid', () => {
      const code = sandbox.issueCode('张三', 'snsapi_userinfo')
      clock.advance(5 * MINUTE)
      expect(error(exchange(code)).errcode).toBe(MP_ERRCODE.INVALID_CODE)
      expect(error(exchange('nope')).errcode).toBe(MP_ERRCODE.INVALID_CODE)
      const fresh = sandbox.issueCode('张三', 'snsapi_userinfo')
      clock.advance(5 * MINUTE - 1)
      expect(exchange(fresh).ok).toBe(true)
    })

    it('need our app id, its secret and the right grant type', () => {
      const code = sandbox.issueCode('张三', 'snsapi_base')
      expect(error(exchange(code, { appid: 'wxother' })).errcode).toBe(MP_ERRCODE.INVALID_APPID)
      expect(error(exchange(code, { secret: 'wrong' })).errcode).toBe(MP_ERRCODE.INVALID_APPSECRET)
      expect(error(exchange(code, { grant_type: 'password' })).errcode).toBe(
        MP_ERRCODE.INVALID_GRANT_TYPE,
      )
      // None of those spent the code.
      expect(exchange(code).ok).toBe(true)
    })
  })

  describe('user info', () => {
    it('answers the profile for a userinfo-scope token, with the sandbox avatar', () => {
      const token = value(exchange(sandbox.issueCode('张三', 'snsapi_userinfo')))
      const info = value(
        sandbox.userInfo({ access_token: token.access_token, openid: token.openid }, avatar),
      )
      expect(info).toEqual({
        openid: token.openid,
        nickname: '张三',
        sex: 0,
        province: '',
        city: '',
        country: '',
        headimgurl: avatar(token.openid),
        privilege: [],
      })
    })

    it('refuses a base-scope token (48001), another open id (40003), unknown and expired tokens', () => {
      const base = value(exchange(sandbox.issueCode('张三', 'snsapi_base')))
      expect(
        error(sandbox.userInfo({ access_token: base.access_token, openid: base.openid }, avatar))
          .errcode,
      ).toBe(MP_ERRCODE.API_UNAUTHORIZED)
      const full = value(exchange(sandbox.issueCode('李四', 'snsapi_userinfo')))
      expect(
        error(sandbox.userInfo({ access_token: full.access_token, openid: base.openid }, avatar))
          .errcode,
      ).toBe(MP_ERRCODE.INVALID_OPENID)
      expect(
        error(sandbox.userInfo({ access_token: 'unknown', openid: full.openid }, avatar)).errcode,
      ).toBe(MP_ERRCODE.INVALID_CREDENTIAL)
      clock.advance(2 * 60 * MINUTE)
      expect(
        error(sandbox.userInfo({ access_token: full.access_token, openid: full.openid }, avatar))
          .errcode,
      ).toBe(MP_ERRCODE.ACCESS_TOKEN_EXPIRED)
    })
  })

  describe('access tokens and tickets', () => {
    const ticketOf = (accessToken: string) =>
      sandbox.ticket({ access_token: accessToken, type: 'jsapi' })

    it('issue a token for our credentials only, and count each issue', () => {
      expect(sandbox.issued()).toEqual({ tokens: 0, tickets: 0 })
      const token = basicToken()
      value(ticketOf(token))
      expect(sandbox.issued()).toEqual({ tokens: 1, tickets: 1 })
      expect(
        error(
          sandbox.accessToken({
            grant_type: 'client_credential',
            appid: account.appId,
            secret: 'x',
          }),
        ).errcode,
      ).toBe(MP_ERRCODE.INVALID_APPSECRET)
      expect(sandbox.issued()).toEqual({ tokens: 1, tickets: 1 })
    })

    it('keep the previous token valid five more minutes after a new one, then refuse it', () => {
      const first = basicToken()
      clock.advance(10 * MINUTE)
      const second = basicToken()
      clock.advance(5 * MINUTE - 1)
      expect(ticketOf(first).ok).toBe(true)
      clock.advance(1)
      expect(error(ticketOf(first)).errcode).toBe(MP_ERRCODE.ACCESS_TOKEN_EXPIRED)
      expect(ticketOf(second).ok).toBe(true)
      expect(error(ticketOf('never-issued')).errcode).toBe(MP_ERRCODE.INVALID_CREDENTIAL)
    })

    it('expire a token after 7200 seconds', () => {
      const token = basicToken()
      clock.advance(7200_000 - 1)
      expect(ticketOf(token).ok).toBe(true)
      clock.advance(1)
      expect(error(ticketOf(token)).errcode).toBe(MP_ERRCODE.ACCESS_TOKEN_EXPIRED)
    })

    it('answer a ticket as the platform does, jsapi type only', () => {
      const token = basicToken()
      expect(value(ticketOf(token))).toMatchObject({ errcode: 0, errmsg: 'ok', expires_in: 7200 })
      expect(error(sandbox.ticket({ access_token: token, type: 'wx_card' })).errcode).toBe(
        MP_ERRCODE.INVALID_ARGS,
      )
    })
  })

  describe('preverify', () => {
    const url = 'http://shop.test:8080/items/7?from=share#top'
    const signed = (ticket: string, overrides: Partial<{ url: string; appId: string }> = {}) => {
      const timestamp = Math.floor(clock.now() / 1000)
      const nonceStr = 'Wm3WZYTPz0wzccnW'
      const pageUrl = overrides.url ?? url
      return {
        appId: overrides.appId ?? account.appId,
        timestamp,
        nonceStr,
        url: pageUrl,
        signature: jssdkSignature({ ticket, nonceStr, timestamp, url: pageUrl }),
        jsApiList: ['updateAppMessageShareData'],
      }
    }
    const newTicket = () =>
      value(sandbox.ticket({ access_token: basicToken(), type: 'jsapi' })).ticket

    it('accepts a signature made with a valid ticket, refuses a tampered one', () => {
      const ticket = newTicket()
      expect(sandbox.preverify(signed(ticket), 'shop.test')).toEqual({ err_msg: 'config:ok' })
      const tampered = { ...signed(ticket), nonceStr: 'other' }
      expect(sandbox.preverify(tampered, 'shop.test')).toEqual({
        err_msg: 'config:invalid signature',
      })
      expect(sandbox.preverify(signed('made-up'), 'shop.test').err_msg).toBe(
        'config:invalid signature',
      )
      expect(sandbox.preverify(signed(ticket, { appId: 'wxother' }), 'shop.test').err_msg).toBe(
        'config:invalid signature',
      )
    })

    it('honours the ticket overlap and expiry', () => {
      const first = newTicket()
      clock.advance(MINUTE)
      newTicket()
      clock.advance(5 * MINUTE - 1)
      expect(sandbox.preverify(signed(first), 'shop.test').err_msg).toBe('config:ok')
      clock.advance(1)
      expect(sandbox.preverify(signed(first), 'shop.test').err_msg).toBe('config:invalid signature')
    })

    it('refuses a page on another domain', () => {
      const ticket = newTicket()
      const elsewhere = signed(ticket, { url: 'http://evil.test/items/7' })
      expect(sandbox.preverify(elsewhere, 'shop.test').err_msg).toBe('config:invalid url domain')
    })
  })
})
