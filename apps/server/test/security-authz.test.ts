import { bookableDates } from '@numisma/domain/delivery'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SignedCall, Session, TestApp } from './helpers/app'
import { createTestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { buy, createMallItem, type StaffCall, staffCaller } from './helpers/mall-orders'
import { addCompanyBanks, winLot } from './helpers/money'
import { doPay, fundBalance, injectedWechatPay, PAY_PASSWORD, payer } from './helpers/payments'

/**
 * Issue 15 (deliverable 4): the authorization matrix. Every signed route is read from the app's own
 * OpenAPI document; each one that takes an id (a path parameter, or a query or body field named
 * like one) must be classified below. User B then calls every route that names the caller's own
 * rows with user A's ids: refused with 403/404 and a code, never A's data, and A's rows unchanged.
 * A new route with an id fails the first test until someone classifies it here.
 */
const databases = await testDatabases()

/** Query and body fields that name a row: `id`, `orderIds`, `productNo`, `key`, `bindToken`… */
const ID_FIELD = /^(ids?|key|before)$|Ids?$|No$|Token$/

interface Owned {
  userId: string
  addressId: number
  pendingOrderId: number
  paidOrderId: number
  /** Paid, waiting in storage: what delivery quotes and applies for. */
  storedOrderId: number
  auctionOrderId: number
  paymentId: number
  rechargeId: number
  shipmentId: number
  bookingId: number
  userCouponId: number
  remittanceId: number
  noticeIds: number[]
  chatMessageId: number
  chatImageKey: string
  productNo: string
  watchedLotId: number
}

type Probe = (a: Owned) => Omit<SignedCall, 'as'>

/**
 * `owned`: the id names a row of the caller's own; B with A's id must be refused (403/404, a code).
 * `ownedListing`: the id narrows a listing of the caller's own (a cursor); B may get 200, with B's
 * rows only. `public`: the id names something every visitor may see or use (a lot, an item, a
 * coupon on offer, a region), or a one-time token; nothing of another user's is reachable by it.
 */
type Rule =
  | {
      kind: 'owned'
      probe: Probe
      /**
       * How the refusal comes: 404/403 (the default); 409 for calls over a list of orders, which
       * refuse with ORDER_NOT_PAYABLE and the ids (DESIGN §9); or `outcome`, createOrder's HTTP 200
       * with a refused status (spec §4). Either way it must equal the answer for an id nobody has.
       */
      refusal?: 409 | 'outcome'
    }
  | { kind: 'ownedListing'; probe: Probe }
  | { kind: 'public'; why: string }

/** Ids of rows nobody has, to compare refusals with. */
const NOWHERE = 9_999_999
const nobody: Owned = {
  userId: String(NOWHERE),
  addressId: NOWHERE,
  pendingOrderId: NOWHERE,
  paidOrderId: NOWHERE,
  storedOrderId: NOWHERE,
  auctionOrderId: NOWHERE,
  paymentId: NOWHERE,
  rechargeId: NOWHERE,
  shipmentId: NOWHERE,
  bookingId: NOWHERE,
  userCouponId: NOWHERE,
  remittanceId: NOWHERE,
  noticeIds: [NOWHERE],
  chatMessageId: NOWHERE,
  chatImageKey: 'f'.repeat(32),
  productNo: '',
  watchedLotId: NOWHERE,
}

const ROUTES: Record<string, Rule> = {
  // Money
  'GET /svc/main/user/finance/remittances/{id}/receipt': {
    kind: 'owned',
    probe: (a) => ({ method: 'GET', path: `/user/finance/remittances/${a.remittanceId}/receipt` }),
  },
  'POST /svc/main/user/finance/@remittance': {
    kind: 'owned',
    refusal: 409,
    probe: (a) => ({
      method: 'POST',
      path: '/user/finance/@remittance',
      body: {
        companyBankId: 1,
        amount: 100,
        payerName: '乙',
        payerBank: '中国银行',
        remittedOn: '2026-11-26',
        orderIds: [a.auctionOrderId],
      },
    }),
  },
  'PATCH /svc/main/user/{userId}/@finance': {
    kind: 'owned',
    probe: (a) => ({ method: 'PATCH', path: `/user/${a.userId}/@finance`, body: { amount: 100 } }),
  },
  'GET /svc/main/user/{userId}/@entrust': {
    kind: 'owned',
    probe: (a) => ({ method: 'GET', path: `/user/${a.userId}/@entrust` }),
  },
  'GET /svc/main/user/{userId}/@trade': {
    kind: 'owned',
    probe: (a) => ({ method: 'GET', path: `/user/${a.userId}/@trade` }),
  },
  'POST /svc/main/user/3_3/pay/doPay': {
    kind: 'owned',
    refusal: 409,
    probe: (a) => ({
      method: 'POST',
      path: '/user/3_3/pay/doPay',
      body: { orderIds: [a.pendingOrderId], method: 'balance', payPassword: PAY_PASSWORD },
    }),
  },
  'GET /svc/main/user/3_3/pay/waitPayStatistics': {
    kind: 'owned',
    refusal: 409,
    probe: (a) => ({
      method: 'GET',
      path: `/user/3_3/pay/waitPayStatistics?orderIds=${a.pendingOrderId}`,
    }),
  },
  'GET /svc/main/user/payments/{id}': {
    kind: 'owned',
    probe: (a) => ({ method: 'GET', path: `/user/payments/${a.paymentId}` }),
  },
  'GET /svc/main/user/recharge/{id}': {
    kind: 'owned',
    probe: (a) => ({ method: 'GET', path: `/user/recharge/${a.rechargeId}` }),
  },
  // Orders
  'POST /svc/main/mallorder/createOrder': {
    kind: 'owned',
    refusal: 'outcome',
    probe: (a) => ({
      method: 'POST',
      path: '/mallorder/createOrder',
      body: { productNo: a.productNo, quantity: 1, userCouponId: a.userCouponId },
    }),
  },
  'GET /svc/main/user/3_3/order/cancel': {
    kind: 'owned',
    probe: (a) => ({ method: 'GET', path: `/user/3_3/order/cancel?orderId=${a.pendingOrderId}` }),
  },
  'GET /svc/main/user/order/{id}': {
    kind: 'owned',
    probe: (a) => ({ method: 'GET', path: `/user/order/${a.paidOrderId}` }),
  },
  'POST /svc/main/user/booking/bookingApply': {
    kind: 'owned',
    probe: (a, date = bookableDates(Date.now())[1]!) => ({
      method: 'POST',
      path: '/user/booking/bookingApply',
      body: { orderIds: [a.pendingOrderId], date, slot: '10:00-12:00' },
    }),
  },
  'POST /svc/main/user/booking/{id}/cancel': {
    kind: 'owned',
    probe: (a) => ({ method: 'POST', path: `/user/booking/${a.bookingId}/cancel` }),
  },
  // Coupons
  'GET /svc/main/user/3_3/pay/getUserCoupons': {
    kind: 'owned',
    probe: (a) => ({
      method: 'GET',
      path: `/user/3_3/pay/getUserCoupons?orderId=${a.pendingOrderId}`,
    }),
  },
  // Addresses
  'GET /svc/main/user/address/@getaddress/{id}': {
    kind: 'owned',
    probe: (a) => ({ method: 'GET', path: `/user/address/@getaddress/${a.addressId}` }),
  },
  'POST /svc/main/user/address/{id}': {
    kind: 'owned',
    probe: (a) => ({
      method: 'POST',
      path: `/user/address/${a.addressId}`,
      body: {
        name: '乙某',
        mobile: '13900139000',
        countryId: 'CN',
        provinceId: '110000',
        cityId: '110105',
        detail: '乙方改写的地址',
      },
    }),
  },
  'DELETE /svc/main/user/address/{id}': {
    kind: 'owned',
    probe: (a) => ({ method: 'DELETE', path: `/user/address/${a.addressId}` }),
  },
  'POST /svc/main/user/address/@defaddress/{id}': {
    kind: 'owned',
    probe: (a) => ({ method: 'POST', path: `/user/address/@defaddress/${a.addressId}` }),
  },
  // Delivery
  'POST /svc/main/api/user/logistic/delivery/apply': {
    kind: 'owned',
    probe: (a) => ({
      method: 'POST',
      path: '/api/user/logistic/delivery/apply',
      body: {
        orderIds: [a.storedOrderId],
        method: 'express',
        addressId: a.addressId,
        insured: false,
        payPassword: PAY_PASSWORD,
      },
    }),
  },
  'GET /svc/main/api/user/logistic/delivery/query': {
    kind: 'owned',
    probe: (a) => ({
      method: 'GET',
      path: `/api/user/logistic/delivery/query?orderIds=${a.storedOrderId}&addressId=${a.addressId}`,
    }),
  },
  'GET /svc/main/user/3_3/logistic/queryExitBan': {
    kind: 'owned',
    probe: (a) => ({
      method: 'GET',
      path: `/user/3_3/logistic/queryExitBan?orderIds=${a.storedOrderId}&countryId=CN`,
    }),
  },
  'GET /svc/main/user/{id}/@logistic': {
    kind: 'owned',
    probe: (a) => ({ method: 'GET', path: `/user/${a.shipmentId}/@logistic` }),
  },
  'GET /svc/main/user/queryAuctionList': {
    kind: 'owned',
    probe: (a) => ({ method: 'GET', path: `/user/queryAuctionList?shipmentId=${a.shipmentId}` }),
  },
  'POST /svc/main/user/upLogisticStatus': {
    kind: 'owned',
    probe: (a) => ({
      method: 'POST',
      path: '/user/upLogisticStatus',
      body: { shipmentId: a.shipmentId },
    }),
  },
  // Notices and chat
  'POST /svc/main/user/notices/read': {
    kind: 'ownedListing',
    probe: (a) => ({ method: 'POST', path: '/user/notices/read', body: { ids: a.noticeIds } }),
  },
  'GET /svc/main/chat/images/{key}': {
    kind: 'owned',
    probe: (a) => ({ method: 'GET', path: `/chat/images/${a.chatImageKey}` }),
  },
  'GET /svc/main/chat/messages': {
    kind: 'ownedListing',
    probe: (a) => ({ method: 'GET', path: `/chat/messages?before=${a.chatMessageId + 1}` }),
  },
  'GET /svc/main/auction/{ids}/@attention': {
    kind: 'owned',
    probe: (a) => ({
      method: 'GET',
      path: `/auction/${a.watchedLotId}/@attention?userId=${a.userId}`,
    }),
  },
  'POST /svc/main/chat/messages': {
    kind: 'public',
    why: 'a card names a lot or mall item by its public number; the message goes to the caller’s own conversation',
  },
  // Public things named by id
  'GET /svc/main/mall/advertis/{position}': { kind: 'public', why: 'a banner position' },
  'GET /svc/main/special/{id}': { kind: 'public', why: 'a special' },
  'GET /svc/main/auction/{id}': { kind: 'public', why: 'a lot' },
  'GET /svc/main/mallproduct/getMallByProductNo/{id}': { kind: 'public', why: 'a mall item' },
  'POST /svc/main/bidding/bid': { kind: 'public', why: 'a lot; the bid is the caller’s own' },
  'GET /svc/main/bidding/{id}': { kind: 'public', why: 'a lot’s history, names masked' },
  'POST /svc/main/bidding/cancelProxy': {
    kind: 'public',
    why: 'a lot; only the caller’s own proxy on it is cancelled',
  },
  'POST /svc/main/auction/{id}/@attention': {
    kind: 'public',
    why: 'a lot; the caller’s own watch',
  },
  'DELETE /svc/main/auction/{id}/@attention': {
    kind: 'public',
    why: 'a lot; the caller’s own watch',
  },
  'GET /svc/main/mallorder/records/{productNo}': { kind: 'public', why: 'a mall item’s records' },
  'POST /svc/main/mall/attention/{productNo}': { kind: 'public', why: 'a mall item; own watch' },
  'POST /svc/main/mall/cancelAttention/{productNo}': {
    kind: 'public',
    why: 'a mall item; own watch',
  },
  'GET /svc/main/mallproduct/getMallCoupons/{productNo}': {
    kind: 'public',
    why: 'coupons on offer',
  },
  'POST /svc/main/api/user/receiveCoupon/{couponId}': {
    kind: 'public',
    why: 'a coupon on offer; the received copy is the caller’s',
  },
  'GET /svc/main/h5/auth/getWxOpenId/{code}': {
    kind: 'public',
    why: 'a one-time OAuth code of the messaging platform, bound to the browser that got it',
  },
  'POST /svc/main/passport/wx-bind': { kind: 'public', why: 'a one-time bind token from sign-in' },
  'GET /svc/search/api/search/wechat': { kind: 'public', why: 'search filters' },
  'GET /svc/main/pub/@province': { kind: 'public', why: 'a country of the region picker' },
  'GET /svc/main/pub/@city': { kind: 'public', why: 'a province of the region picker' },
  'POST /svc/main/user/address': {
    kind: 'public',
    why: 'regions of the picker; the address is new',
  },
  'POST /svc/main/user/finance/withdrawals': {
    kind: 'public',
    why: 'accountNo is the caller’s own bank account number, written, not a row looked up',
  },
}

/**
 * Routes outside the signed services that take an id in their path, and who may read them: an
 * `<img>` cannot sign, so these trust a cookie or name public pictures.
 */
const UNSIGNED_ROUTES: Record<string, string> = {
  'GET /svc/media/art/{token}': 'generated coin art, public',
  'GET /svc/media/photos/{key}/{file}': 'catalogue photos, public',
  'GET /svc/sandbox/wx/avatar/{openid}': 'the messaging platform sandbox, outside production only',
  'GET /svc/push/chat/images/{key}':
    'a chat picture, only to its conversation’s sid (tested below)',
}

interface Operation {
  name: string
  idFields: string[]
}

/** The signed routes of the app and the id-like inputs each takes, from its OpenAPI document. */
function signedOperations(t: TestApp): Operation[] {
  type Param = { in: string; name: string }
  type Schema = { properties?: Record<string, unknown>; oneOf?: Schema[]; anyOf?: Schema[] }
  type Op = {
    parameters?: Param[]
    requestBody?: { content?: Record<string, { schema?: Schema }> }
  }
  const doc = t.app.swagger() as unknown as { paths: Record<string, Record<string, Op>> }
  const fieldsOf = (schema: Schema | undefined): string[] =>
    schema
      ? [
          ...Object.keys(schema.properties ?? {}),
          ...[...(schema.oneOf ?? []), ...(schema.anyOf ?? [])].flatMap(fieldsOf),
        ]
      : []
  const operations: Operation[] = []
  for (const [path, ops] of Object.entries(doc.paths)) {
    const signed =
      (path.startsWith('/svc/main/') || path.startsWith('/svc/search/')) &&
      !path.startsWith('/svc/main/admin') &&
      !path.startsWith('/svc/main/pay/notify')
    if (!signed) continue
    for (const [method, op] of Object.entries(ops)) {
      const params = (op.parameters ?? []).filter((p) => p.in !== 'header')
      const body = fieldsOf(op.requestBody?.content?.['application/json']?.schema)
      const idFields = [
        ...params.filter((p) => p.in === 'path' || ID_FIELD.test(p.name)).map((p) => p.name),
        ...body.filter((name) => ID_FIELD.test(name)),
      ]
      operations.push({ name: `${method.toUpperCase()} ${path}`, idFields: [...new Set(idFields)] })
    }
  }
  return operations
}

const pngDataUrl = async () =>
  `data:image/png;base64,${(
    await sharp({
      create: { width: 32, height: 24, channels: 3, background: { r: 180, g: 140, b: 30 } },
    })
      .png()
      .toBuffer()
  ).toString('base64')}`

const A_MARKER = '甲方私密地址七号院'
const A_CHAT = '甲方私密聊天内容'
const A_PAYER = '甲方汇款人'

/** Gives user A one row of every user-scoped kind, through the API as A would. */
async function ownRowsOf(t: TestApp, admin: StaffCall, a: Session): Promise<Owned> {
  const ok = async (call: Omit<SignedCall, 'as'>) => {
    const res = await t.call({ ...call, as: a })
    expect(res.statusCode, `${call.method} ${call.path}: ${res.body}`).toBe(200)
    return res.json<{ data: Record<string, unknown> }>().data
  }
  const db = t.database.db
  const userId = Number(a.userId)
  await fundBalance(t, a.userId, 10_000_00)
  const addressId = (
    await ok({
      method: 'POST',
      path: '/user/address',
      body: {
        name: '甲某',
        mobile: '13800138000',
        countryId: 'CN',
        provinceId: '110000',
        cityId: '110105',
        detail: A_MARKER,
        isDefault: true,
      },
    })
  ).id as number
  const item = await createMallItem(admin, { price: 20_000, stock: 50 })
  const coupon = await admin('POST', '/coupons', {
    title: '满100减10',
    kind: 'amount',
    threshold: 10_000,
    amount: 1_000,
    total: 100,
    perUser: 1,
    startsAt: new Date(t.clock.now() - 3_600_000).toISOString(),
    endsAt: new Date(t.clock.now() + 86_400_000).toISOString(),
    productNos: [],
    categoryIds: [],
  })
  expect(coupon.statusCode, coupon.body).toBe(200)
  const couponId = coupon.json<{ data: { id: number } }>().data.id
  const userCouponId = (await ok({ method: 'POST', path: `/api/user/receiveCoupon/${couponId}` }))
    .userCouponId as number
  const orderOf = async () =>
    (await buy(t, a, { productNo: item.productNo, quantity: 1 })).json<{
      data: { orderId: number }
    }>().data.orderId
  const pendingOrderId = await orderOf()
  const paidOrderId = await orderOf()
  const storedOrderId = await orderOf()
  const paid = await doPay(t, a, {
    orderIds: [paidOrderId, storedOrderId],
    method: 'balance',
    payPassword: PAY_PASSWORD,
  })
  expect(paid.statusCode, paid.body).toBe(200)
  const paymentId = (
    await db
      .selectFrom('payments')
      .select('id')
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow()
  ).id
  const rechargeId = (
    await ok({ method: 'PATCH', path: '/user/recharge/@finance', body: { amount: 10_000 } })
  ).rechargeId as number
  const shipmentId = (
    await ok({
      method: 'POST',
      path: '/api/user/logistic/delivery/apply',
      body: {
        orderIds: [paidOrderId],
        method: 'express',
        addressId,
        insured: false,
        payPassword: PAY_PASSWORD,
      },
    })
  ).shipmentId as number
  const { orderId: auctionOrderId, lotId: watchedLotId } = await winLot(t, a, 10_000)
  await ok({ method: 'POST', path: `/auction/${watchedLotId}/@attention` })
  const bookingId = (
    await ok({
      method: 'POST',
      path: '/user/booking/bookingApply',
      body: {
        orderIds: [auctionOrderId],
        date: bookableDates(t.clock.now())[0]!,
        slot: '10:00-12:00',
      },
    })
  ).bookingId as number
  const [bankId] = await addCompanyBanks(t)
  const remittanceId = (
    await ok({
      method: 'POST',
      path: '/user/finance/@remittance',
      body: {
        companyBankId: bankId,
        amount: 100_000,
        payerName: A_PAYER,
        payerBank: '中国银行北京分行',
        remittedOn: new Date(t.clock.now() + 8 * 3_600_000).toISOString().slice(0, 10),
        receipt: await pngDataUrl(),
      },
    })
  ).id as number
  const chatMessageId = (
    await ok({
      method: 'POST',
      path: '/chat/messages',
      body: { kind: 'text', clientId: `sec-${Date.now()}-t`, text: A_CHAT },
    })
  ).id as number
  const image = await ok({
    method: 'POST',
    path: '/chat/messages',
    body: { kind: 'image', clientId: `sec-${Date.now()}-i`, image: await pngDataUrl() },
  })
  const chatImageKey = String(image.imageUrl).split('/').pop()!
  const noticeIds = (
    await db.selectFrom('notices').select('id').where('user_id', '=', userId).execute()
  ).map((n) => n.id)
  return {
    userId: a.userId,
    addressId,
    pendingOrderId,
    paidOrderId,
    storedOrderId,
    auctionOrderId,
    paymentId,
    rechargeId,
    shipmentId,
    bookingId,
    userCouponId,
    remittanceId,
    noticeIds,
    chatMessageId,
    chatImageKey,
    productNo: item.productNo,
    watchedLotId,
  }
}

/** Every row of every table with a `user_id` column that belongs to the user. */
async function rowsOf(t: TestApp, userId: number): Promise<Record<string, unknown[]>> {
  const tables = await t.database.db.introspection.getTables()
  const snapshot: Record<string, unknown[]> = {}
  for (const table of tables) {
    if (table.name === 'sessions') continue // its last use moves with every call
    if (!table.columns.some((c) => c.name === 'user_id')) continue
    const rows = await t.database.db
      .selectFrom(table.name as 'orders')
      .selectAll()
      .where('user_id', '=', userId)
      .execute()
    snapshot[table.name] = rows
      .map((r) => JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)))
      .sort()
  }
  return snapshot
}

