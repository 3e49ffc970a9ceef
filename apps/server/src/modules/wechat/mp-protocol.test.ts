import { describe, expect, it } from 'vitest'
import {
  authorizeUrl,
  MP_ERRCODE,
  mpError,
  parseMpReply,
  TicketSchema,
  WebAccessTokenSchema,
} from './mp-protocol'

describe('mp-protocol', () => {
  it('builds the authorize URL with the redirect encoded once and the wechat_redirect fragment', () => {
    const url = authorizeUrl('https://open.example/', {
      appid: 'wx1',
      redirectUri: 'https://shop.example/wx/callback?to=/a&b=1',
      scope: 'snsapi_userinfo',
      state: 's1',
    })
    expect(url).toBe(
      'https://open.example/connect/oauth2/authorize?appid=wx1' +
        '&redirect_uri=https%3A%2F%2Fshop.example%2Fwx%2Fcallback%3Fto%3D%2Fa%26b%3D1' +
        '&response_type=code&scope=snsapi_userinfo&state=s1#wechat_redirect',
    )
  })

  it('writes errors as the platform does, with its request id', () => {
    expect(mpError(MP_ERRCODE.CODE_BEEN_USED)).toEqual({ errcode: 40163, errmsg: 'code been used' })
    expect(mpError(MP_ERRCODE.INVALID_CODE, 'abc').errmsg).toBe('invalid code, rid: abc')
  })

  it('tells an error reply from a success, and getticket’s errcode 0 is a success', () => {
    expect(parseMpReply(WebAccessTokenSchema, { errcode: 40029, errmsg: 'invalid code' })).toEqual({
      ok: false,
      error: { errcode: 40029, errmsg: 'invalid code' },
    })
    const ticket = { errcode: 0, errmsg: 'ok', ticket: 't', expires_in: 7200 }
    expect(parseMpReply(TicketSchema, ticket)).toEqual({ ok: true, value: ticket })
    expect(() => parseMpReply(WebAccessTokenSchema, { hello: 1 })).toThrow()
  })
})
