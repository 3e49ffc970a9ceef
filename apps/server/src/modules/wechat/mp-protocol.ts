import { z } from 'zod'

/**
 * The messaging platform's official-account protocol on the wire (DESIGN §7): web authorisation
 * (网页授权: authorize page → `code` → web access token and open id → user info) and the basic
 * API's access token and JS-SDK ticket. Our client (wechat/…) and the platform sandbox
 * (sandbox/mp-*.ts) both speak it from these shapes, so the two cannot drift apart. Replies are
 * JSON; an error is `{errcode, errmsg}` with the platform's codes below, a success has no
 * `errcode` — except `getticket`, which always carries `errcode: 0, errmsg: 'ok'`.
 */

/** Paths under the platform's hosts (authorize under the OAuth base, the rest under the API base). */
export const MP_PATHS = {
  authorize: '/connect/oauth2/authorize',
  webAccessToken: '/sns/oauth2/access_token',
  userInfo: '/sns/userinfo',
  accessToken: '/cgi-bin/token',
  ticket: '/cgi-bin/ticket/getticket',
} as const

/** `snsapi_base`: the open id only, silently; `snsapi_userinfo`: the profile too, after consent. */
export const MP_SCOPES = ['snsapi_base', 'snsapi_userinfo'] as const
export const MpScopeSchema = z.enum(MP_SCOPES)
export type MpScope = z.infer<typeof MpScopeSchema>

/** The authorize URL ends in this fragment; the platform's page refuses one without it. */
export const MP_AUTHORIZE_FRAGMENT = '#wechat_redirect'

/** Lifetimes the platform states: a code 5 minutes, single use; tokens and tickets 2 hours. */
export const MP_CODE_TTL_SECONDS = 5 * 60
export const MP_TOKEN_TTL_SECONDS = 7200
/** After a new access token or ticket is issued the previous one stays valid this long. */
export const MP_OVERLAP_SECONDS = 5 * 60

/** The platform's global return codes (全局返回码) this protocol can answer. */
export const MP_ERRCODE = {
  SYSTEM_BUSY: -1,
  /** Also what a stale (superseded, past the overlap) basic access token answers. */
  INVALID_CREDENTIAL: 40001,
  INVALID_GRANT_TYPE: 40002,
  INVALID_OPENID: 40003,
  INVALID_APPID: 40013,
  INVALID_ACCESS_TOKEN: 40014,
  INVALID_CODE: 40029,
  INVALID_ARGS: 40097,
  INVALID_APPSECRET: 40125,
  CODE_BEEN_USED: 40163,
  ACCESS_TOKEN_MISSING: 41001,
  APPID_MISSING: 41002,
  APPSECRET_MISSING: 41004,
  CODE_MISSING: 41008,
  OPENID_MISSING: 41009,
  ACCESS_TOKEN_EXPIRED: 42001,
  API_UNAUTHORIZED: 48001,
} as const
export type MpErrcode = (typeof MP_ERRCODE)[keyof typeof MP_ERRCODE]

/** The platform's `errmsg` for each code (it appends `, rid: …`, a request id, to each). */
export const MP_ERRMSG: Record<MpErrcode, string> = {
  [MP_ERRCODE.SYSTEM_BUSY]: 'system error',
  [MP_ERRCODE.INVALID_CREDENTIAL]: 'invalid credential, access_token is invalid or not latest',
  [MP_ERRCODE.INVALID_GRANT_TYPE]: 'invalid grant_type',
  [MP_ERRCODE.INVALID_OPENID]: 'invalid openid',
  [MP_ERRCODE.INVALID_APPID]: 'invalid appid',
  [MP_ERRCODE.INVALID_ACCESS_TOKEN]: 'invalid access_token',
  [MP_ERRCODE.INVALID_CODE]: 'invalid code',
  [MP_ERRCODE.INVALID_ARGS]: 'invalid args',
  [MP_ERRCODE.INVALID_APPSECRET]: 'invalid appsecret',
  [MP_ERRCODE.CODE_BEEN_USED]: 'code been used',
  [MP_ERRCODE.ACCESS_TOKEN_MISSING]: 'access_token missing',
  [MP_ERRCODE.APPID_MISSING]: 'appid missing',
  [MP_ERRCODE.APPSECRET_MISSING]: 'appsecret missing',
  [MP_ERRCODE.CODE_MISSING]: 'code missing',
  [MP_ERRCODE.OPENID_MISSING]: 'openid missing',
  [MP_ERRCODE.ACCESS_TOKEN_EXPIRED]: 'access_token expired',
  [MP_ERRCODE.API_UNAUTHORIZED]: 'api unauthorized',
}

/**
 * Codes after which a cached basic access token must be dropped and a new one fetched (it was
 * superseded, expired or never valid); a client retries once with a fresh one.
 */
export const MP_STALE_TOKEN_CODES: ReadonlySet<number> = new Set([
  MP_ERRCODE.INVALID_CREDENTIAL,
  MP_ERRCODE.INVALID_ACCESS_TOKEN,
  MP_ERRCODE.ACCESS_TOKEN_EXPIRED,
])

export const MpErrorSchema = z.object({
  errcode: z.number().int(),
  errmsg: z.string(),
})
export type MpError = z.infer<typeof MpErrorSchema>

/** An error reply, as the platform writes it. */
export function mpError(errcode: MpErrcode, rid?: string): MpError {
  const message = MP_ERRMSG[errcode]
  return { errcode, errmsg: rid ? `${message}, rid: ${rid}` : message }
}

