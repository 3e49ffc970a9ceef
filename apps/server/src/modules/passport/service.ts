import { COOKIE_MAX_AGE_SECONDS } from '@numisma/contracts/cookies'
import {
  SMS_CODE_TTL_SECONDS,
  SMS_MAX_ATTEMPTS,
  SMS_RESEND_SECONDS,
  type LoginResult,
} from '@numisma/contracts/passport'
import type { Clock } from '../../platform/clock'
import { randomDigits, randomToken, sha256Hex } from '../../platform/crypto'
import { AppError } from '../../platform/errors'
import { SESSION_APP_PREFIX } from '../../platform/request-signing'
import type { Tx } from '../../platform/transactions'
import type { PassportRepository } from './repository'
import type { SmsSender } from './sms-sender'

export interface LoginOutcome extends LoginResult {
  sid: string
  loginTime: number
}

const codeHash = (mobile: string, code: string): string => sha256Hex(`${mobile}:${code}`)

export class PassportService {
  constructor(
    private readonly repo: PassportRepository,
    private readonly sms: SmsSender,
    private readonly clock: Clock,
    private readonly revealCodes: boolean,
    /** Runs once when a sign-in creates an account (the demo gives a starting deposit). */
    private readonly onNewUser?: (userId: number) => Promise<void>,
    /**
     * Runs once a logout has revoked its session, before the logout answers: the signing hook's
     * cached credentials are dropped here and on every instance (session-cache.ts, ADR 035).
     */
    private readonly onSessionRevoked?: (sessionId: string) => void,
  ) {}

  async sendCode(mobile: string): Promise<{ sent: true; devCode?: string }> {
    const now = this.clock.now()
    const last = await this.repo.latestCode(mobile)
    if (last && now - last.created_at < SMS_RESEND_SECONDS * 1000) {
      throw new AppError('SMS_TOO_FREQUENT', {
        retryAfterSeconds: Math.ceil((last.created_at + SMS_RESEND_SECONDS * 1000 - now) / 1000),
      })
    }
    const code = randomDigits(6)
    // Kept before sending (a concurrent request meets the resend wait), and taken back if the
    // provider refused or could not be reached: the caller may try again at once.
    const id = await this.repo.insertCode(
      mobile,
      codeHash(mobile, code),
      now,
      now + SMS_CODE_TTL_SECONDS * 1000,
    )
    try {
      await this.sms.sendCode(mobile, code, SMS_CODE_TTL_SECONDS / 60)
    } catch (error) {
      await this.repo.deleteCode(id)
      throw error
    }
    return this.revealCodes ? { sent: true, devCode: code } : { sent: true }
  }

  /**
   * Checks the latest code sent to `mobile` and uses it up, or throws SMS_CODE_INVALID: signing in,
   * and proving the own mobile when changing the payment password (modules/account).
   */
  async consumeCode(mobile: string, code: string): Promise<void> {
    const now = this.clock.now()
    const last = await this.repo.latestCode(mobile)
    if (!last || last.consumed_at !== null || last.expires_at <= now) {
      throw new AppError('SMS_CODE_INVALID')
    }
    if (last.attempts >= SMS_MAX_ATTEMPTS) throw new AppError('SMS_CODE_INVALID')
    if (last.code_hash !== codeHash(mobile, code)) {
      await this.repo.countAttempt(last.id)
      throw new AppError('SMS_CODE_INVALID')
    }
    if (!(await this.repo.consumeCode(last.id, now))) throw new AppError('SMS_CODE_INVALID')
  }

  /** Checks the code, creates the account on first sign-in and opens a session. */
  async login(mobile: string, code: string, deviceId: string): Promise<LoginOutcome> {
    await this.consumeCode(mobile, code)
    const user = await this.userForMobile(mobile)
    if (user.created) await this.welcome(user.id)
    return this.openSession(user.id, deviceId)
  }

  /**
   * The account of a mobile number, created on its first sign-in; `tx` when the caller's sign-in
   * writes more in one transaction (modules/wechat's binding). A created account is `welcome`d
   * after the commit.
   */
  async userForMobile(mobile: string, tx?: Tx): Promise<{ id: number; created: boolean }> {
    const user = await this.repo.findOrCreateUser(
      mobile,
      `藏友${mobile.slice(-4)}`,
      this.clock.now(),
      tx,
    )
    return { id: user.id, created: user.created }
  }

  /** The account of a mobile number if it has one (nothing is created). */
  userIdOfMobile(mobile: string): Promise<number | undefined> {
    return this.repo.userIdOfMobile(mobile)
  }

  /** What a new account gets once (the demo's starting deposit); outside any transaction. */
  async welcome(userId: number): Promise<void> {
    if (this.onNewUser) await this.onNewUser(userId)
  }

  /**
   * Opens a session for an existing account, as every way of signing in ends (the SMS code here,
   * an open id linked to the account in modules/wechat): the outcome the login cookies are set
   * from (login-reply.ts).
   */
  async openSession(userId: number, deviceId: string, tx?: Tx): Promise<LoginOutcome> {
    const user = await this.repo.findUser(userId, tx)
    if (!user) throw new Error(`user ${userId} vanished`)
    const now = this.clock.now()
    const sid = randomToken(32)
    const session = {
      id: `${SESSION_APP_PREFIX}${randomToken(15)}`,
      key: randomToken(24),
    }
    await this.repo.insertSession(
      {
        id: session.id,
        userId: user.id,
        key: session.key,
        sidHash: sha256Hex(sid),
        deviceId,
        now,
        expiresAt: now + COOKIE_MAX_AGE_SECONDS * 1000,
      },
      tx,
    )
    return {
      sid,
      loginTime: now,
      userId: String(user.id),
      id: session.id,
      key: session.key,
      display: user.display,
      mobile: user.mobile,
    }
  }

  async logout(sessionId: string): Promise<void> {
    await this.repo.revokeSession(sessionId, this.clock.now())
    this.onSessionRevoked?.(sessionId)
  }
}
