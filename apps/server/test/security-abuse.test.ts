import { PAY_LOCK_HOURS, PAY_PASSWORD_MAX_TRIES } from '@numisma/contracts/account'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createTestApp,
  nextMobile,
  type Session,
  type SignedCall,
  type TestApp,
} from './helpers/app'
import { testDatabases } from './helpers/databases'
import { buy, createMallItem, staffCaller } from './helpers/mall-orders'
import { bodyFieldPaths, leafOf, openApiOf } from './helpers/openapi'
import { balanceOf, doPay, fundBalance, PAY_PASSWORD, payer } from './helpers/payments'

/**
 * Issue 15 (deliverable 4): guessing and abuse — payment-password and SMS-code brute force with
 * the production limits (DESIGN §3, ADR 003), and sockets opened from a foreign page. Floods of
 * socket messages are push-flood.test.ts's (event loop, CPU, closing the flooders) and
 * chat.test.ts's (RATE_LIMITED frames, then close); per-address socket caps are push-limits.test.ts's.
 */
const databases = await testDatabases()
const LOCK_MS = PAY_LOCK_HOURS * 3_600_000
/** The limits buildApp applies when none are given (app.ts). */
const PRODUCTION_LIMITS = { sms: 5, smsPerCaller: 30, login: 20, staffLogin: 10 }

/** What a victim has for every route that takes the payment password to act on. */
interface Victim {
  session: Session
  pendingOrderId: number
  storedOrderId: number
  addressId: number
}

/**
 * Every signed route that takes the payment password, and a call of it with `password` typed. The
 * first test of the pay-password lock checks this list against the OpenAPI document: a new route
 * with a password field must be added here, and so meets the shared lock below.
 */
const PASSWORD_ROUTES: Record<string, (v: Victim, password: string) => Omit<SignedCall, 'as'>> = {
  'POST /svc/main/user/3_3/pay/doPay': (v, payPassword) => ({
    method: 'POST',
    path: '/user/3_3/pay/doPay',
    body: { orderIds: [v.pendingOrderId], method: 'balance', payPassword },
  }),
  'POST /svc/main/user/finance/withdrawals': (_v, payPassword) => ({
    method: 'POST',
    path: '/user/finance/withdrawals',
    body: {
      amount: 1_000,
      source: 'balance',
      bankName: '中国建设银行北京分行',
      accountName: '张三',
      accountNo: '6217000010001234567',
      payPassword,
    },
  }),
  'POST /svc/main/api/user/logistic/delivery/apply': (v, payPassword) => ({
    method: 'POST',
    path: '/api/user/logistic/delivery/apply',
    body: {
      orderIds: [v.storedOrderId],
      method: 'express',
      addressId: v.addressId,
      insured: false,
      payPassword,
    },
  }),
  // Changing the password proves the old one: a wrong old one is a guess like any other.
  'POST /svc/main/user/@setPayPass': (_v, oldPassword) => ({
    method: 'POST',
    path: '/user/@setPayPass',
    body: { password: '246802', oldPassword },
  }),
}
const PASSWORD_ROUTE_NAMES = Object.keys(PASSWORD_ROUTES)

