import { bookableDates } from '@numisma/domain/delivery'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SignedCall, Session, TestApp } from './helpers/app'
import { createTestApp } from './helpers/app'
import { createLot, creditDeposit } from './helpers/auction'
import { testDatabases } from './helpers/databases'
import { buy, createMallItem, type StaffCall, staffCaller } from './helpers/mall-orders'
import { addCompanyBanks, winLot } from './helpers/money'
import { bodyFieldPaths, fieldPaths, leafOf, openApiOf } from './helpers/openapi'
import { doPay, fundBalance, injectedWechatPay, PAY_PASSWORD, payer } from './helpers/payments'

/**
 * Issue 15 (deliverable 4): the authorization matrix. Every signed route is read from the app's own
 * OpenAPI document; each one that takes an id (a path parameter, or a query or body field named
 * like one, however deep in the body) must be classified below. User B then calls every route that
 * names the caller's own rows with user A's ids: refused with 403/404 and a code, never A's data,
 * and A's rows unchanged. Every route that writes by a public id (a lot, an item, a coupon) is
 * called by B with the ids A used, one by one: A's rows stay as they were (A's proxy live after
 * B's cancelProxy of the same lot, A's watches kept, A's coupon untouched…). A new route with an
 * id fails the first test until someone classifies it here.
 */
const databases = await testDatabases()

/** Names that are an id whole: `id`, `ids`, `key`, `before` (a cursor), in any case. */
const ID_NAMES = /^(ids?|key|before)$/
/** The last word of a name that makes it an id: `orderIds`, `productNo`, `bindToken`… */
const ID_WORDS = /^(ids?|no|token)$/

/**
 * Whether a query or body field names a row, by its words in any case: `orderId`, `orderID`,
 * `ORDER_ID`, `order-ids`, `productNo`, `bindToken`, `Id`. Not `paid` or `valid`: the id must be a
 * word of its own (a run-together lower-case `orderid` is not seen; the contracts spell camelCase).
 */