describe.each(databases)('authorization matrix on $name', (kind) => {
  let t: TestApp
  let a: Session
  let b: Session
  let owned: Owned
  let operations: Operation[]

  beforeAll(async () => {
    const wx = injectedWechatPay()
    t = await createTestApp(kind, { wechatPay: wx.options })
    wx.attach(t.app)
    const admin = await staffCaller(t)
    a = await payer(t)
    b = await payer(t)
    await fundBalance(t, b.userId, 10_000_00)
    owned = await ownRowsOf(t, admin, a)
    operations = signedOperations(t)
  }, 120_000)
  afterAll(() => t.close())

  it('classifies every signed route that takes an id', () => {
    expect(operations.length).toBeGreaterThan(50)
    const unclassified = operations
      .filter((op) => op.idFields.length > 0 && !(op.name in ROUTES))
      .map((op) => `${op.name} (takes ${op.idFields.join(', ')})`)
    expect(
      unclassified,
      'classify these routes in ROUTES of apps/server/test/security-authz.test.ts: owned (B with A’s id must be refused), ownedListing, or public with why',
    ).toEqual([])
    const doc = t.app.swagger() as unknown as { paths: Record<string, Record<string, unknown>> }
    const unsigned = Object.entries(doc.paths)
      .filter(([path]) => path.includes('{') && !/^\/svc\/(main|search)\//.test(path))
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
    expect(
      unsigned.filter((name) => !(name in UNSIGNED_ROUTES)),
      'classify these unsigned routes in UNSIGNED_ROUTES of apps/server/test/security-authz.test.ts',
    ).toEqual([])
    const gone = Object.keys(ROUTES).filter((name) => !operations.some((op) => op.name === name))
    expect(gone, 'ROUTES names routes the app no longer has').toEqual([])
  })

  it('refuses user B every one of user A’s rows, with a code and none of A’s data', async () => {
    const before = await rowsOf(t, Number(a.userId))
    const leaks = [A_MARKER, A_CHAT, A_PAYER, a.mobile]
    const wrong: unknown[] = []
    for (const [route, rule] of Object.entries(ROUTES)) {
      if (rule.kind === 'public') continue
      const res = await t.call({ ...rule.probe(owned), as: b })
      const leak = leaks.find((s) => res.body.includes(s))
      const json = res.headers['content-type']?.toString().includes('json')
        ? res.json<{ code?: string; data?: unknown }>()
        : {}
      let refused = false
      if (rule.kind === 'owned') {
        // B learns nothing: the same answer as for ids nobody has.
        const missing = await t.call({
          ...rule.probe({ ...nobody, productNo: owned.productNo }),
          as: b,
        })
        const same =
          missing.statusCode === res.statusCode &&
          missing.body.replace(/\d+/g, '#') === res.body.replace(/\d+/g, '#')
        const outcome = json.data as { status?: string } | undefined
        refused =
          same &&
          (rule.refusal === 'outcome'
            ? res.statusCode === 200 && outcome?.status !== 'SUCCESS'
            : res.statusCode === (rule.refusal ?? res.statusCode) &&
              [403, 404, 409].includes(res.statusCode) &&
              (rule.refusal === 409 || res.statusCode !== 409) &&
              typeof json.code === 'string' &&
              json.code !== 'VALIDATION_FAILED' &&
              !('data' in json))
      }
      const answered = rule.kind === 'ownedListing' && res.statusCode < 400
      if (leak || !(refused || answered))
        wrong.push({ route, status: res.statusCode, body: res.body.slice(0, 200), leak })
    }
    // A chat picture goes by the sid cookie, as an <img> sends it.
    const picture = (sid: string | undefined) =>
      t.inject({
        method: 'GET',
        url: `/svc/push/chat/images/${owned.chatImageKey}`,
        cookies: sid ? { sid } : {},
      })
    for (const sid of [b.sid, undefined]) {
      const res = await picture(sid)
      if (res.statusCode !== 404)
        wrong.push({ route: 'chat picture by cookie', status: res.statusCode })
    }
    expect((await picture(a.sid)).statusCode).toBe(200)
    expect(wrong).toEqual([])
    expect(await rowsOf(t, Number(a.userId))).toEqual(before)
  })

  it('answers A’s own rows to A through the same probes (the probes name real rows)', async () => {
    const reads = Object.entries(ROUTES).filter(
      ([route, rule]) => rule.kind === 'owned' && route.startsWith('GET '),
    )
    for (const [route, rule] of reads) {
      if (rule.kind !== 'owned') continue
      const res = await t.call({ ...rule.probe(owned), as: a })
      expect({ route, status: res.statusCode }).toEqual({ route, status: 200 })
    }
  })
})

/** Staff-prefix routes that are not behind the staff guard, and why. */
const STAFF_OPEN = new Map([['POST /svc/main/admin/login', 'signing in']])

describe.each(databases)('staff routes on $name', (kind) => {
  let t: TestApp

  beforeAll(async () => {
    t = await createTestApp(kind)
  })
  afterAll(() => t.close())

  it('puts every route under the staff prefix behind the staff guard (the matrix of staff-access.test.ts)', () => {
    // staff-access.test.ts calls every guarded route with no session, a buyer's and each role that
    // lacks it; a route under /admin registered outside the guard would escape that matrix.
    const doc = t.app.swagger() as unknown as { paths: Record<string, Record<string, unknown>> }
    const guarded = new Set(
      t.app.staffRouteTable.map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`),
    )
    const outside = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/svc/main/admin'))
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
      .filter((name) => !guarded.has(name) && !STAFF_OPEN.has(name))
    expect(outside, 'staff routes outside the guard: register them in its scope').toEqual([])
    expect(guarded.size).toBeGreaterThan(50)
  })

  it('refuses a buyer’s fully signed request on staff routes', async () => {
    const buyer = await t.signIn()
    for (const r of t.app.staffRouteTable.filter((r) => !r.websocket)) {
      const path = r.url.replace('/svc/main', '').replace(/:(\w+)/g, '1')
      const res = await t.call({
        method: r.method as 'GET',
        path,
        as: buyer,
        ...(r.method === 'GET' || r.method === 'DELETE' ? {} : { body: {} }),
      })
      expect({ route: `${r.method} ${r.url}`, status: res.statusCode }).toEqual({
        route: `${r.method} ${r.url}`,
        status: 401,
      })
    }
  })
})