describe.each(databases)('guessing secrets on $name', (kind) => {
  let t: TestApp

  beforeAll(async () => {
    t = await createTestApp(kind, { rateLimit: PRODUCTION_LIMITS })
  })
  afterAll(() => t.close())

  it(`locks payment for ${PAY_LOCK_HOURS} h at the ${PAY_PASSWORD_MAX_TRIES}th wrong pay password: the right one then moves no money`, async () => {
    const admin = await staffCaller(t)
    const item = await createMallItem(admin, { price: 5_000, stock: 5 })
    const victim = await payer(t)
    await fundBalance(t, victim.userId, 100_000)
    const orderId = (await buy(t, victim, { productNo: item.productNo, quantity: 1 })).json<{
      data: { orderId: number }
    }>().data.orderId
    const pay = (payPassword: string) =>
      doPay(t, victim, { orderIds: [orderId], method: 'balance', payPassword })
    const guesses = ['000000', '111111', '123456', '654321', '888888']
    const answers = []
    for (const guess of guesses) answers.push(await pay(guess))
    expect(answers.slice(0, -1).map((r) => [r.statusCode, r.json().code])).toEqual(
      Array(PAY_PASSWORD_MAX_TRIES - 1).fill([400, 'PAY_PASSWORD_WRONG']),
    )
    expect(answers.at(-1)!.statusCode).toBe(423)
    expect(answers.at(-1)!.json().code).toBe('PAY_LOCKED')

    const right = await pay(PAY_PASSWORD)
    expect(right.statusCode).toBe(423)
    // Every other path that takes the pay password meets the same lock.
    const withdrawal = await t.call({
      method: 'POST',
      path: '/user/finance/withdrawals',
      as: victim,
      body: {
        amount: 1_000,
        source: 'balance',
        bankName: '中国建设银行北京分行',
        accountName: '张三',
        accountNo: '6217000010001234567',
        payPassword: PAY_PASSWORD,
      },
    })
    expect(withdrawal.json().code).toBe('PAY_LOCKED')
    expect(await balanceOf(t, victim.userId)).toBe(100_000)

    t.clock.advance(LOCK_MS - 1_000)
    expect((await pay(PAY_PASSWORD)).statusCode).toBe(423)
    t.clock.advance(1_000)
    // The unpaid order has expired meanwhile (30 minutes); the owner pays a new one.
    const again = (await buy(t, victim, { productNo: item.productNo, quantity: 1 })).json<{
      data: { orderId: number }
    }>().data.orderId
    const paid = await doPay(t, victim, {
      orderIds: [again],
      method: 'balance',
      payPassword: PAY_PASSWORD,
    })
    expect(paid.statusCode, paid.body).toBe(200)
    expect(await balanceOf(t, victim.userId)).toBe(100_000 - 5_000)
  })

  it('lists every signed route that takes a password in PASSWORD_ROUTES', () => {
    const doc = openApiOf(t.app)
    const taking = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/svc/main/') && !path.startsWith('/svc/main/admin'))
      .flatMap(([path, ops]) =>
        Object.entries(ops)
          .filter(([, op]) => bodyFieldPaths(doc, op).some((f) => /password/i.test(leafOf(f))))
          .map(([method]) => `${method.toUpperCase()} ${path}`),
      )
    expect(taking.sort(), 'add the route to PASSWORD_ROUTES of security-abuse.test.ts').toEqual(
      [...PASSWORD_ROUTE_NAMES].sort(),
    )
  })

  /** A payer with a pending order, a paid one in storage and an address; 1,000 yuan left. */
  let admin: ReturnType<typeof staffCaller> | undefined
  const victimOf = async (): Promise<Victim> => {
    // One staff sign-in for all: each counts towards the staff login limit tested below.
    admin ??= staffCaller(t)
    const item = await createMallItem(await admin, { price: 5_000, stock: 5 })
    const session = await payer(t)
    await fundBalance(t, session.userId, 105_000)
    const orderOf = async () =>
      (await buy(t, session, { productNo: item.productNo, quantity: 1 })).json<{
        data: { orderId: number }
      }>().data.orderId
    const pendingOrderId = await orderOf()
    const storedOrderId = await orderOf()
    const paid = await doPay(t, session, {
      orderIds: [storedOrderId],
      method: 'balance',
      payPassword: PAY_PASSWORD,
    })
    expect(paid.statusCode, paid.body).toBe(200)
    const address = await t.call({
      method: 'POST',
      path: '/user/address',
      as: session,
      body: {
        name: '张三',
        mobile: '13800138000',
        countryId: 'CN',
        provinceId: '110000',
        cityId: '110105',
        detail: '朝阳区某街一号',
        isDefault: true,
      },
    })
    expect(address.statusCode, address.body).toBe(200)
    const addressId = address.json<{ data: { id: number } }>().data.id
    return { session, pendingOrderId, storedOrderId, addressId }
  }

  /** The victim's money, orders, shipments, withdrawals and password row, to see nothing moved. */
  const stateOf = async (v: Victim) => {
    const db = t.database.db
    const userId = Number(v.session.userId)
    const rows = async (table: 'orders' | 'shipments' | 'withdrawals') =>
      (await db.selectFrom(table).selectAll().where('user_id', '=', userId).execute()).map((r) =>
        JSON.stringify(r, (_k, value: unknown) =>
          typeof value === 'bigint' ? String(value) : value,
        ),
      )
    const password = await db
      .selectFrom('pay_passwords')
      .select('hash')
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow()
    return {
      balance: await balanceOf(t, userId),
      orders: await rows('orders'),
      shipments: await rows('shipments'),
      withdrawals: await rows('withdrawals'),
      hash: password.hash,
    }
  }

  // DESIGN §3: the 5 wrong tries are the user's, whichever route they come through. Each case
  // makes the first four through the other routes in turn and the fifth through one route.
  it.each(PASSWORD_ROUTE_NAMES)(
    `counts wrong passwords of every route towards one lock: 4 through the others, the ${PAY_PASSWORD_MAX_TRIES}th through %s locks them all`,
    async (last) => {
      const victim = await victimOf()
      const others = PASSWORD_ROUTE_NAMES.filter((name) => name !== last)
      const order = [
        ...Array.from({ length: PAY_PASSWORD_MAX_TRIES - 1 }, (_, i) => others[i % others.length]!),
        last,
      ]
      const before = await stateOf(victim)
      const answers: unknown[] = []
      for (const [i, route] of order.entries()) {
        const res = await t.call({
          ...PASSWORD_ROUTES[route]!(victim, String(100_000 + i)),
          as: victim.session,
        })
        answers.push([route, res.statusCode, res.json<{ code?: string }>().code])
      }
      expect(answers).toEqual(
        order.map((route, i) =>
          i < PAY_PASSWORD_MAX_TRIES - 1
            ? [route, 400, 'PAY_PASSWORD_WRONG']
            : [route, 423, 'PAY_LOCKED'],
        ),
      )
      const settings = await t.call({
        method: 'GET',
        path: '/user/@accountSeting',
        as: victim.session,
      })
      expect(settings.json<{ data: { payLockedUntil: string } }>().data.payLockedUntil).toBe(
        new Date(t.clock.now() + LOCK_MS).toISOString(),
      )
      // The right password now opens none of them, and nothing has moved.
      for (const route of PASSWORD_ROUTE_NAMES) {
        const res = await t.call({
          ...PASSWORD_ROUTES[route]!(victim, PAY_PASSWORD),
          as: victim.session,
        })
        expect([route, res.statusCode, res.json<{ code?: string }>().code]).toEqual([
          route,
          423,
          'PAY_LOCKED',
        ])
      }
      expect(await stateOf(victim)).toEqual(before)
    },
  )

  it('burns an SMS code after 5 wrong tries and stops a number’s guesses at the login limit', async () => {
    const mobile = nextMobile()
    const sendCode = async () => {
      t.clock.advance(61_000) // one code per number per 60 s
      const res = await t.call({ method: 'POST', path: '/passport/sms', body: { mobile } })
      expect(res.statusCode, res.body).toBe(200)
      return t.sms.lastCodeFor(mobile)!
    }
    const login = (code: string) =>
      t.call({ method: 'POST', path: '/passport/login', body: { mobile, code, agreement: true } })
    const wrongFor = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')

    const first = await sendCode()
    for (let i = 0; i < 5; i++)
      expect((await login(wrongFor(first))).json().code).toBe('SMS_CODE_INVALID')
    expect((await login(first)).json().code).toBe('SMS_CODE_INVALID') // burnt
    const second = await sendCode()
    for (let i = 0; i < PRODUCTION_LIMITS.login - 6; i++) await login(wrongFor(second))
    const third = await sendCode()
    const capped = await login(third)
    expect(capped.statusCode).toBe(429)
    expect(capped.json().code).toBe('RATE_LIMITED')
  })

  it(`refuses SMS sends to one number past ${PRODUCTION_LIMITS.sms} an hour`, async () => {
    const mobile = nextMobile()
    const statuses: number[] = []
    for (let i = 0; i <= PRODUCTION_LIMITS.sms; i++) {
      t.clock.advance(61_000)
      statuses.push(
        (await t.call({ method: 'POST', path: '/passport/sms', body: { mobile } })).statusCode,
      )
    }
    expect(statuses).toEqual([...Array(PRODUCTION_LIMITS.sms).fill(200), 429])
  })

  it(`stops staff password guesses after ${PRODUCTION_LIMITS.staffLogin}`, async () => {
    await staffCaller(t)
    const statuses: number[] = []
    for (let i = 0; i <= PRODUCTION_LIMITS.staffLogin; i++) {
      const res = await t.inject({
        method: 'POST',
        url: '/svc/main/admin/login',
        payload: { username: 'admin', password: `guess-${i}-password` },
      })
      statuses.push(res.statusCode)
    }
    // Every staff login of this caller counts, the earlier right ones included.
    const firstRefused = statuses.indexOf(429)
    expect(firstRefused, statuses.join()).toBeGreaterThanOrEqual(0)
    expect(statuses.slice(0, firstRefused).every((s) => s === 401)).toBe(true)
    expect(statuses.slice(firstRefused).every((s) => s === 429)).toBe(true)
  })
})

