import { COOKIE, COOKIE_MAX_AGE_SECONDS } from '@numisma/contracts/cookies'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, nextMobile, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'

const databases = await testDatabases()

describe.each(databases)('passport sign-in on $name', (kind) => {
  let t: TestApp

  beforeAll(async () => {
    t = await createTestApp(kind)
  })
  afterAll(() => t.close())

  const sms = (mobile: string) =>
    t.call({ method: 'POST', path: '/passport/sms', body: { mobile } })
  const login = (body: Record<string, unknown>) =>
    t.call({ method: 'POST', path: '/passport/login', body })
  const userCount = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )

  it('sends a code through the sandbox and shows it outside production', async () => {
    const mobile = nextMobile()
    const res = await sms(mobile)
    expect(res.statusCode).toBe(200)
    const { data } = res.json<{ data: { sent: boolean; devCode: string } }>()
    expect(data.sent).toBe(true)
    expect(data.devCode).toMatch(/^\d{6}$/)
    expect(t.sms.lastCodeFor(mobile)).toBe(data.devCode)
  })

  it.each(['1380013800', '23800138000', '138001380000', 'abc', ''])(
    'refuses the mobile number %j with a coded 400',
    async (mobile) => {
      const res = await sms(mobile)
      expect(res.statusCode).toBe(400)
      expect(res.json().code).toBe('MOBILE_INVALID')
    },
  )

  it('refuses a second code within 60 s, allows it after', async () => {
    const mobile = nextMobile()
    expect((await sms(mobile)).statusCode).toBe(200)
    const again = await sms(mobile)
    expect(again.statusCode).toBe(429)
    expect(again.json().code).toBe('SMS_TOO_FREQUENT')
    t.clock.advance(60_000)
    expect((await sms(mobile)).statusCode).toBe(200)
  })

  it('answers a sign-in with Cache-Control: no-store (the body carries the session key)', async () => {
    const mobile = nextMobile()
    await sms(mobile)
    const res = await login({ mobile, code: t.sms.lastCodeFor(mobile), agreement: true })
    expect(res.statusCode).toBe(200)
    expect(res.headers['cache-control']).toBe('no-store')
  })

  it('signs in a new number: creates the account and sets the spec cookies for 30 days', async () => {
    const mobile = nextMobile()
    await sms(mobile)
    const before = await userCount()
    const res = await login({ mobile, code: t.sms.lastCodeFor(mobile), agreement: true })
    expect(res.statusCode).toBe(200)
    const { data } = res.json<{ data: Record<string, string> }>()
    expect(data).toMatchObject({ mobile, display: `藏友${mobile.slice(-4)}` })
    expect(await userCount()).toBe(before + 1)

    const cookies = Object.fromEntries(res.cookies.map((c) => [c.name, c]))
    for (const name of [
      'sid',
      'id',
      'key',
      'userId',
      'display',
      'mobile',
      'agreement',
      'loginTime',
    ]) {
      expect(cookies[name]?.maxAge, name).toBe(COOKIE_MAX_AGE_SECONDS)
      expect(cookies[name]?.path, name).toBe('/')
    }
    expect(cookies[COOKIE.sid]?.httpOnly).toBe(true)
    expect(cookies[COOKIE.key]?.httpOnly).toBeFalsy()
    expect(cookies[COOKIE.agreement]?.value).toBe('1')
    expect(cookies[COOKIE.userId]?.value).toBe(data.userId)
    expect(decodeURIComponent(cookies[COOKIE.display]!.value)).toBe(data.display)
    expect(cookies[COOKIE.id]?.value).toBe(data.id)
  })

  it('signs an existing number into the same account', async () => {
    const first = await t.signIn()
    t.clock.advance(61_000)
    const second = await t.signIn(first.mobile)
    expect(second.userId).toBe(first.userId)
    expect(second.id).not.toBe(first.id)
  })

  it('refuses a wrong code and locks the code after 5 wrong tries', async () => {
    const mobile = nextMobile()
    await sms(mobile)
    const code = t.sms.lastCodeFor(mobile)!
    const wrong = code === '000000' ? '111111' : '000000'
    for (let i = 0; i < 5; i++) {
      const res = await login({ mobile, code: wrong, agreement: true })
      expect(res.statusCode).toBe(400)
      expect(res.json().code).toBe('SMS_CODE_INVALID')
    }
    expect((await login({ mobile, code, agreement: true })).json().code).toBe('SMS_CODE_INVALID')
  })

  it('refuses an expired code and a used code', async () => {
    const mobile = nextMobile()
    await sms(mobile)
    const code = t.sms.lastCodeFor(mobile)
    t.clock.advance(300_001)
    expect((await login({ mobile, code, agreement: true })).json().code).toBe('SMS_CODE_INVALID')

    const other = nextMobile()
    await sms(other)
    const fresh = t.sms.lastCodeFor(other)
    expect((await login({ mobile: other, code: fresh, agreement: true })).statusCode).toBe(200)
    expect((await login({ mobile: other, code: fresh, agreement: true })).json().code).toBe(
      'SMS_CODE_INVALID',
    )
  })

  it('lets exactly one of two concurrent logins use a code', async () => {
    const mobile = nextMobile()
    await sms(mobile)
    const code = t.sms.lastCodeFor(mobile)
    const results = await Promise.all(
      Array.from({ length: 6 }, () => login({ mobile, code, agreement: true })),
    )
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1)
  })

  it('requires the agreement and a well-formed body', async () => {
    const mobile = nextMobile()
    await sms(mobile)
    const code = t.sms.lastCodeFor(mobile)
    const res = await login({ mobile, code, agreement: false })
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('VALIDATION_FAILED')
    expect(res.json().details.fields[0].field).toBe('body.agreement')
    expect((await login({ mobile, code: '12ab56', agreement: true })).statusCode).toBe(400)
    expect((await login({ mobile, code, agreement: true })).statusCode).toBe(200)
  })

  it('logs out: the session pair stops working and the cookies are cleared', async () => {
    const user = await t.signIn()
    expect((await t.call({ method: 'GET', path: '/user/@statistics', as: user })).statusCode).toBe(
      200,
    )
    const out = await t.call({ method: 'POST', path: '/passport/logout', as: user })
    expect(out.statusCode).toBe(200)
    const cleared = out.cookies.filter((c) => c.value === '').map((c) => c.name)
    expect(cleared).toEqual(expect.arrayContaining(['sid', 'id', 'key', 'userId', 'agreement']))
    const after = await t.call({ method: 'GET', path: '/user/@statistics', as: user })
    expect(after.statusCode).toBe(401)
    expect(after.json().code).toBe('SESSION_INVALID')
  })

  it('ends a session after 30 days', async () => {
    const user = await t.signIn()
    t.clock.advance(COOKIE_MAX_AGE_SECONDS * 1000 + 1)
    const res = await t.call({ method: 'GET', path: '/user/@statistics', as: user })
    expect(res.json().code).toBe('SESSION_INVALID')
  })

  it('returns the signed-in user from /user/@statistics and 401 when anonymous', async () => {
    const user = await t.signIn()
    const res = await t.call({ method: 'GET', path: '/user/@statistics', as: user })
    expect(res.json().data).toMatchObject({
      userId: user.userId,
      mobile: user.mobile,
      display: `藏友${user.mobile.slice(-4)}`,
      avatar: null,
      counts: { bidding: 0, watching: 0, entrusted: 0, pendingPayment: 0 },
    })
    const anonymous = await t.call({ method: 'GET', path: '/user/@statistics' })
    expect(anonymous.statusCode).toBe(401)
    expect(anonymous.json().code).toBe('UNAUTHENTICATED')
  })
})

