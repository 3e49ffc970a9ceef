import type { z } from 'zod'
import type { WechatMpSettings } from '../../platform/config'
import { AppError } from '../../platform/errors'
import {
  AccessTokenSchema,
  MP_ERRCODE,
  MP_PATHS,
  MP_STALE_TOKEN_CODES,
  type MpError,
  MpUserInfoSchema,
  parseMpReply,
  TicketSchema,
  WebAccessTokenSchema,
} from './mp-protocol'

/**
 * Sends one GET to the platform's API (`path` below its base, e.g. `/sns/userinfo`) and returns the
 * reply's body. Over HTTP in a running server; tests that drive the app with `inject` route it to
 * the sandbox through `inject` instead (the pattern of payments' WechatPayTransport).
 */
export type WechatMpTransport = (path: string, query: URLSearchParams) => Promise<string>

/** The platform's replies take well under a second; a stuck one must not hold a sign-in. */
export const MP_TIMEOUT_MS = 8_000

/** A transport over HTTP to `base()` (read per call), failing after `timeoutMs`. */
export function httpMpTransport(base: () => string, timeoutMs = MP_TIMEOUT_MS): WechatMpTransport {
  return async (path, query) => {
    const response = await fetch(`${base()}${path}?${query.toString()}`, {
      signal: AbortSignal.timeout(timeoutMs),
    })
    if (!response.ok) throw new Error(`platform answered HTTP ${response.status}`)
    return response.text()
  }
}

/** Where the platform sandbox is mounted on a server that runs it. */
export const WX_SANDBOX_PREFIX = '/svc/sandbox/wx'

/** What a code exchange gives: who the user is and what they let us read. */
export interface CodeExchange {
  openid: string
  accessToken: string
  scopes: string[]
  unionid: string | undefined
}

/** A server-wide credential with its lifetime as the platform stated it. */
export interface Expiring {
  value: string
  expiresInSeconds: number
}

/** The platform refused a basic access token as superseded or expired: fetch a new one. */
export class StaleAccessTokenError extends Error {
  constructor(readonly errcode: number) {
    super(`access token refused (${errcode})`)
    this.name = 'StaleAccessTokenError'
  }
}

const CODE_REFUSALS: ReadonlySet<number> = new Set([
  MP_ERRCODE.INVALID_CODE,
  MP_ERRCODE.CODE_BEEN_USED,
])

/**
 * Our side of the official account's API (mp-protocol.ts): the web authorisation's code exchange
 * and user info, and the basic access token and JS-SDK ticket. A refused code is WX_CODE_INVALID;
 * anything else going wrong — unreachable, timed out, HTTP error, an unexpected reply or error
 * code — is WX_UNAVAILABLE (503), so a page can say "try again later".
 */
export class WechatMpClient {
  constructor(
    private readonly account: { appId: string; secret: string },
    private readonly transport: WechatMpTransport,
  ) {}

  get appId(): string {
    return this.account.appId
  }

  async exchangeCode(code: string): Promise<CodeExchange> {
    const reply = await this.get(WebAccessTokenSchema, MP_PATHS.webAccessToken, {
      appid: this.account.appId,
      secret: this.account.secret,
      code,
      grant_type: 'authorization_code',
    })
    if (!reply.ok) {
      if (CODE_REFUSALS.has(reply.error.errcode)) throw new AppError('WX_CODE_INVALID')
      throw unavailable(reply.error)
    }
    const { openid, access_token: accessToken, scope, unionid } = reply.value
    return { openid, accessToken, scopes: scope.split(','), unionid }
  }

  /** The profile behind a web access token of scope `snsapi_userinfo`. */
  async userInfo(accessToken: string, openid: string) {
    const reply = await this.get(MpUserInfoSchema, MP_PATHS.userInfo, {
      access_token: accessToken,
      openid,
      lang: 'zh_CN',
    })
    if (!reply.ok) throw unavailable(reply.error)
    return reply.value
  }

  /** `cgi-bin/token`: the basic API's access token (client credential). */
  async accessToken(): Promise<Expiring> {
    const reply = await this.get(AccessTokenSchema, MP_PATHS.accessToken, {
      grant_type: 'client_credential',
      appid: this.account.appId,
      secret: this.account.secret,
    })
    if (!reply.ok) throw unavailable(reply.error)
    return { value: reply.value.access_token, expiresInSeconds: reply.value.expires_in }
  }

  /** `getticket`; StaleAccessTokenError when the platform no longer takes `accessToken`. */
  async jsapiTicket(accessToken: string): Promise<Expiring> {
    const reply = await this.get(TicketSchema, MP_PATHS.ticket, {
      access_token: accessToken,
      type: 'jsapi',
    })
    if (!reply.ok) {
      if (MP_STALE_TOKEN_CODES.has(reply.error.errcode)) {
        throw new StaleAccessTokenError(reply.error.errcode)
      }
      throw unavailable(reply.error)
    }
    return { value: reply.value.ticket, expiresInSeconds: reply.value.expires_in }
  }

  private async get<T>(schema: z.ZodType<T>, path: string, query: Record<string, string>) {
    let body: string
    try {
      body = await this.transport(path, new URLSearchParams(query))
    } catch (error) {
      throw new AppError('WX_UNAVAILABLE', { reason: 'unreachable', cause: String(error) })
    }
    try {
      return parseMpReply(schema, JSON.parse(body) as unknown)
    } catch {
      throw new AppError('WX_UNAVAILABLE', { reason: 'unreadable reply' })
    }
  }
}

function unavailable(error: MpError): AppError {
  return new AppError('WX_UNAVAILABLE', { errcode: error.errcode, errmsg: error.errmsg })
}

/**
 * The client for the configured official account: the real platform at `apiBase`, or this
 * server's sandbox (over HTTP on its own port unless a transport is given). Without a secret, or
 * with neither an API base nor a sandbox, sign-in and sharing are off (null).
 */
export function wechatMpClient(
  settings: WechatMpSettings & { transport?: WechatMpTransport | undefined },
  self: () => string,
): WechatMpClient | null {
  const { secret, apiBase, sandbox } = settings
  if (secret === undefined || (apiBase === undefined && !sandbox)) return null
  return new WechatMpClient(
    { appId: settings.appId, secret },
    settings.transport ?? httpMpTransport(() => apiBase ?? `${self()}${WX_SANDBOX_PREFIX}`),
  )
}

/** The authorize page the web app sends the user to (client config), absolute or this server's. */
export function authorizePageUrl(settings: WechatMpSettings): string {
  return `${settings.oauthBase?.replace(/\/$/, '') ?? WX_SANDBOX_PREFIX}${MP_PATHS.authorize}`
}