describe.each(databases)('sockets from a foreign page on $name', (kind) => {
  let t: TestApp
  let user: Session
  let staffSid: string

  beforeAll(async () => {
    t = await createTestApp(kind)
    user = await t.signIn()
    await staffCaller(t)
    const login = await t.inject({
      method: 'POST',
      url: '/svc/main/admin/login',
      payload: { username: 'admin', password: 'staff-test-password' },
    })
    staffSid = login.cookies.find((c) => c.name === 'staff_sid')!.value
  })
  afterAll(() => t.close())

  const open = async (path: string, headers: Record<string, string>) => {
    const socket = await t.app.injectWS(path, { headers })
    socket.terminate()
  }
  const sockets = () => [
    ['/svc/push/ws', `sid=${user.sid}`],
    ['/svc/push/chat', `sid=${user.sid}`],
    ['/svc/main/admin/chat/ws', `staff_sid=${staffSid}`],
  ]

  it('refuses a foreign Origin carrying the victim’s cookies on every socket', async () => {
    for (const [path, cookie] of sockets())
      for (const origin of ['https://evil.example', 'null', 'https://m.numisma.cn.evil.example'])
        await expect(
          open(path!, { cookie: cookie!, origin }),
          `${path} from ${origin}`,
        ).rejects.toThrow()
  })

  it('lets the shop’s own page in with the same cookies', async () => {
    for (const [path, cookie] of sockets())
      await expect(
        open(path!, { cookie: cookie!, origin: 'https://m.numisma.cn' }),
      ).resolves.toBeUndefined()
  })
})

