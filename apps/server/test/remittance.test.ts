import { randomBytes } from 'node:crypto'
import { REMITTED_ON_MAX_DAYS_BACK, type Remittance } from '@numisma/contracts/account'
import { CHINA_OFFSET_MS } from '@numisma/contracts/dates'
import sharp from 'sharp'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { expectLedgerSound } from './helpers/ledger'
import { buy, createMallItem, type StaffCall, staffCaller } from './helpers/mall-orders'
import { addCompanyBanks, balanceOf, creditBalance, winLot } from './helpers/money'

/** Issue 9: bank remittance notices and staff decisions — on both databases, over HTTP. */
const databases = await testDatabases()
const YUAN = 100
/** `POST /user/finance/@remittance` per user per hour, as the app's default. */
const REMITTANCE_LIMIT = 30

const DAY = 86_400_000
/** The China-time date of an instant, as the user's bank would print it. */
const chinaDay = (ms: number) => new Date(ms + CHINA_OFFSET_MS).toISOString().slice(0, 10)

const dataUrl = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString('base64')}`

describe.each(databases)('bank remittance on $name', (kind) => {
  let t: TestApp
  let admin: StaffCall
  let alice: Session
  let bob: Session
  let bankIds: number[]

  beforeAll(async () => {
    t = await createTestApp(kind)
    admin = await staffCaller(t)
    ;[alice, bob] = [await t.signIn(), await t.signIn()]
    bankIds = await addCompanyBanks(t)
  })
  afterAll(() => t.close())
  afterEach(() => expectLedgerSound(t.database))

  const report = (as: Session, body: object, headers?: Record<string, string>) =>
    t.call({ method: 'POST', path: '/user/finance/@remittance', as, body, headers })
  const notice = (overrides: object = {}) => ({
    companyBankId: bankIds[1],
    amount: 1_000 * YUAN,
    payerName: '张三',
    payerBank: '中国银行北京分行',
    remittedOn: chinaDay(t.clock.now()),
    ...overrides,
  })
  const filed = async (as: Session, overrides: object = {}): Promise<Remittance> => {
    const res = await report(as, notice(overrides))
    expect(res.statusCode, res.body).toBe(200)
    return res.json<{ data: Remittance }>().data
  }
  const orderStatus = async (id: number) =>
    (
      await t.database.db
        .selectFrom('orders')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).status
  const transfers = (memo: string) =>
    t.database.db.selectFrom('ledger_transfers').selectAll().where('memo', '=', memo).execute()

  it("lists the company's active accounts in their order", async () => {
    await t.database.db
      .insertInto('company_banks')
      .values({
        bank_name: '旧账户',
        branch: '',
        account_name: 'x',
        account_no: '1',
        active: 0,
        sort: 0,
      })
      .execute()
    const res = await t.call({ method: 'GET', path: '/user/finance/@companyBanks', as: alice })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({
      data: [
        {
          id: bankIds[1],
          bankName: '中国工商银行',
          branch: '北京潘家园支行',
          accountName: '泉藏拍卖（北京）文化有限公司',
          accountNo: '0200248909200135678',
        },
        expect.objectContaining({ id: bankIds[0], bankName: '招商银行' }),
      ],
    })
  })

  it('files a notice with a receipt re-encoded as an upright JPEG ≤ 1600 px without metadata, for its owner and staff only', async () => {
    const photo = await sharp({
      create: { width: 3000, height: 2000, channels: 3, background: '#b22' },
    })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { Copyright: 'GPS and camera' } })
      .toBuffer()
    const created = await filed(alice, { receipt: dataUrl('image/jpeg', photo) })
    expect(created).toMatchObject({
      status: 'submitted',
      amount: 1_000 * YUAN,
      orderIds: [],
      receiptUrl: `/user/finance/remittances/${created.id}/receipt`,
    })

    const mine = await t.call({ method: 'GET', path: created.receiptUrl!, as: alice })
    expect(mine.statusCode).toBe(200)
    expect(mine.headers['content-type']).toBe('image/jpeg')
    const meta = await sharp(mine.rawPayload).metadata()
    // Orientation 6 turns the 3000 × 2000 photo upright: 2000 × 3000, scaled to 1067 × 1600.
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1067, 1600])
    expect(meta.exif).toBeUndefined()
    expect(meta.icc).toBeUndefined()

    const theirs = await t.call({ method: 'GET', path: created.receiptUrl!, as: bob })
    expect(theirs.statusCode).toBe(404)
    const staff = await admin('GET', `/remittances/${created.id}/receipt`)
    expect(staff.statusCode).toBe(200)
    expect(staff.rawPayload.equals(mine.rawPayload)).toBe(true)
  })

  it('takes a phone-sized photo well over the 256 KiB body limit of other calls', async () => {
    // Noise does not compress: a PNG of it is as large as a phone photo.
    const noise = randomBytes(900 * 700 * 3)
    const png = await sharp(noise, { raw: { width: 900, height: 700, channels: 3 } })
      .png()
      .toBuffer()
    expect(png.length).toBeGreaterThan(1024 * 1024)
    const created = await filed(bob, { receipt: dataUrl('image/png', png) })
    const jpeg = await t.call({ method: 'GET', path: created.receiptUrl!, as: bob })
    expect((await sharp(jpeg.rawPayload).metadata()).width).toBe(900)
  })

  it('refuses an unreadable picture with RECEIPT_INVALID and files nothing', async () => {
    const before = (
      await t.call({ method: 'GET', path: '/user/finance/remittances', as: bob })
    ).json<{ data: Remittance[] }>().data.length
    for (const receipt of [
      dataUrl('image/png', Buffer.from('this is no picture at all')),
      // A PNG cut short: a header that promises more than there is.
      dataUrl(
        'image/png',
        (
          await sharp({ create: { width: 50, height: 50, channels: 3, background: '#fff' } })
            .png()
            .toBuffer()
        ).subarray(0, 40),
      ),
      // A GIF sent as a PNG: decodable, but not a receipt format we take.
      dataUrl(
        'image/png',
        await sharp({ create: { width: 5, height: 5, channels: 3, background: '#fff' } })
          .gif()
          .toBuffer(),
      ),
    ]) {
      const res = await report(bob, notice({ receipt }))
      expect(res.statusCode, res.body).toBe(400)
      expect(res.json().code).toBe('RECEIPT_INVALID')
    }
    const after = await t.call({ method: 'GET', path: '/user/finance/remittances', as: bob })
    expect(after.json<{ data: Remittance[] }>().data).toHaveLength(before)
  })

  it('refuses a picture over 25 megapixels before decoding it (a decompression bomb)', async () => {
    // 10,000 × 10,000 of one colour: a few hundred KiB of PNG, 300 MB once decoded.
    const bomb = await sharp({
      create: { width: 10_000, height: 10_000, channels: 3, background: '#fff' },
    })
      .png({ compressionLevel: 9 })
      .toBuffer()
    // Just over the cap: 5,001 × 5,000.
    const over = await sharp({
      create: { width: 5_001, height: 5_000, channels: 3, background: '#fff' },
    })
      .png({ compressionLevel: 9 })
      .toBuffer()
    for (const picture of [bomb, over]) {
      const started = performance.now()
      const res = await report(bob, notice({ receipt: dataUrl('image/png', picture) }))
      expect(res.statusCode, res.body).toBe(400)
      expect(res.json()).toMatchObject({ code: 'RECEIPT_INVALID', details: { tooLarge: true } })
      expect(performance.now() - started).toBeLessThan(1_000)
    }
  })

  it('limits notices per user: past the limit a 429, other users unaffected', async () => {
    const [eve, fred] = [await t.signIn(), await t.signIn()]
    const results = []
    for (let i = 0; i < REMITTANCE_LIMIT + 1; i++) {
      results.push((await report(eve, notice({ amount: 1 * YUAN }))).statusCode)
    }
    expect(results.slice(0, REMITTANCE_LIMIT).every((s) => s === 200)).toBe(true)
    const last = await report(eve, notice({ amount: 1 * YUAN }))
    expect(last.statusCode).toBe(429)
    expect(last.json().code).toBe('RATE_LIMITED')
    expect((await report(fred, notice({ amount: 1 * YUAN }))).statusCode).toBe(200)
  })

  it('takes a transfer dated from 90 days back to tomorrow in China time, and refuses other dates', async () => {
    const before = (await t.database.db.selectFrom('remittances').select('id').execute()).length
    const now = t.clock.now()
    for (const remittedOn of [
      chinaDay(now + 2 * DAY),
      chinaDay(now - (REMITTED_ON_MAX_DAYS_BACK + 1) * DAY),
      '2099-01-01',
      '1970-01-01',
    ]) {
      const res = await report(alice, notice({ remittedOn }))
      expect(res.statusCode, `${remittedOn} ${res.body}`).toBe(400)
      expect(res.json()).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: { fields: [expect.objectContaining({ field: 'body.remittedOn' })] },
      })
    }
    expect(await t.database.db.selectFrom('remittances').select('id').execute()).toHaveLength(
      before,
    )
    for (const remittedOn of [
      chinaDay(now + DAY),
      chinaDay(now - REMITTED_ON_MAX_DAYS_BACK * DAY),
    ]) {
      const res = await report(alice, notice({ remittedOn, amount: 1 * YUAN }))
      expect(res.statusCode, `${remittedOn} ${res.body}`).toBe(200)
    }
    // China's date, not UTC's: at 23:30 UTC it is already the next day in China, so the day
    // after that is "tomorrow" and allowed, and the one after is not.
    const lateUtc = Date.UTC(2026, 10, 24, 23, 30)
    t.clock.set(lateUtc)
    try {
      expect(
        (await report(alice, notice({ remittedOn: '2026-11-26', amount: 1 * YUAN }))).statusCode,
      ).toBe(200)
      expect(
        (await report(alice, notice({ remittedOn: '2026-11-27', amount: 1 * YUAN }))).statusCode,
      ).toBe(400)
    } finally {
      t.clock.set(now)
    }
  })

  it("refuses another user's order, or a paid one, with ORDER_NOT_PAYABLE", async () => {
    const item = await createMallItem(admin, { price: 100 * YUAN })
    const bobs = (await buy(t, bob, { productNo: item.productNo, quantity: 1 })).json().data.orderId
    const res = await report(alice, notice({ orderIds: [bobs] }))
    expect(res.statusCode).toBe(409)
    expect(res.json()).toMatchObject({ code: 'ORDER_NOT_PAYABLE', details: { orderIds: [bobs] } })
    const unknownBank = await report(alice, notice({ companyBankId: 99_999 }))
    expect(unknownBank.statusCode).toBe(400)
  })

  it('confirming credits the balance and pays the orders it names from it; what is left stays', async () => {
    const won = await winLot(t, alice, 2_000 * YUAN)
    const item = await createMallItem(admin, { price: 150 * YUAN })
    const mall = (await buy(t, alice, { productNo: item.productNo, quantity: 1 })).json().data
      .orderId as number
    const balance = await balanceOf(t, alice, 'balance')
    const created = await filed(alice, { amount: 3_000 * YUAN, orderIds: [won.orderId, mall] })
    // Waiting for the money, a mall order no longer expires after 30 minutes.
    const payMethod = await t.database.db
      .selectFrom('orders')
      .select('pay_method')
      .where('id', '=', mall)
      .executeTakeFirstOrThrow()
    expect(payMethod.pay_method).toBe('remittance')

    const res = await admin('POST', `/remittances/${created.id}/confirm`, { note: '工行到账' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().data).toMatchObject({ status: 'confirmed', note: '工行到账' })
    // Staff see the company account the buyer named, to check it against that statement.
    const companyBank = {
      id: bankIds[1],
      bankName: '中国工商银行',
      branch: '北京潘家园支行',
      accountName: '泉藏拍卖（北京）文化有限公司',
      accountNo: '0200248909200135678',
    }
    expect(res.json().data.companyBank).toEqual(companyBank)
    const staffList = await admin('GET', '/remittances?status=confirmed')
    expect(
      staffList.json<{ data: { id: number }[] }>().data.find((r) => r.id === created.id),
    ).toMatchObject({ companyBank })
    expect(await orderStatus(won.orderId)).toBe('paid')
    expect(await orderStatus(mall)).toBe('paid')
    expect(await balanceOf(t, alice, 'balance')).toBe(
      balance + 3_000 * YUAN - won.total - 150 * YUAN,
    )
    const list = await t.call({ method: 'GET', path: '/user/finance/remittances', as: alice })
    expect(list.json<{ data: Remittance[] }>().data[0]).toMatchObject({
      id: created.id,
      status: 'confirmed',
    })
    expect(list.json<{ data: Remittance[] }>().data[0]).not.toHaveProperty('companyBank')
  })

  it('confirming pays the named orders only out of the money received, never from the balance there before', async () => {
    const carl = await t.signIn()
    await creditBalance(t, carl, 500 * YUAN)
    const order = async (price: number) => {
      const item = await createMallItem(admin, { price })
      return (await buy(t, carl, { productNo: item.productNo, quantity: 1 })).json().data
        .orderId as number
    }
    const [a, b, c] = [await order(150 * YUAN), await order(200 * YUAN), await order(100 * YUAN)]
    const created = await filed(carl, { amount: 450 * YUAN, orderIds: [c, b, a] })
    expect(created.amountReceived).toBeNull()
    // The bank shows 300 yuan: it pays the first order (150); the second (200) does not fit in
    // the 150 left, so it and every order after it wait, whatever the balance held before.
    const res = await admin('POST', `/remittances/${created.id}/confirm`, {
      amountReceived: 300 * YUAN,
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().data).toMatchObject({ status: 'confirmed', amountReceived: 300 * YUAN })
    expect([await orderStatus(a), await orderStatus(b), await orderStatus(c)]).toEqual([
      'paid',
      'pending_payment',
      'pending_payment',
    ])
    expect(await balanceOf(t, carl, 'balance')).toBe(500 * YUAN + 300 * YUAN - 150 * YUAN)
    const list = await t.call({ method: 'GET', path: '/user/finance/remittances', as: carl })
    expect(list.json<{ data: Remittance[] }>().data[0]).toMatchObject({
      id: created.id,
      amount: 450 * YUAN,
      amountReceived: 300 * YUAN,
    })

    // Less than the first order arrives: nothing is paid, the money waits on the balance.
    const short = await filed(carl, { amount: 200 * YUAN, orderIds: [b] })
    const less = await admin('POST', `/remittances/${short.id}/confirm`, {
      amountReceived: 199 * YUAN,
    })
    expect(less.statusCode, less.body).toBe(200)
    expect(await orderStatus(b)).toBe('pending_payment')
    expect(await balanceOf(t, carl, 'balance')).toBe(650 * YUAN + 199 * YUAN)
  })

  it('confirming without amountReceived takes the notice amount; a bad amount is a 400', async () => {
    const dora = await t.signIn()
    const created = await filed(dora, { amount: 88 * YUAN })
    for (const amountReceived of [0, -1, 1.5, '100']) {
      const bad = await admin('POST', `/remittances/${created.id}/confirm`, { amountReceived })
      expect(bad.statusCode, JSON.stringify(amountReceived)).toBe(400)
      expect(bad.json().code).toBe('VALIDATION_FAILED')
    }
    const res = await admin('POST', `/remittances/${created.id}/confirm`, {})
    expect(res.json().data).toMatchObject({ status: 'confirmed', amountReceived: 88 * YUAN })
    expect(await balanceOf(t, dora, 'balance')).toBe(88 * YUAN)
  })

  it('rejecting moves no money; a decided notice answers NOT_PENDING to either decision', async () => {
    const created = await filed(alice, { amount: 500 * YUAN })
    const balance = await balanceOf(t, alice, 'balance')
    const res = await admin('POST', `/remittances/${created.id}/reject`, { note: '未查到款项' })
    expect(res.statusCode).toBe(200)
    expect(res.json().data).toMatchObject({ status: 'rejected', note: '未查到款项' })
    expect(await balanceOf(t, alice, 'balance')).toBe(balance)
    for (const decision of ['confirm', 'reject']) {
      const again = await admin('POST', `/remittances/${created.id}/${decision}`, {})
      expect(again.statusCode).toBe(409)
      expect(again.json().code).toBe('NOT_PENDING')
    }
    expect(await transfers(`remittance ${created.id}`)).toEqual([])
    expect((await admin('POST', '/remittances/99999/confirm', {})).statusCode).toBe(404)
  })

  it('takes a decision without a body, or with a null one', async () => {
    // The same staff account staffCaller set up, signed in again for raw requests.
    const login = await t.inject({
      method: 'POST',
      url: '/svc/main/admin/login',
      payload: { username: 'admin', password: 'staff-test-password' },
    })
    const cookie = login.cookies.find((c) => c.name === 'staff_sid')!.value
    const decide = (id: number, verb: string, extra: object) =>
      t.inject({
        method: 'POST',
        url: `/svc/main/admin/remittances/${id}/${verb}`,
        cookies: { staff_sid: cookie },
        ...extra,
      })
    for (const extra of [
      {},
      { headers: { 'content-type': 'application/json' }, payload: 'null' },
    ]) {
      const created = await filed(alice, { amount: 10 * YUAN })
      const res = await decide(created.id, 'reject', extra)
      expect(res.statusCode, `${JSON.stringify(extra)} ${res.body}`).toBe(200)
      expect(res.json().data).toMatchObject({ status: 'rejected', note: null })
    }
  })

  it('twenty concurrent confirmations credit the money exactly once', async () => {
    const created = await filed(bob, { amount: 777 * YUAN })
    const balance = await balanceOf(t, bob, 'balance')
    const results = await Promise.all(
      Array.from({ length: 20 }, () => admin('POST', `/remittances/${created.id}/confirm`, {})),
    )
    const statuses = results.map((r) => r.statusCode).sort()
    expect(statuses.filter((s) => s === 200)).toHaveLength(1)
    expect(statuses.filter((s) => s === 409)).toHaveLength(19)
    expect(await balanceOf(t, bob, 'balance')).toBe(balance + 777 * YUAN)
    expect(await transfers(`remittance ${created.id}`)).toHaveLength(1)
  })

  it('replays a notice sent again under the same Idempotency-Key', async () => {
    const headers = { 'idempotency-key': 'remit-retry-0001' }
    const [first, second] = await Promise.all([
      report(alice, notice({ amount: 321 * YUAN }), headers),
      report(alice, notice({ amount: 321 * YUAN }), headers),
    ])
    expect(first.statusCode).toBe(200)
    expect(second.body).toBe(first.body)
    const list = await t.call({ method: 'GET', path: '/user/finance/remittances', as: alice })
    const mine = list.json<{ data: Remittance[] }>().data
    expect(mine.filter((r) => r.amount === 321 * YUAN)).toHaveLength(1)
    // Newest first, and only the caller's.
    expect(mine.map((r) => r.id)).toEqual([...mine.map((r) => r.id)].sort((a, b) => b - a))
    const bobs = await t.call({ method: 'GET', path: '/user/finance/remittances', as: bob })
    const bobIds = new Set(bobs.json<{ data: Remittance[] }>().data.map((r) => r.id))
    expect(mine.some((r) => bobIds.has(r.id))).toBe(false)
  })
})
