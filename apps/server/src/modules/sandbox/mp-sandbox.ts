import { createHmac, randomBytes } from 'node:crypto'
import type { Clock } from '../../platform/clock'
import { jssdkSignature } from '../wechat/jssdk-signature'
import {
  type AccessToken,
  type AccessTokenQuery,
  MP_CODE_TTL_SECONDS,
  MP_ERRCODE,
  MP_OVERLAP_SECONDS,
  MP_TOKEN_TTL_SECONDS,
  type MpError,
  mpError,
  type MpErrcode,
  type MpScope,
  type MpUserInfo,
  PREVERIFY_INVALID_SIGNATURE,
  PREVERIFY_INVALID_URL,
  PREVERIFY_OK,
  type PreverifyRequest,
  type PreverifyResult,
  type Ticket,
  type TicketQuery,
  type UserInfoQuery,
  type WebAccessToken,
  type WebAccessTokenQuery,
} from '../wechat/mp-protocol'

/** The official account the sandbox knows (the same settings our client asks with). */
export interface SandboxAccount {
  appId: string
  secret: string
  /** Shown on the consent page, as the platform shows the account's name. */
  name: string
}

/** The account's name on the sandbox's consent page (the shop's, as the platform shows it). */
export const MP_SANDBOX_ACCOUNT_NAME = '泉藏拍卖'

/** The longest tester name the consent page takes (the platform's nicknames are short too). */
export const SANDBOX_IDENTITY_MAX = 32

const SECOND = 1000
const CODE_TTL_MS = MP_CODE_TTL_SECONDS * SECOND
const TOKEN_TTL_MS = MP_TOKEN_TTL_SECONDS * SECOND
const OVERLAP_MS = MP_OVERLAP_SECONDS * SECOND
/** A web access token is good for two hours, as the platform's. */
const WEB_TOKEN_TTL_MS = 2 * 60 * 60 * SECOND
/** A used or lapsed code, or a lapsed token, is remembered this long to answer "used"/"expired". */
const REMEMBER_LAPSED_MS = 24 * 60 * 60 * SECOND
/** Entries kept in memory at most per kind; the oldest go first (a sandbox, not a store). */
const MAX_ENTRIES = 10_000

/**
 * Open ids: `o` + 27 base64url characters, as long as the platform's. The first 18 come from the
 * app id and the tester's name (the same tester always gets the same open id under one app, as on
 * the platform), the last 9 are a tag over the app id and those 18 — so the pay sandbox can tell
 * an open id this sandbox issued for an app from any other string without shared state, and one
 * stays valid across restarts (accounts linked to it in the database keep paying).
 */
const OPENID_KEY = 'numisma-mp-sandbox-openid'

function base64urlHmac(message: string): string {
  return createHmac('sha256', OPENID_KEY).update(message, 'utf8').digest('base64url')
}

export function sandboxOpenid(appId: string, identity: string): string {
  const body = base64urlHmac(`user\n${appId}\n${identity}`).slice(0, 18)
  return `o${body}${base64urlHmac(`tag\n${appId}\n${body}`).slice(0, 9)}`
}

/** Whether the sandbox issued this open id under this app (the pay sandbox's `openid` check). */
export function isSandboxOpenid(appId: string, openid: string): boolean {
  const m = /^o([\w-]{18})([\w-]{9})$/.exec(openid)
  return m !== null && base64urlHmac(`tag\n${appId}\n${m[1]}`).slice(0, 9) === m[2]
}

/** The platform's request id, appended to each error message (`…, rid: 6583f22d-35b1b023-…`). */
const rid = (): string =>
  [randomBytes(4), randomBytes(4), randomBytes(4)].map((b) => b.toString('hex')).join('-')

/** A request's parameters as sent: any may be missing or wrong, and the platform's code says so. */
type Sent<T> = Partial<Record<keyof T, string>>

const fail = (errcode: MpErrcode): MpError => mpError(errcode, rid())

export type MpResult<T> = { ok: true; value: T } | { ok: false; error: MpError }
const ok = <T>(value: T): MpResult<T> => ({ ok: true, value })
const no = <T>(errcode: MpErrcode): MpResult<T> => ({ ok: false, error: fail(errcode) })

interface CodeEntry {
  appId: string
  openid: string
  identity: string
  scope: MpScope
  expiresAt: number
  used: boolean
}

interface WebTokenEntry {
  appId: string
  openid: string
  identity: string
  scope: MpScope
  expiresAt: number
}

/** A basic access token or a jsapi ticket: valid until `expiresAt` (cut short when superseded). */
interface Credential {
  value: string
  appId: string
  expiresAt: number
}

/** Why the authorize page cannot go on (the platform shows such a page instead of redirecting). */
/** `origin`: the consent was not posted from the sandbox's own page (routes check it). */
export type AuthorizeProblem = 'appid' | 'redirect_uri' | 'response_type' | 'scope' | 'origin'

