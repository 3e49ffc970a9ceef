import { WX_OAUTH_SCOPE } from '@numisma/contracts/in-app'
import {
  WX_BIND_TOKEN_TTL_SECONDS,
  type ShareSignature,
  type WxBindRequest,
} from '@numisma/contracts/wechat'
import type { Clock } from '../../platform/clock'
import { randomToken, sha256Hex } from '../../platform/crypto'
import { AppError, isAppError } from '../../platform/errors'
import type { Transact, Tx } from '../../platform/transactions'
import type { LoginOutcome } from '../passport/service'
import { jssdkSignature } from './jssdk-signature'
import { StaleAccessTokenError, type WechatMpClient } from './mp-client'
import type { WechatRepository } from './repository'
import type { SharedPlatformTokens } from './shared-tokens'

/** What this module needs of passport (its service, passed in app.ts): every sign-in ends there. */
export interface SignInPort {
  /** Checks and uses up the SMS code (its wrong tries are counted whatever happens next). */
  consumeCode(mobile: string, code: string): Promise<void>
  userForMobile(mobile: string, tx: Tx): Promise<{ id: number; created: boolean }>
  /** The number's account if it has one; nothing is created. */
  userIdOfMobile(mobile: string): Promise<number | undefined>
  welcome(userId: number): Promise<void>
  openSession(userId: number, deviceId: string, tx?: Tx): Promise<LoginOutcome>
}

export interface WechatServiceDeps {
  transact: Transact
  clock: Clock
  repo: Pick<
    WechatRepository,
    | 'claimCode'
    | 'releaseCode'
    | 'linkOfOpenid'
    | 'linkOfUser'
    | 'insertLink'
    | 'insertBindToken'
    | 'bindToken'
    | 'useBindToken'
  >
  /** Null: the official account is not configured (production without a secret). */
  mp: Pick<
    WechatMpClient,
    'appId' | 'exchangeCode' | 'userInfo' | 'accessToken' | 'jsapiTicket'
  > | null
  passport: SignInPort
  tokens: Pick<SharedPlatformTokens, 'get' | 'invalidate'>
}

export type OpenIdOutcome =
  | { linked: true; openid: string; login: LoginOutcome }
  | { linked: false; openid: string; bindToken: string; nickname: string; avatar: string }

/**
 * The open id a user pays with on the platform's sheet (JSAPI pay's `openid`): the port payments
 * is handed in app.ts, so it never reaches into this module's repository.
 */
export function payerOpenid(
  repo: Pick<WechatRepository, 'linkOfUser'>,
): (appId: string, userId: number) => Promise<string | undefined> {
  return async (appId, userId) => (await repo.linkOfUser(appId, userId))?.openid
}

const NO_PROFILE = { nickname: '', headimgurl: '' }

export const ACCESS_TOKEN = 'mp.access_token'
export const JSAPI_TICKET = 'mp.jsapi_ticket'

/**
 * Signing in inside the messaging app and signing its JS-SDK shares (spec §2, §3, §7; ADR 017):
 * an OAuth code is exchanged once; a linked open id signs its account in; a first-time one gets a
 * bind token that, with a mobile number and its SMS code, links the two and signs in.
 */
export class WechatService {
  constructor(private readonly deps: WechatServiceDeps) {}

  private mp() {
    if (!this.deps.mp) throw new AppError('WX_UNAVAILABLE', { reason: 'not configured' })
    return this.deps.mp
  }

  /**
   * `GET /h5/auth/getWxOpenId/{code}`. The code is claimed in the database before the platform
   * hears of it, so a code reaches the platform once however many requests (on however many
   * instances) bring it; every later one is WX_CODE_INVALID. A claim is given back only when the
   * platform could not be asked, so the user's retry can still use the code.
   */
  async openIdFor(code: string, deviceId: string): Promise<OpenIdOutcome> {
    const mp = this.mp()
    const { repo, clock, passport } = this.deps
    const codeHash = sha256Hex(code)
    if (!(await repo.claimCode(mp.appId, codeHash, clock.now()))) {
      throw new AppError('WX_CODE_INVALID')
    }
    let exchange: Awaited<ReturnType<typeof mp.exchangeCode>>
    try {
      exchange = await mp.exchangeCode(code)
    } catch (error) {
      if (isAppError(error) && error.code === 'WX_UNAVAILABLE') {
        await repo.releaseCode(mp.appId, codeHash)
      }
      throw error
    }
    const { openid } = exchange
    const link = await repo.linkOfOpenid(mp.appId, openid)
    if (link) {
      return { linked: true, openid, login: await passport.openSession(link.userId, deviceId) }
    }
    // The binding screen greets the user with the platform's profile (user-info scope only). The
    // greeting is all it is for: while the platform cannot give it, the user binds without it,
    // since the code is spent at the platform by now and a claim given back could not be reused.
    const profile = exchange.scopes.includes(WX_OAUTH_SCOPE)
      ? await mp.userInfo(exchange.accessToken, openid).catch((error: unknown) => {
          if (isAppError(error) && error.code === 'WX_UNAVAILABLE') return NO_PROFILE
          throw error
        })
      : NO_PROFILE
    const bindToken = randomToken(24)
    const now = clock.now()
    await repo.insertBindToken({
      token_hash: sha256Hex(bindToken),
      app_id: mp.appId,
      openid,
      unionid: exchange.unionid ?? null,
      nickname: profile.nickname,
      avatar: profile.headimgurl,
      created_at: now,
      expires_at: now + WX_BIND_TOKEN_TTL_SECONDS * 1000,
    })
    return {
      linked: false,
      openid,
      bindToken,
      nickname: profile.nickname,
      avatar: profile.headimgurl,
    }
  }

