import { z } from 'zod'
import { LoginResultSchema } from './passport'

/**
 * The messaging platform inside whose browser the shop also runs (spec §2, §3, §7; DESIGN §7):
 * sign-in by its OAuth (scope `snsapi_userinfo`), JS-SDK sharing signed by our server, and JSAPI
 * pay (contracts/payment). The platform's own protocol (authorize page, `sns/oauth2/access_token`,
 * `sns/userinfo`, `cgi-bin/token`, `cgi-bin/ticket/getticket`) is spoken by the server only and
 * lives in `apps/server/src/modules/wechat`; these are the calls between our page and our server.
 */

// The OAuth scope and our callback path are in ./in-app (no zod: the guard reads them).

/**
 * `GET /h5/auth/getWxOpenId/{code}` (main service, signed like every call): exchanges the code the
 * platform's authorize page handed back — once; a second exchange of the same code is
 * `WX_CODE_INVALID`. An open id already linked to an account signs that account in (the login
 * cookies are set, as by `/passport/login`); a first-time open id gets a short-lived `bindToken`
 * for `POST /passport/wx-bind`, where a mobile number and its SMS code finish the sign-in and link
 * the two for next time.
 */
export const WxOpenIdParamsSchema = z.object({ code: z.string().min(1).max(128) })

export const WxOpenIdResultSchema = z.discriminatedUnion('linked', [
  z.object({
    linked: z.literal(true),
    openid: z.string(),
    login: LoginResultSchema,
  }),
  z.object({
    linked: z.literal(false),
    openid: z.string(),
    /** For `POST /passport/wx-bind`, good for {@link WX_BIND_TOKEN_TTL_SECONDS}. */
    bindToken: z.string(),
    /** The platform's nickname and avatar, to greet the user on the binding screen. */
    nickname: z.string(),
    avatar: z.string(),
  }),
])
export type WxOpenIdResult = z.infer<typeof WxOpenIdResultSchema>

export const WX_BIND_TOKEN_TTL_SECONDS = 15 * 60

/** `POST /passport/wx-bind`: the login of `/passport/login` plus the token naming the open id. */
export const WxBindRequestSchema = z.object({
  bindToken: z.string().min(1).max(128),
  mobile: z.string().regex(/^1\d{10}$/),
  code: z.string().regex(/^\d{6}$/),
  agreement: z.literal(true),
})
export type WxBindRequest = z.infer<typeof WxBindRequestSchema>

/**
 * `GET /h5/wechat/jsapi-signature?url=` (main service, signed): the JS-SDK `wx.config` signature
 * for one page URL — sha1 over `jsapi_ticket`, `noncestr`, `timestamp` and `url` (the page's URL
 * without its hash), keys sorted (spec §3 "Share signature response"). Only a web page's URL
 * (http or https) is signed: the platform's JS-SDK runs on nothing else.
 */
export const ShareSignatureQuerySchema = z.object({
  url: z.url({ protocol: /^https?$/ }).max(2048),
})
export const ShareSignatureSchema = z.object({
  appid: z.string(),
  /** Seconds since the epoch, as the JS-SDK wants it. */
  timestamp: z.number().int(),
  nonceStr: z.string(),
  signature: z.string().regex(/^[0-9a-f]{40}$/),
})
export type ShareSignature = z.infer<typeof ShareSignatureSchema>

/** The JS-SDK calls a shop page is allowed (`wx.config` `jsApiList`). */
export const WX_JS_API_LIST = [
  'updateAppMessageShareData',
  'updateTimelineShareData',
  'chooseWXPay',
] as const