describe('sign-in rate limits', () => {
  it('limits SMS requests per number and caller with the default limits', async () => {
    const [sqlite] = databases
    const t = await createTestApp(sqlite!, {
      rateLimit: { sms: 5, smsPerCaller: 12, login: 20, staffLogin: 10 },
    })
    try {
      const mobile = nextMobile()
      const statuses: number[] = []
      for (let i = 0; i < 7; i++) {
        const res = await t.call({ method: 'POST', path: '/passport/sms', body: { mobile } })
        statuses.push(res.statusCode)
        t.clock.advance(61_000)
      }
      expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200])
      expect(statuses.slice(5)).toEqual([429, 429])
      // Other numbers from the same caller are counted on their own…
      for (let i = 0; i < 5; i++) {
        const other = await t.call({
          method: 'POST',
          path: '/passport/sms',
          body: { mobile: nextMobile() },
        })
        expect(other.statusCode).toBe(200)
      }
      // …up to the caller's own cap across numbers (12 requests an hour here).
      const capped = await t.call({
        method: 'POST',
        path: '/passport/sms',
        body: { mobile: nextMobile() },
      })
      expect(capped.statusCode).toBe(429)
      expect(capped.json().code).toBe('RATE_LIMITED')
    } finally {
      await t.close()
    }
  })
})

describe('demo deposit', () => {
  it('credits a new account once, through the ledger, when the demo asks for it', async () => {
    const [sqlite] = databases
    const t = await createTestApp(sqlite!, { demoDeposit: 500_000 })
    try {
      const user = await t.signIn()
      const stats = async () =>
        (await t.call({ method: 'GET', path: '/user/@statistics', as: user })).json().data
      expect(await stats()).toMatchObject({ deposit: 500_000, quota: 5_000_000, balance: 0 })
      t.clock.advance(61_000)
      await t.signIn(user.mobile)
      expect(await stats()).toMatchObject({ deposit: 500_000 })
      const sum = await t.database.db
        .selectFrom('ledger_accounts')
        .select((eb) => eb.fn.sum<number | string>('balance').as('total'))
        .executeTakeFirstOrThrow()
      expect(Number(sum.total)).toBe(0)
    } finally {
      await t.close()
    }
  })
})