  /**
   * `POST /passport/wx-bind`: the token must be good, and its open id linked to no other account,
   * before the SMS code is spent (WX_BIND_EXPIRED, WX_OPENID_LINKED); then, in one transaction,
   * the token is used up, the mobile's account found or created, the open id linked and a session
   * opened. An account already linked to another open id of this official account is
   * WX_ACCOUNT_LINKED only after the code, so that a bind token does not tell who has linked
   * which number; it and an open id linked meanwhile write nothing (the code stays spent).
   */
  async bind(request: WxBindRequest, deviceId: string): Promise<LoginOutcome> {
    const mp = this.mp()
    const { repo, clock, transact, passport } = this.deps
    const tokenHash = sha256Hex(request.bindToken)
    const token = await repo.bindToken(tokenHash)
    if (
      !token ||
      token.app_id !== mp.appId ||
      token.used_at !== null ||
      token.expires_at <= clock.now()
    ) {
      throw new AppError('WX_BIND_EXPIRED')
    }
    const holder = await repo.linkOfOpenid(token.app_id, token.openid)
    if (holder && holder.userId !== (await passport.userIdOfMobile(request.mobile))) {
      throw new AppError('WX_OPENID_LINKED')
    }
    await passport.consumeCode(request.mobile, request.code)
    const { login, user } = await transact(async (tx) => {
      const now = clock.now()
      if (!(await repo.useBindToken(tx, tokenHash, now))) throw new AppError('WX_BIND_EXPIRED')
      const user = await passport.userForMobile(request.mobile, tx)
      await this.link(tx, { ...token, userId: user.id, now })
      return { login: await passport.openSession(user.id, deviceId, tx), user }
    })
    if (user.created) await passport.welcome(user.id)
    return login
  }

  private async link(
    tx: Tx,
    t: {
      app_id: string
      openid: string
      unionid: string | null
      nickname: string
      avatar: string
      userId: number
      now: number
    },
  ): Promise<void> {
    const { repo } = this.deps
    const ofUser = await repo.linkOfUser(t.app_id, t.userId, tx)
    if (ofUser) {
      if (ofUser.openid === t.openid) return
      throw new AppError('WX_ACCOUNT_LINKED')
    }
    const inserted = await repo.insertLink(tx, {
      appId: t.app_id,
      openid: t.openid,
      userId: t.userId,
      unionid: t.unionid,
      nickname: t.nickname,
      avatar: t.avatar,
      now: t.now,
    })
    if (inserted) return
    // Linked meanwhile (a concurrent binding): the open id to another account, or the account.
    const byOpenid = await repo.linkOfOpenid(t.app_id, t.openid, tx)
    if (byOpenid?.userId === t.userId) return
    throw new AppError(byOpenid ? 'WX_OPENID_LINKED' : 'WX_ACCOUNT_LINKED')
  }

  /** `GET /h5/wechat/jsapi-signature`: a fresh nonce and time over the shared ticket. */
  async shareSignature(url: string): Promise<ShareSignature> {
    const mp = this.mp()
    const ticket = await this.ticket()
    const nonceStr = randomToken(12)
    const timestamp = Math.floor(this.deps.clock.now() / 1000)
    return {
      appid: mp.appId,
      timestamp,
      nonceStr,
      signature: jssdkSignature({ ticket, nonceStr, timestamp, url }),
    }
  }

  /**
   * The JS-SDK ticket, fetched with the basic access token; a token the platform refuses as
   * superseded or expired is dropped everywhere and fetched again, once.
   */
  private ticket(): Promise<string> {
    const mp = this.mp()
    const { tokens } = this.deps
    return tokens.get(JSAPI_TICKET, async () => {
      for (let attempt = 1; ; attempt++) {
        const accessToken = await tokens.get(ACCESS_TOKEN, () => mp.accessToken())
        try {
          return await mp.jsapiTicket(accessToken)
        } catch (error) {
          if (!(error instanceof StaleAccessTokenError)) throw error
          await tokens.invalidate(ACCESS_TOKEN, accessToken)
          if (attempt >= 2) {
            throw new AppError('WX_UNAVAILABLE', { reason: 'access token refused twice' })
          }
        }
      }
    })
  }
}