/** `GET /connect/oauth2/authorize` (the user's browser, not the server). */
export const AuthorizeQuerySchema = z.object({
  appid: z.string(),
  redirect_uri: z.string(),
  response_type: z.literal('code'),
  scope: MpScopeSchema,
  state: z.string().max(128).optional(),
  forcePopup: z.string().optional(),
})
export type AuthorizeQuery = z.infer<typeof AuthorizeQuerySchema>

/** The URL to send the user to; `redirect_uri` is URL-encoded once, as the platform asks. */
export function authorizeUrl(
  oauthBase: string,
  query: { appid: string; redirectUri: string; scope: MpScope; state?: string },
): string {
  const params = new URLSearchParams({
    appid: query.appid,
    redirect_uri: query.redirectUri,
    response_type: 'code',
    scope: query.scope,
  })
  if (query.state !== undefined) params.set('state', query.state)
  return `${oauthBase.replace(/\/$/, '')}${MP_PATHS.authorize}?${params.toString()}${MP_AUTHORIZE_FRAGMENT}`
}

/** `GET /sns/oauth2/access_token`. */
export const WebAccessTokenQuerySchema = z.object({
  appid: z.string(),
  secret: z.string(),
  code: z.string(),
  grant_type: z.literal('authorization_code'),
})
export type WebAccessTokenQuery = z.infer<typeof WebAccessTokenQuerySchema>

export const WebAccessTokenSchema = z.object({
  access_token: z.string(),
  expires_in: z.number().int(),
  refresh_token: z.string(),
  openid: z.string(),
  /** Comma-separated scopes the user granted. */
  scope: z.string(),
  /** Only when the account is bound to an open-platform account. */
  unionid: z.string().optional(),
  is_snapshotuser: z.number().int().optional(),
})
export type WebAccessToken = z.infer<typeof WebAccessTokenSchema>

/** `GET /sns/userinfo` (web access token of scope `snsapi_userinfo`). */
export const UserInfoQuerySchema = z.object({
  access_token: z.string(),
  openid: z.string(),
  lang: z.enum(['zh_CN', 'zh_TW', 'en']).optional(),
})
export type UserInfoQuery = z.infer<typeof UserInfoQuerySchema>

export const MpUserInfoSchema = z.object({
  openid: z.string(),
  nickname: z.string(),
  /** 1 male, 2 female, 0 unknown (the platform now always answers 0). */
  sex: z.number().int(),
  province: z.string(),
  city: z.string(),
  country: z.string(),
  /** May be empty: the user has no avatar. */
  headimgurl: z.string(),
  privilege: z.array(z.string()),
  unionid: z.string().optional(),
})
export type MpUserInfo = z.infer<typeof MpUserInfoSchema>

/** `GET /cgi-bin/token` (the basic API's access token; the server's, not a user's). */
export const AccessTokenQuerySchema = z.object({
  grant_type: z.literal('client_credential'),
  appid: z.string(),
  secret: z.string(),
})
export type AccessTokenQuery = z.infer<typeof AccessTokenQuerySchema>

export const AccessTokenSchema = z.object({
  access_token: z.string(),
  expires_in: z.number().int(),
})
export type AccessToken = z.infer<typeof AccessTokenSchema>

/** `GET /cgi-bin/ticket/getticket` (the JS-SDK ticket `wx.config` signatures are made with). */
export const TicketQuerySchema = z.object({
  access_token: z.string(),
  type: z.literal('jsapi'),
})
export type TicketQuery = z.infer<typeof TicketQuerySchema>

export const TicketSchema = z.object({
  errcode: z.literal(0),
  errmsg: z.literal('ok'),
  ticket: z.string(),
  expires_in: z.number().int(),
})
export type Ticket = z.infer<typeof TicketSchema>

export type MpReply<T> = { ok: true; value: T } | { ok: false; error: MpError }

/**
 * Reads a reply body: the platform's error when it carries a non-zero `errcode`, else the success
 * shape (throws when it is neither: the platform changed or something else answered).
 */
export function parseMpReply<T>(schema: z.ZodType<T>, body: unknown): MpReply<T> {
  const error = MpErrorSchema.safeParse(body)
  if (error.success && error.data.errcode !== 0) return { ok: false, error: error.data }
  return { ok: true, value: schema.parse(body) }
}

/**
 * The messaging app's own check of a `wx.config` (it asks the platform, then answers the page's
 * JS-SDK with `config:ok` or an error). Only the sandbox exposes it, at `POST /jssdk/preverify`,
 * so the simulated app in the end-to-end tests can answer as the real one would.
 */
export const PreverifyRequestSchema = z.object({
  appId: z.string(),
  timestamp: z.union([z.number().int(), z.string().regex(/^\d+$/)]),
  nonceStr: z.string(),
  signature: z.string(),
  url: z.string(),
  jsApiList: z.array(z.string()).default([]),
})
export type PreverifyRequest = z.infer<typeof PreverifyRequestSchema>

export const PREVERIFY_OK = 'config:ok'
export const PREVERIFY_INVALID_SIGNATURE = 'config:invalid signature'
export const PREVERIFY_INVALID_URL = 'config:invalid url domain'
export const PreverifyResultSchema = z.object({ err_msg: z.string() })
export type PreverifyResult = z.infer<typeof PreverifyResultSchema>
