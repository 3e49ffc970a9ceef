import { PAY_LOCK_HOURS, PAY_PASSWORD_MAX_TRIES } from '@numisma/contracts/account'
import { COOKIE } from '@numisma/contracts/cookies'
import argon2 from 'argon2'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp, MAIN_PREFIX } from '../src/app'
import {
  Argon2PayPasswordHasher,
  PEPPER_SETTING,
  payPasswordPepper,
} from '../src/modules/account/pay-password-hasher'
import { PayPasswordVerifier } from '../src/modules/account/pay-password-verifier'
import { AccountRepository } from '../src/modules/account/repository'
import { assertProductionSecrets, loadConfig } from '../src/platform/config'
import { AppError } from '../src/platform/errors'
import { SettingsRepository } from '../src/platform/settings-repository'
import { transactor } from '../src/platform/transactions'
import { createTestApp, type Session, type SignedCall, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'

/** Issue 9, M2: the payment password over HTTP on both databases (DESIGN §3). */
const databases = await testDatabases()
const LOCK_MS = PAY_LOCK_HOURS * 3_600_000
/** Calls of POST /user/@setPayPass per user in 15 minutes, in these tests. */
const SET_LIMIT = 30

describe.each(databases)('payment password on $name', (kind) => {
  let t: TestApp

  beforeAll(async () => {
    t = await createTestApp(kind, {
      rateLimit: {
        sms: 1000,
        smsPerCaller: 10_000,
        login: 1000,
        staffLogin: 1000,
        payPassword: SET_LIMIT,
      },
    })
  })
  afterAll(() => t.close())

  const setPayPass = (as: Session, body: Record<string, unknown>) =>
    t.call({ method: 'POST', path: '/user/@setPayPass', body, as })
  const settingsOf = (as: Session) => t.call({ method: 'GET', path: '/user/@accountSeting', as })
  const stored = (session: Session) =>
    t.database.db
      .selectFrom('pay_passwords')
      .selectAll()
      .where('user_id', '=', Number(session.userId))
      .executeTakeFirst()
  /** A signed-in user whose payment password is `password`. */
  const withPassword = async (password = '135790') => {
    const session = await t.signIn()
    expect((await setPayPass(session, { password })).statusCode).toBe(200)
    return session
  }
  const pepper = () => payPasswordPepper(undefined, new SettingsRepository(t.database.db))
  /** The check payments call before money leaves a balance (payments/ports.ts), on this database. */
  const verifier = async () =>
    new PayPasswordVerifier({
      transact: transactor(t.database),
      clock: t.clock,
      passwords: new AccountRepository(t.database.db, t.database.dialect),
      hasher: new Argon2PayPasswordHasher(await pepper()),
    })
  const codeOf = (promise: Promise<unknown>) =>
    promise.then(
      () => 'OK',
      (error: unknown) => (error instanceof AppError ? error.code : String(error)),
    )
  /** Sends a code to the user's own mobile through the passport call, as the web page does. */
  const smsCodeFor = async (session: Session) => {
    t.clock.advance(60_000) // past the resend wait of the sign-in code
    const sent = await t.call({
      method: 'POST',
      path: '/passport/sms',
      body: { mobile: session.mobile },
      as: session,
    })
    expect(sent.statusCode).toBe(200)
    return t.sms.lastCodeFor(session.mobile)!
  }

  it('sets a first password without proof and says so in the settings', async () => {
    const session = await t.signIn()
    expect((await settingsOf(session)).json()).toEqual({
      data: { payPasswordSet: false, payLockedUntil: null },
    })
    const res = await setPayPass(session, { password: '135790' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ data: { payPasswordSet: true } })
    expect((await settingsOf(session)).json()).toEqual({
      data: { payPasswordSet: true, payLockedUntil: null },
    })
    await (await verifier()).verify(Number(session.userId), '135790')
  })

  it('stores argon2id (19 MiB, t=2) keyed with the pepper, never the digits', async () => {
    const session = await withPassword('246801')
    const row = await stored(session)
    expect(row?.hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/)
    expect(row?.hash).not.toContain('246801')
    // Without the server's pepper the table alone does not verify a guess, even the right one.
    expect(await argon2.verify(row!.hash, '246801')).toBe(false)
    const secret = Buffer.from(await pepper())
    expect(await argon2.verify(row!.hash, '246801', { secret })).toBe(true)
    // The pepper is made once (development) and kept, so restarts find the same one.
    expect(await new SettingsRepository(t.database.db).get(PEPPER_SETTING)).toBe(await pepper())
  })

  it.each(['12345', '1234567', 'abcdef', 123456])(
    'refuses the password %j with a coded 400',
    async (password) => {
      const session = await t.signIn()
      const res = await setPayPass(session, { password })
      expect(res.statusCode).toBe(400)
      expect(res.json().code).toBe('VALIDATION_FAILED')
      expect(await stored(session)).toBeUndefined()
    },
  )

  it('refuses a change without the old password or an SMS code', async () => {
    const session = await withPassword('135790')
    const before = await stored(session)
    const res = await setPayPass(session, { password: '111111' })
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('PAY_PASSWORD_PROOF_REQUIRED')
    expect(await stored(session)).toEqual(before)
  })

  it('changes it with the old password; the old one no longer works', async () => {
    const session = await withPassword('135790')
    const res = await setPayPass(session, { password: '864200', oldPassword: '135790' })
    expect(res.statusCode).toBe(200)
    const check = await verifier()
    expect(await codeOf(check.verify(Number(session.userId), '135790'))).toBe('PAY_PASSWORD_WRONG')
    expect(await codeOf(check.verify(Number(session.userId), '864200'))).toBe('OK')
  })

  it('counts a wrong old password as a wrong try; a right one resets the count', async () => {
    const session = await withPassword('135790')
    const wrong = await setPayPass(session, { password: '864200', oldPassword: '000000' })
    expect(wrong.statusCode).toBe(400)
    expect(wrong.json()).toMatchObject({
      code: 'PAY_PASSWORD_WRONG',
      details: { triesLeft: PAY_PASSWORD_MAX_TRIES - 1 },
    })
    expect(await stored(session)).toMatchObject({ failed_tries: 1 })
    await (await verifier()).verify(Number(session.userId), '135790')
    expect(await stored(session)).toMatchObject({ failed_tries: 0, locked_until: null })
  })

  it('changes it with an SMS code sent to the own mobile, used once', async () => {
    const session = await withPassword('135790')
    const code = await smsCodeFor(session)
    const wrongCode = code === '000000' ? '000001' : '000000'
    const wrong = await setPayPass(session, { password: '864200', smsCode: wrongCode })
    expect(wrong.statusCode).toBe(400)
    expect(wrong.json().code).toBe('SMS_CODE_INVALID')

    const res = await setPayPass(session, { password: '864200', smsCode: code })
    expect(res.statusCode).toBe(200)
    expect(await codeOf((await verifier()).verify(Number(session.userId), '864200'))).toBe('OK')

    const again = await setPayPass(session, { password: '555555', smsCode: code })
    expect(again.statusCode).toBe(400)
    expect(again.json().code).toBe('SMS_CODE_INVALID')
  })

  it("refuses a code sent to someone else's mobile", async () => {
    const session = await withPassword('135790')
    const other = await t.signIn()
    const othersCode = await smsCodeFor(other)
    const res = await setPayPass(session, { password: '864200', smsCode: othersCode })
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('SMS_CODE_INVALID')
    expect(await codeOf((await verifier()).verify(Number(session.userId), '135790'))).toBe('OK')
  })

  it('locks payment for 3 hours at the fifth wrong try; the sixth, even right, is refused', async () => {
    const session = await withPassword('135790')
    const change = (oldPassword: string) => setPayPass(session, { password: '864200', oldPassword })
    for (let tries = 1; tries < PAY_PASSWORD_MAX_TRIES; tries++) {
      const res = await change(`00000${tries}`)
      // 400, not 403: the web client signs out on 401/403, and a mistyped password must not.
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({
        code: 'PAY_PASSWORD_WRONG',
        details: { triesLeft: PAY_PASSWORD_MAX_TRIES - tries },
      })
    }
    const until = new Date(t.clock.now() + LOCK_MS).toISOString()
    const fifth = await change('000005')
    expect(fifth.statusCode).toBe(423)
    expect(fifth.json()).toMatchObject({ code: 'PAY_LOCKED', details: { until } })
    expect((await settingsOf(session)).json().data).toEqual({
      payPasswordSet: true,
      payLockedUntil: until,
    })

    const sixth = await change('135790')
    expect(sixth.statusCode).toBe(423)
    expect(sixth.json()).toMatchObject({ code: 'PAY_LOCKED', details: { until } })
    // Payments meet the same lock.
    const check = await verifier()
    expect(await codeOf(check.verify(Number(session.userId), '135790'))).toBe('PAY_LOCKED')

    t.clock.advance(LOCK_MS - 1)
    expect((await change('135790')).statusCode).toBe(423)
    t.clock.advance(1)
    expect((await settingsOf(session)).json().data.payLockedUntil).toBeNull()
    expect((await change('135790')).statusCode).toBe(200)
    expect(await stored(session)).toMatchObject({ failed_tries: 0, locked_until: null })
  })

  it('lets a user who forgot it set a new one by SMS while locked; the lock runs its course', async () => {
    const session = await withPassword('135790')
    const check = await verifier()
    const userId = Number(session.userId)
    for (let i = 0; i < PAY_PASSWORD_MAX_TRIES; i++) await codeOf(check.verify(userId, '000000'))
    const lockedUntil = (await stored(session))?.locked_until
    expect(lockedUntil).toBe(t.clock.now() + LOCK_MS)

    const res = await setPayPass(session, {
      password: '864200',
      smsCode: await smsCodeFor(session),
    })
    expect(res.statusCode).toBe(200)
    expect(await stored(session)).toMatchObject({ failed_tries: 0, locked_until: lockedUntil })
    expect(await codeOf(check.verify(userId, '864200'))).toBe('PAY_LOCKED')
    t.clock.set(lockedUntil!)
    expect(await codeOf(check.verify(userId, '864200'))).toBe('OK')
  })

  it('20 concurrent wrong tries lock after exactly five and never get through', async () => {
    const session = await withPassword('135790')
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        setPayPass(session, { password: '864200', oldPassword: '000000' }),
      ),
    )
    const codes = responses.map((r) => r.json<{ code?: string }>().code)
    expect(codes.filter((c) => c === 'PAY_PASSWORD_WRONG')).toHaveLength(PAY_PASSWORD_MAX_TRIES - 1)
    expect(codes.filter((c) => c === 'PAY_LOCKED')).toHaveLength(20 - (PAY_PASSWORD_MAX_TRIES - 1))
    expect(await stored(session)).toMatchObject({
      failed_tries: PAY_PASSWORD_MAX_TRIES,
      locked_until: t.clock.now() + LOCK_MS,
    })
    expect(await codeOf((await verifier()).verify(Number(session.userId), '135790'))).toBe(
      'PAY_LOCKED',
    )
  })

  it('20 concurrent wrong tries at the payment check do the same', async () => {
    const session = await withPassword('135790')
    const check = await verifier()
    const codes = await Promise.all(
      Array.from({ length: 20 }, () => codeOf(check.verify(Number(session.userId), '000000'))),
    )
    expect(codes.filter((c) => c === 'PAY_PASSWORD_WRONG')).toHaveLength(PAY_PASSWORD_MAX_TRIES - 1)
    expect(codes.filter((c) => c === 'PAY_LOCKED')).toHaveLength(20 - (PAY_PASSWORD_MAX_TRIES - 1))
    expect(await stored(session)).toMatchObject({ failed_tries: PAY_PASSWORD_MAX_TRIES })
  })

  it('a right password racing wrong ones: the count stays within five and a set lock holds', async () => {
    const session = await withPassword('135790')
    const check = await verifier()
    const userId = Number(session.userId)
    // Interleaved: whenever the right one is judged, the count it resets or the lock it meets
    // must be consistent — never more than five, and once locked no right try passes.
    const codes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        codeOf(check.verify(userId, i % 4 === 3 ? '135790' : '000000')),
      ),
    )
    const row = await stored(session)
    expect(row!.failed_tries).toBeLessThanOrEqual(PAY_PASSWORD_MAX_TRIES)
    expect(codes.every((c) => ['OK', 'PAY_PASSWORD_WRONG', 'PAY_LOCKED'].includes(c))).toBe(true)
    if (row!.locked_until !== null) {
      expect(row!.failed_tries).toBe(PAY_PASSWORD_MAX_TRIES)
      expect(await codeOf(check.verify(userId, '135790'))).toBe('PAY_LOCKED')
    }
  })

  it("answers only the caller's own settings", async () => {
    const owner = await withPassword('135790')
    const other = await t.signIn()
    expect((await settingsOf(other)).json().data.payPasswordSet).toBe(false)

    const anonymous = await t.call({ method: 'GET', path: '/user/@accountSeting' })
    expect(anonymous.statusCode).toBe(401)
    // Another user's id with one's own session is refused by the signature check.
    const claimed = await t.call({
      method: 'GET',
      path: '/user/@accountSeting',
      as: { ...other, userId: owner.userId },
    })
    expect(claimed.statusCode).toBe(401)
    const setAnonymously = await t.call({
      method: 'POST',
      path: '/user/@setPayPass',
      body: { password: '111111' },
    })
    expect(setAnonymously.statusCode).toBe(401)
  })

  it('rate-limits POST /user/@setPayPass per user', async () => {
    const session = await withPassword('135790')
    for (let i = 1; i < SET_LIMIT; i++) {
      expect((await setPayPass(session, { password: '111111' })).statusCode).toBe(400)
    }
    const limited = await setPayPass(session, { password: '111111' })
    expect(limited.statusCode).toBe(429)
    expect(limited.json().code).toBe('RATE_LIMITED')
    // Someone else is not held up.
    expect((await setPayPass(await t.signIn(), { password: '111111' })).statusCode).toBe(200)
  })

  describe('after a restart (a second app on the same database)', () => {
    const restart = async (payPasswordPepper?: string) => {
      const app = await buildApp({
        database: t.database,
        clock: t.clock,
        env: 'development',
        webDist: '/nonexistent',
        ...(payPasswordPepper ? { payPasswordPepper } : {}),
      })
      await app.ready()
      const call = (c: SignedCall & { as: Session }) =>
        app.inject({
          method: c.method,
          url: `${MAIN_PREFIX}${c.path}`,
          headers: t.sign(c),
          cookies: { [COOKIE.sid]: c.as.sid },
          payload: c.body as Record<string, unknown>,
        })
      return { app, call }
    }

    it('the stored development pepper still verifies the passwords set before', async () => {
      const session = await withPassword('135790')
      const second = await restart()
      try {
        const res = await second.call({
          method: 'POST',
          path: '/user/@setPayPass',
          body: { password: '864200', oldPassword: '135790' },
          as: session,
        })
        expect(res.statusCode).toBe(200)
      } finally {
        await second.app.close()
      }
    })

    it('a configured PAY_PASSWORD_PEPPER is the one used (another pepper voids the hashes)', async () => {
      const session = await withPassword('135790')
      const second = await restart('a-configured-pepper-0123456789')
      try {
        const res = await second.call({
          method: 'POST',
          path: '/user/@setPayPass',
          body: { password: '864200', oldPassword: '135790' },
          as: session,
        })
        expect(res.statusCode).toBe(400)
        expect(res.json().code).toBe('PAY_PASSWORD_WRONG')
      } finally {
        await second.app.close()
      }
    })
  })
})