describe.each(databases)('spoofed X-Forwarded-For behind a trusted proxy on $name', (kind) => {
  let t: TestApp

  beforeAll(async () => {
    // The proxy is this machine (inject comes from 127.0.0.1); it appends the address it saw.
    t = await createTestApp(kind, { rateLimit: PRODUCTION_LIMITS, trustProxy: '127.0.0.1' })
    await staffCaller(t)
  })
  afterAll(() => t.close())

  it('counts staff password guesses by the address the proxy saw, whatever the client wrote', async () => {
    const statuses: number[] = []
    for (let i = 0; i <= PRODUCTION_LIMITS.staffLogin + 2; i++) {
      const res = await t.inject({
        method: 'POST',
        url: '/svc/main/admin/login',
        headers: { 'x-forwarded-for': `198.51.100.${i}, 203.0.113.7` },
        payload: { username: 'admin', password: `guess-${i}-password` },
      })
      statuses.push(res.statusCode)
    }
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(
      PRODUCTION_LIMITS.staffLogin,
    )
    expect(statuses.at(-1)).toBe(429)
  })

  it(`counts SMS sends per caller by that address too (${PRODUCTION_LIMITS.smsPerCaller} an hour)`, async () => {
    const statuses: number[] = []
    for (let i = 0; i <= PRODUCTION_LIMITS.smsPerCaller; i++) {
      const res = await t.call({
        method: 'POST',
        path: '/passport/sms',
        body: { mobile: nextMobile() },
        headers: { 'x-forwarded-for': `198.51.100.${i}, 203.0.113.8` },
      })
      statuses.push(res.statusCode)
    }
    expect(statuses.slice(0, -1).every((s) => s === 200)).toBe(true)
    expect(statuses.at(-1)).toBe(429)
  })
})