/**
 * A local stand-in for the messaging platform's official-account protocol (DESIGN §7, ADR 013's
 * pattern for pay): web authorisation (consent → single-use code → web access token and open id →
 * user info), the basic API's access token and the JS-SDK's jsapi ticket, and the check the
 * messaging app makes of a page's `wx.config`. It answers in the platform's shapes and codes
 * (wechat/mp-protocol.ts), so the client that talks to it talks to the platform unchanged. State
 * lives in memory — a development tool for one process — and lapsed entries are swept as it goes.
 */
export class MpSandbox {
  private readonly codes = new Map<string, CodeEntry>()
  private readonly webTokens = new Map<string, WebTokenEntry>()
  private readonly tokens = new Map<string, Credential>()
  private readonly tickets = new Map<string, Credential>()
  private issuedTokens = 0
  private issuedTickets = 0
  private lastSweep = 0

  constructor(
    private readonly account: SandboxAccount,
    private readonly clock: Clock,
  ) {}

  get appId(): string {
    return this.account.appId
  }

  get appName(): string {
    return this.account.name
  }

  /** How many basic access tokens and jsapi tickets were issued (tests prove a client caches). */
  issued(): { tokens: number; tickets: number } {
    return { tokens: this.issuedTokens, tickets: this.issuedTickets }
  }

  /**
   * The authorize page's checks, in the platform's order: the app, then the redirect's host against
   * the account's 网页授权域名 (here: the host the request came to), then the response type
   * (`code`, the only one) and the scope.
   */
  authorizeProblem(
    query: { appid?: string; redirect_uri?: string; response_type?: string; scope?: string },
    requestHostname: string,
  ): AuthorizeProblem | null {
    if (query.appid !== this.account.appId) return 'appid'
    const redirect = parseHttpUrl(query.redirect_uri)
    if (!redirect || redirect.hostname !== requestHostname.replace(/:\d+$/, '')) {
      return 'redirect_uri'
    }
    if (query.response_type !== 'code') return 'response_type'
    if (query.scope !== 'snsapi_base' && query.scope !== 'snsapi_userinfo') return 'scope'
    return null
  }

  openidOf(identity: string): string {
    return sandboxOpenid(this.account.appId, identity)
  }

  /** The tester allowed (or, for `snsapi_base`, was known): a code for the redirect. */
  issueCode(identity: string, scope: MpScope): string {
    const now = this.sweep()
    const code = randomBytes(16).toString('base64url')
    trim(this.codes)
    this.codes.set(code, {
      appId: this.account.appId,
      openid: this.openidOf(identity),
      identity,
      scope,
      expiresAt: now + CODE_TTL_MS,
      used: false,
    })
    return code
  }

  /** `GET /sns/oauth2/access_token`: a code, once, within five minutes. */
  webAccessToken(query: Sent<WebAccessTokenQuery>): MpResult<WebAccessToken> {
    const now = this.sweep()
    const credentials = this.checkApp(query.appid, query.secret)
    if (credentials !== null) return no(credentials)
    if (query.grant_type !== 'authorization_code') return no(MP_ERRCODE.INVALID_GRANT_TYPE)
    if (!query.code) return no(MP_ERRCODE.CODE_MISSING)
    const entry = this.codes.get(query.code)
    if (!entry || entry.appId !== query.appid) return no(MP_ERRCODE.INVALID_CODE)
    // A used code is remembered (until swept, a day after it lapsed) to say so.
    if (entry.used) return no(MP_ERRCODE.CODE_BEEN_USED)
    if (entry.expiresAt <= now) return no(MP_ERRCODE.INVALID_CODE)
    entry.used = true
    const accessToken = randomBytes(24).toString('base64url')
    trim(this.webTokens)
    this.webTokens.set(accessToken, {
      appId: entry.appId,
      openid: entry.openid,
      identity: entry.identity,
      scope: entry.scope,
      expiresAt: now + WEB_TOKEN_TTL_MS,
    })
    return ok({
      access_token: accessToken,
      expires_in: WEB_TOKEN_TTL_MS / SECOND,
      refresh_token: randomBytes(24).toString('base64url'),
      openid: entry.openid,
      scope: entry.scope,
    })
  }

  /** `GET /sns/userinfo`: the profile, for a web access token of scope `snsapi_userinfo`. */
  userInfo(
    query: Sent<UserInfoQuery>,
    avatarUrl: (openid: string) => string,
  ): MpResult<MpUserInfo> {
    const now = this.sweep()
    if (!query.access_token) return no(MP_ERRCODE.ACCESS_TOKEN_MISSING)
    const entry = this.webTokens.get(query.access_token)
    if (!entry) return no(MP_ERRCODE.INVALID_CREDENTIAL)
    if (entry.expiresAt <= now) return no(MP_ERRCODE.ACCESS_TOKEN_EXPIRED)
    if (!query.openid) return no(MP_ERRCODE.OPENID_MISSING)
    if (query.openid !== entry.openid) return no(MP_ERRCODE.INVALID_OPENID)
    if (entry.scope !== 'snsapi_userinfo') return no(MP_ERRCODE.API_UNAUTHORIZED)
    return ok({
      openid: entry.openid,
      nickname: entry.identity,
      // The platform stopped telling sex and place (2021): 0 and empty, as it answers now.
      sex: 0,
      province: '',
      city: '',
      country: '',
      headimgurl: avatarUrl(entry.openid),
      privilege: [],
    })
  }