describe('PAY_PASSWORD_PEPPER', () => {
  it('is required in production, and at least 16 characters when set', () => {
    expect(() => assertProductionSecrets(loadConfig({ NUMISMA_ENV: 'production' }))).toThrow(
      /PAY_PASSWORD_PEPPER/,
    )
    expect(() =>
      assertProductionSecrets(
        loadConfig({
          NUMISMA_ENV: 'production',
          PAY_PASSWORD_PEPPER: 'x'.repeat(16),
          SMS_PROVIDER: 'sandbox',
        }),
      ),
    ).not.toThrow()
    expect(() => assertProductionSecrets(loadConfig({}))).not.toThrow()
    expect(() => loadConfig({ PAY_PASSWORD_PEPPER: 'short' })).toThrow(/PAY_PASSWORD_PEPPER/)
  })
})

describe('WECHAT_PAY_SANDBOX', () => {
  const production = {
    NUMISMA_ENV: 'production',
    PAY_PASSWORD_PEPPER: 'x'.repeat(16),
    SMS_PROVIDER: 'sandbox',
    WECHAT_PAY_APPID: 'wx0123456789abcdef',
    WECHAT_PAY_MCH_ID: '1234567890',
    WECHAT_PAY_KEY: 'a-real-merchant-key-000000000000',
  }

  it('is refused in production, where it would sign paid notices with the real key', () => {
    expect(() =>
      assertProductionSecrets(loadConfig({ ...production, WECHAT_PAY_SANDBOX: 'true' })),
    ).toThrow(/WECHAT_PAY_SANDBOX/)
    expect(() =>
      assertProductionSecrets(loadConfig({ ...production, WECHAT_PAY_SANDBOX: 'false' })),
    ).not.toThrow()
    expect(() => assertProductionSecrets(loadConfig(production))).not.toThrow()
    expect(() => assertProductionSecrets(loadConfig({ WECHAT_PAY_SANDBOX: 'true' }))).not.toThrow()
  })
})