function isIdName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase())
  return ID_NAMES.test(name.toLowerCase()) || ID_WORDS.test(words.at(-1) ?? '')
}

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
  mobile: string
  /** Open, A leads it by a proxy (maximum {@link A_PROXY_MAX}); B's lower proxy is there too. */
  openLotId: number
  /** The coupon on offer A received `userCouponId` of. */
  couponId: number
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
  | {
      /**
       * The id names something public, and the call writes the caller's own rows (a bid, a watch,
       * a received coupon). B calls it with the public ids A used: A's rows must stay as they were.
       */
      kind: 'publicWrite'
      why: string
      probe: Probe
      /** B's call is refused (4xx, a code) rather than done for B (200, the default). */
      refused?: true
      /** Tables where A's rows may gain rows by the rules (none changes or goes), and why. */
      grows?: Record<string, string>
    }

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
  mobile: '',
  openLotId: NOWHERE,
  couponId: NOWHERE,
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
    kind: 'publicWrite',
    why: 'a card names a lot or mall item by its public number; the message goes to the caller’s own conversation',
    probe: (a) => ({
      method: 'POST',
      path: '/chat/messages',
      body: {
        kind: 'card',
        clientId: `sec-b-${Date.now()}`,
        card: { kind: 'lot', ref: String(a.openLotId) },
      },
    }),
  },
  // Public things named by id
  'GET /svc/main/mall/advertis/{position}': { kind: 'public', why: 'a banner position' },
  'GET /svc/main/special/{id}': { kind: 'public', why: 'a special' },
  'GET /svc/main/auction/{id}': { kind: 'public', why: 'a lot' },
  'GET /svc/main/mallproduct/getMallByProductNo/{id}': { kind: 'public', why: 'a mall item' },
  'GET /svc/main/bidding/{id}': { kind: 'public', why: 'a lot’s history, names masked' },
  // B's lower proxy on A's lot was beaten (only the leader's proxy lives on): B's cancel of that
  // lot finds none of B's and must not take A's; then B bids there directly.
  'POST /svc/main/bidding/cancelProxy': {
    kind: 'publicWrite',
    why: 'a lot; only the caller’s own proxy on it is cancelled',
    refused: true,
    probe: (a) => ({ method: 'POST', path: '/bidding/cancelProxy', body: { lotId: a.openLotId } }),
  },
  'POST /svc/main/bidding/bid': {
    kind: 'publicWrite',
    why: 'a lot; the bid is the caller’s own',
    probe: (a) => ({
      method: 'POST',
      path: '/bidding/bid',
      body: { lotId: a.openLotId, amount: B_DIRECT_BID, proxy: false },
    }),
    grows: { bids: 'A’s proxy answers B’s lower bid with an automatic bid (DESIGN §4)' },
  },
  'POST /svc/main/auction/{id}/@attention': {
    kind: 'publicWrite',
    why: 'a lot; the caller’s own watch',
    probe: (a) => ({ method: 'POST', path: `/auction/${a.openLotId}/@attention` }),
  },
  'DELETE /svc/main/auction/{id}/@attention': {
    kind: 'publicWrite',
    why: 'a lot; the caller’s own watch',
    probe: (a) => ({ method: 'DELETE', path: `/auction/${a.watchedLotId}/@attention` }),
  },
  'GET /svc/main/mallorder/records/{productNo}': { kind: 'public', why: 'a mall item’s records' },
  // Watched by B first, so B's cancel below has a watch of B's to end beside A's.
  'POST /svc/main/mall/attention/{productNo}': {
    kind: 'publicWrite',
    why: 'a mall item; own watch',
    probe: (a) => ({ method: 'POST', path: `/mall/attention/${a.productNo}` }),
  },
  'POST /svc/main/mall/cancelAttention/{productNo}': {
    kind: 'publicWrite',
    why: 'a mall item; own watch',
    probe: (a) => ({ method: 'POST', path: `/mall/cancelAttention/${a.productNo}` }),
  },
  'GET /svc/main/mallproduct/getMallCoupons/{productNo}': {
    kind: 'public',
    why: 'coupons on offer',
  },
  'POST /svc/main/api/user/receiveCoupon/{couponId}': {
    kind: 'publicWrite',
    why: 'a coupon on offer; the received copy is the caller’s',
    probe: (a) => ({ method: 'POST', path: `/api/user/receiveCoupon/${a.couponId}` }),
  },
  'GET /svc/main/h5/auth/getWxOpenId/{code}': {
    kind: 'public',
    why: 'a one-time OAuth code of the messaging platform, bound to the browser that got it',
  },
  'POST /svc/main/passport/wx-bind': {
    kind: 'publicWrite',
    why: 'a one-time bind token from sign-in; B naming A’s mobile without its code binds nothing',
    refused: true,
    probe: (a) => ({
      method: 'POST',
      path: '/passport/wx-bind',
      body: { bindToken: 'f'.repeat(32), mobile: a.mobile, code: '000000', agreement: true },
    }),
  },
  'GET /svc/search/api/search/wechat': { kind: 'public', why: 'search filters' },
  'GET /svc/main/pub/@province': { kind: 'public', why: 'a country of the region picker' },
  'GET /svc/main/pub/@city': { kind: 'public', why: 'a province of the region picker' },
  'POST /svc/main/user/address': {
    kind: 'publicWrite',
    why: 'regions of the picker; the address is new',
    probe: () => ({
      method: 'POST',
      path: '/user/address',
      body: {
        name: '乙某',
        mobile: '13900139000',
        countryId: 'CN',
        provinceId: '110000',
        cityId: '110105',
        detail: '乙方自己的地址',
        isDefault: true,
      },
    }),
  },
  'POST /svc/main/user/finance/withdrawals': {
    kind: 'publicWrite',
    why: 'accountNo is the caller’s own bank account number, written, not a row looked up',
    probe: () => ({
      method: 'POST',
      path: '/user/finance/withdrawals',
      body: {
        amount: 1_000,
        source: 'balance',
        bankName: '中国银行北京分行',
        accountName: '乙某',
        accountNo: '6217000010009876543',
        payPassword: PAY_PASSWORD,
      },
    }),
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

/**
 * The signed routes of the app and the id-like inputs each takes, from its OpenAPI document: path
 * parameters, and query and body fields named like an id however deep (`items[].orderId`).
 */
function signedOperations(t: TestApp): Operation[] {
  const doc = openApiOf(t.app)
  const operations: Operation[] = []
  for (const [path, ops] of Object.entries(doc.paths)) {
    const signed =
      (path.startsWith('/svc/main/') || path.startsWith('/svc/search/')) &&
      !path.startsWith('/svc/main/admin') &&
      !path.startsWith('/svc/main/pay/notify')
    if (!signed) continue
    for (const [method, op] of Object.entries(ops)) {
      const params = (op.parameters ?? []).filter((p) => p.in !== 'header')
      const fields = [
        ...params.flatMap((p) => [p.name, ...fieldPaths(doc, p.schema, p.name)]),
        ...bodyFieldPaths(doc, op),
      ]
      const idFields = [
        ...params.filter((p) => p.in === 'path').map((p) => p.name),
        ...fields.filter((field) => isIdName(leafOf(field))),
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
/** A's proxy maximum on the open lot, B's lower proxy there, and B's direct bid between them. */
const A_PROXY_MAX = 150_000
const B_PROXY_MAX = 120_000
const B_DIRECT_BID = 130_000

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
  await creditDeposit(t, a.userId, 100_000)
  const openLotId = await createLot(t, { startPrice: 100_000 })
  await ok({
    method: 'POST',
    path: '/bidding/bid',
    body: { lotId: openLotId, amount: A_PROXY_MAX, proxy: true },
  })
  await ok({ method: 'POST', path: `/mall/attention/${item.productNo}` })
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
    mobile: a.mobile,
    openLotId,
    couponId,
  }
}

/** B's own rows beside A's, for B's public writes to act on: a lower proxy, a watch. */
async function bRowsBeside(t: TestApp, b: Session, owned: Owned): Promise<void> {
  await creditDeposit(t, b.userId, 100_000)
  for (const call of [
    {
      method: 'POST',
      path: '/bidding/bid',
      body: { lotId: owned.openLotId, amount: B_PROXY_MAX, proxy: true },
    },
    { method: 'POST', path: `/auction/${owned.watchedLotId}/@attention` },
  ] as const) {
    const res = await t.call({ ...call, as: b })
    expect(res.statusCode, `${call.method} ${call.path}: ${res.body}`).toBe(200)
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
    await bRowsBeside(t, b, owned)
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
    const writes = Object.entries(ROUTES)
      .filter(([name, rule]) => rule.kind === 'public' && !name.startsWith('GET '))
      .map(([name]) => name)
    expect(
      writes,
      'these write by a public id: classify them publicWrite, with a probe B calls with A’s ids',
    ).toEqual([])
  })

  it('finds ids however they are spelt and however deep in the body', () => {
    for (const name of ['id', 'ID', 'orderId', 'orderID', 'ORDER_ID', 'order-ids', 'productNo'])
      expect(isIdName(name), name).toBe(true)
    for (const name of ['paid', 'valid', 'android', 'note', 'amount', 'keyword'])
      expect(isIdName(name), name).toBe(false)
    const doc = { paths: {}, components: { schemas: { Line: { properties: { lotId: {} } } } } }
    const nested = fieldPaths(doc, {
      allOf: [
        { properties: { items: { type: 'array', items: { properties: { orderId: {} } } } } },
        { anyOf: [{ properties: { gift: { properties: { couponNo: {} } } } }] },
      ],
      oneOf: [{ properties: { lines: { items: { $ref: '#/components/schemas/Line' } } } }],
    })
    expect(nested.filter((f) => isIdName(leafOf(f))).sort()).toEqual([
      'gift.couponNo',
      'items[].orderId',
      'lines[].lotId',
    ])
  })

  it('refuses user B every one of user A’s rows, with a code and none of A’s data', async () => {
    const before = await rowsOf(t, Number(a.userId))
    const leaks = [A_MARKER, A_CHAT, A_PAYER, a.mobile]
    const wrong: unknown[] = []
    for (const [route, rule] of Object.entries(ROUTES)) {
      if (rule.kind === 'public' || rule.kind === 'publicWrite') continue
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

  it('leaves A’s rows as they were when B writes by the public ids A used', async () => {
    const wrong: unknown[] = []
    for (const [route, rule] of Object.entries(ROUTES)) {
      if (rule.kind !== 'publicWrite') continue
      const before = await rowsOf(t, Number(a.userId))
      const res = await t.call({ ...rule.probe(owned), as: b })
      const done = rule.refused
        ? res.statusCode >= 400 && res.statusCode < 500 && typeof res.json().code === 'string'
        : res.statusCode === 200
      const after = await rowsOf(t, Number(a.userId))
      // A's rows of every table as they were; where the rules let A's rows grow, none went.
      const changed = Object.keys(before).filter((table) =>
        rule.grows?.[table]
          ? before[table]!.some((row) => !after[table]!.includes(row))
          : JSON.stringify(before[table]) !== JSON.stringify(after[table]),
      )
      if (!done || changed.length > 0)
        wrong.push({ route, status: res.statusCode, body: res.body.slice(0, 200), changed })
    }
    expect(wrong).toEqual([])
    // What the calls above left A with, by name: the proxy live at its maximum and leading.
    const proxy = await t.database.db
      .selectFrom('proxies')
      .selectAll()
      .where('lot_id', '=', owned.openLotId)
      .execute()
    expect(
      proxy.map((p) => [String(p.user_id), String(p.max_amount), String(p.active)]).sort(),
    ).toEqual(
      [
        [a.userId, String(A_PROXY_MAX), '1'],
        [b.userId, String(B_PROXY_MAX), '0'],
      ].sort(),
    )
    const lot = await t.database.db
      .selectFrom('lots')
      .select('leader_id')
      .where('id', '=', owned.openLotId)
      .executeTakeFirstOrThrow()
    expect(String(lot.leader_id)).toBe(a.userId)
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