  /**
   * `GET /cgi-bin/token`: a new access token each call; the previous one stays good for five more
   * minutes (the platform's rule, so servers can roll over without failing calls in flight).
   */
  accessToken(query: Sent<AccessTokenQuery>): MpResult<AccessToken> {
    const now = this.sweep()
    if (query.grant_type !== 'client_credential') return no(MP_ERRCODE.INVALID_GRANT_TYPE)
    const credentials = this.checkApp(query.appid, query.secret)
    if (credentials !== null) return no(credentials)
    const token = this.issue(this.tokens, query.appid!, now, 48)
    this.issuedTokens += 1
    return ok({ access_token: token.value, expires_in: MP_TOKEN_TTL_SECONDS })
  }

  /** `GET /cgi-bin/ticket/getticket?type=jsapi`: as tokens, a new ticket with a five-minute overlap. */
  ticket(query: Sent<TicketQuery>): MpResult<Ticket> {
    const now = this.sweep()
    const token = this.checkToken(query.access_token, now)
    if ('errcode' in token) return { ok: false, error: token }
    if (query.type !== 'jsapi') return no(MP_ERRCODE.INVALID_ARGS)
    const ticket = this.issue(this.tickets, token.appId, now, 64)
    this.issuedTickets += 1
    return ok({ errcode: 0, errmsg: 'ok', ticket: ticket.value, expires_in: MP_TOKEN_TTL_SECONDS })
  }

  /**
   * The messaging app's check of a `wx.config`: the page's URL must be on a JS-SDK safe domain
   * (here: the host the check came to) and the signature made with a ticket of this app that is
   * valid now. Answers as the app answers the page's JS-SDK.
   */
  preverify(request: PreverifyRequest, requestHostname: string): PreverifyResult {
    const now = this.sweep()
    const url = parseHttpUrl(request.url)
    if (!url || url.hostname !== requestHostname.replace(/:\d+$/, '')) {
      return { err_msg: PREVERIFY_INVALID_URL }
    }
    const timestamp = Number(request.timestamp)
    const signature = request.signature.toLowerCase()
    for (const ticket of this.tickets.values()) {
      if (ticket.appId !== request.appId || ticket.expiresAt <= now) continue
      const expected = jssdkSignature({
        ticket: ticket.value,
        nonceStr: request.nonceStr,
        timestamp,
        url: request.url,
      })
      if (expected === signature) return { err_msg: PREVERIFY_OK }
    }
    return { err_msg: PREVERIFY_INVALID_SIGNATURE }
  }

  private checkApp(appId: string | undefined, secret: string | undefined): MpErrcode | null {
    if (!appId) return MP_ERRCODE.APPID_MISSING
    if (appId !== this.account.appId) return MP_ERRCODE.INVALID_APPID
    if (!secret) return MP_ERRCODE.APPSECRET_MISSING
    if (secret !== this.account.secret) return MP_ERRCODE.INVALID_APPSECRET
    return null
  }

  /** The token's credential, or the platform's error for a missing, unknown or lapsed one. */
  private checkToken(value: string | undefined, now: number): Credential | MpError {
    if (!value) return fail(MP_ERRCODE.ACCESS_TOKEN_MISSING)
    const token = this.tokens.get(value)
    if (!token) return fail(MP_ERRCODE.INVALID_CREDENTIAL)
    if (token.expiresAt <= now) return fail(MP_ERRCODE.ACCESS_TOKEN_EXPIRED)
    return token
  }

  /** A new credential; the app's others still valid lapse within the overlap. */
  private issue(
    store: Map<string, Credential>,
    appId: string,
    now: number,
    bytes: number,
  ): Credential {
    for (const other of store.values()) {
      if (other.appId === appId && other.expiresAt > now) {
        other.expiresAt = Math.min(other.expiresAt, now + OVERLAP_MS)
      }
    }
    trim(store)
    const credential = {
      value: randomBytes(bytes).toString('base64url'),
      appId,
      expiresAt: now + TOKEN_TTL_MS,
    }
    store.set(credential.value, credential)
    return credential
  }

  /** Forgets what lapsed long ago (at most once a minute); answers the time now. */
  private sweep(): number {
    const now = this.clock.now()
    if (now - this.lastSweep < 60 * SECOND) return now
    this.lastSweep = now
    const before = now - REMEMBER_LAPSED_MS
    for (const map of [this.codes, this.webTokens, this.tokens, this.tickets] as Map<
      string,
      { expiresAt: number }
    >[]) {
      for (const [key, entry] of map) if (entry.expiresAt <= before) map.delete(key)
    }
    return now
  }
}

function trim(map: Map<string, unknown>): void {
  while (map.size >= MAX_ENTRIES) {
    const oldest = map.keys().next().value
    if (oldest === undefined) break
    map.delete(oldest)
  }
}

function parseHttpUrl(value: string | undefined): URL | null {
  if (!value) return null
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null
  } catch {
    return null
  }
}
