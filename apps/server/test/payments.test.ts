import { PAY_PASSWORD_MAX_TRIES } from '@numisma/contracts/account'
import { PaymentSchema, PayResultSchema } from '@numisma/contracts/payment'
import { handlingFee } from '@numisma/domain/fees'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { overdueJobFor } from '../src/app'
import { couponHoldsFor } from '../src/modules/coupons/holds'
import { MallOrderExpiry } from '../src/modules/orders/expiry'
import { parseXml, signed, toXml, wxSign } from '../src/modules/payments/wechat-pay-protocol'
import { SANDBOX_WECHAT_PAY } from '../src/platform/config'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { expectLedgerSound } from './helpers/ledger'
import { buy, createMallItem, type StaffCall, staffCaller } from './helpers/mall-orders'
import {
  balanceOf,
  confirmAtCashier,
  doPay,
  fundBalance,
  injectedWechatPay,
  PAY_PASSWORD,
  payer,
  postNotice,
  winLot,
} from './helpers/payments'

/** Issue 9, M3: paying orders — balance, messaging-app pay through the sandbox, remittance. */
const databases = await testDatabases()
const YUAN = 100
const MINUTE = 60_000
const KEY = 'idempotency-key'

describe.each(databases)('payments on $name', (kind) => {
  let t: TestApp
  let admin: StaffCall
  const wx = injectedWechatPay()

  beforeAll(async () => {
    t = await createTestApp(kind, { wechatPay: wx.options })
    wx.attach(t.app)
    admin = await staffCaller(t)
  })
  afterAll(() => t.close())
  // Every test here moves money (or must not): the ledger stays sound after each one.
  afterEach(() => expectLedgerSound(t.database))

  const mallOrder = async (user: Session, price: number) => {
    const { productNo } = await createMallItem(admin, { price, stock: 5 })
    const res = await buy(t, user, { productNo, quantity: 1 })
    expect(res.json().data.status, res.body).toBe('SUCCESS')
    return res.json().data.orderId as number
  }
  const order = (id: number) =>
    t.database.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
  const paymentsOf = (user: Session) =>
    t.database.db
      .selectFrom('payments')
      .selectAll()
      .where('user_id', '=', Number(user.userId))
      .execute()
  const transferCount = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('ledger_transfers')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
  const getPayment = (as: Session, id: number) =>
    t.call({ method: 'GET', path: `/user/payments/${id}`, as })
  const statistics = (as: Session, ids: number[]) =>
    t.call({ method: 'GET', path: `/user/3_3/pay/waitPayStatistics?orderIds=${ids.join(',')}`, as })
  const cancel = (as: Session, orderId: number) =>
    t.call({ method: 'GET', path: `/user/3_3/order/cancel?orderId=${orderId}`, as })

  /** A coupon staff issue (满100减20 unless told otherwise), received by `user`. */
  const receiveCoupon = async (user: Session, terms: object = {}) => {
    const created = await admin('POST', '/coupons', {
      title: '满100减20',
      kind: 'amount',
      threshold: 100 * YUAN,
      amount: 20 * YUAN,
      total: 100,
      perUser: 5,
      startsAt: new Date(t.clock.now() - MINUTE).toISOString(),
      endsAt: new Date(t.clock.now() + 24 * 60 * MINUTE).toISOString(),
      ...terms,
    })
    expect(created.statusCode, created.body).toBe(200)
    const received = await t.call({
      method: 'POST',
      path: `/api/user/receiveCoupon/${created.json().data.id}`,
      as: user,
    })
    expect(received.statusCode, received.body).toBe(200)
    return received.json().data.userCouponId as number
  }
  const userCoupon = (id: number) =>
    t.database.db
      .selectFrom('user_coupons')
      .select(['status', 'order_id', 'used_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()

  /** Starts a messaging-app payment; returns its id, amount and prepay id. */
  const startWechat = async (as: Session, orderIds: number[], headers?: Record<string, string>) => {
    const res = await doPay(t, as, { orderIds, method: 'wechat' }, headers)
    expect(res.statusCode, res.body).toBe(200)
    const result = PayResultSchema.parse(res.json().data)
    expect(result.status).toBe('PENDING')
    const prepayId = result.payRequest!.packages.replace(/^prepay_id=/, '')
    return { paymentId: result.paymentId, amount: result.amount, prepayId, result }
  }

  describe('from the balance', () => {
    it('pays a won lot and a mall order at once: one payment, both orders paid, the money moved', async () => {
      const alice = await payer(t)
      const lotOrder = await winLot(t, alice, 1_000 * YUAN)
      const mall = await mallOrder(alice, 120 * YUAN)
      await fundBalance(t, alice.userId, 2_000 * YUAN)
      const fee = handlingFee(1_000 * YUAN)
      const total = 1_120 * YUAN + fee

      const stats = await statistics(alice, [lotOrder, mall])
      expect(stats.statusCode, stats.body).toBe(200)
      expect(stats.json().data).toEqual({
        count: 2,
        goods: 1_120 * YUAN,
        fee,
        discount: 0,
        total,
        balance: 2_000 * YUAN,
        balanceCovers: true,
      })

      const res = await doPay(t, alice, {
        orderIds: [mall, lotOrder],
        method: 'balance',
        payPassword: PAY_PASSWORD,
      })
      expect(res.statusCode, res.body).toBe(200)
      const result = PayResultSchema.parse(res.json().data)
      expect(result).toEqual({
        status: 'PAID',
        paymentId: expect.any(Number),
        method: 'balance',
        orderIds: [mall, lotOrder],
        amount: total,
      })
      expect(await balanceOf(t, alice.userId)).toBe(2_000 * YUAN - total)
      for (const id of [lotOrder, mall]) {
        expect(await order(id)).toMatchObject({
          status: 'paid',
          paid_at: t.clock.now(),
          payment_id: result.paymentId,
          pay_method: 'balance',
        })
      }
      const payment = await getPayment(alice, result.paymentId)
      expect(PaymentSchema.parse(payment.json().data)).toEqual({
        id: result.paymentId,
        method: 'balance',
        status: 'paid',
        amount: total,
        orderIds: [lotOrder, mall].sort((a, b) => a - b),
        createdAt: new Date(t.clock.now()).toISOString(),
        paidAt: new Date(t.clock.now()).toISOString(),
        credited: 0,
      })

      // Paid is paid: a second payment, and the preview, are refused.
      const again = await doPay(t, alice, {
        orderIds: [lotOrder],
        method: 'balance',
        payPassword: PAY_PASSWORD,
      })
      expect(again.statusCode).toBe(409)
      expect(again.json()).toMatchObject({
        code: 'ORDER_NOT_PAYABLE',
        details: { orderIds: [lotOrder] },
      })
      expect((await statistics(alice, [mall])).json().code).toBe('ORDER_NOT_PAYABLE')
      expect(await balanceOf(t, alice.userId)).toBe(2_000 * YUAN - total)
    })

    it('100 concurrent payments of the same orders with one key charge once and all answer the same payment', async () => {
      const bob = await payer(t)
      const [a, b] = [await mallOrder(bob, 50 * YUAN), await mallOrder(bob, 70 * YUAN)]
      await fundBalance(t, bob.userId, 1_000 * YUAN)
      const body = { orderIds: [a, b], method: 'balance', payPassword: PAY_PASSWORD }
      const results = await Promise.all(
        Array.from({ length: 100 }, () => doPay(t, bob, body, { [KEY]: 'pay-bob-same-key' })),
      )
      expect(results.map((r) => r.statusCode)).toEqual(Array<number>(100).fill(200))
      expect(new Set(results.map((r) => r.json().data.paymentId)).size).toBe(1)
      expect(results.every((r) => r.json().data.status === 'PAID')).toBe(true)
      expect(await balanceOf(t, bob.userId)).toBe(880 * YUAN)
      expect(await paymentsOf(bob)).toHaveLength(1)
      expect((await order(a)).status).toBe('paid')
      expect((await order(b)).payment_id).toBe(results[0]!.json().data.paymentId)
    })

    it('100 concurrent payments with distinct keys pay once; the others are told the orders are no longer payable', async () => {
      const bob = await payer(t)
      const [a, b] = [await mallOrder(bob, 50 * YUAN), await mallOrder(bob, 70 * YUAN)]
      await fundBalance(t, bob.userId, 1_000 * YUAN)
      const before = await transferCount()
      const body = { orderIds: [a, b], method: 'balance', payPassword: PAY_PASSWORD }
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, i) => doPay(t, bob, body, { [KEY]: `pay-bob-key-${i}` })),
      )
      const paid = results.filter((r) => r.statusCode === 200)
      expect(paid).toHaveLength(1)
      expect(
        results.filter((r) => r.statusCode === 409 && r.json().code === 'ORDER_NOT_PAYABLE'),
      ).toHaveLength(99)
      expect(await balanceOf(t, bob.userId)).toBe(880 * YUAN)
      expect(await paymentsOf(bob)).toHaveLength(1)
      expect(await transferCount()).toBe(before + 1)
      expect((await order(a)).payment_id).toBe(paid[0]!.json().data.paymentId)
    })

    it('refuses BALANCE_LOW and moves nothing', async () => {
      const carol = await payer(t)
      const o = await mallOrder(carol, 300 * YUAN)
      await fundBalance(t, carol.userId, 300 * YUAN - 1)
      expect((await statistics(carol, [o])).json().data).toMatchObject({
        total: 300 * YUAN,
        balance: 300 * YUAN - 1,
        balanceCovers: false,
      })
      const res = await doPay(t, carol, {
        orderIds: [o],
        method: 'balance',
        payPassword: PAY_PASSWORD,
      })
      expect(res.statusCode).toBe(409)
      expect(res.json()).toMatchObject({
        code: 'BALANCE_LOW',
        details: { balance: 300 * YUAN - 1, amount: 300 * YUAN },
      })
      expect(await balanceOf(t, carol.userId)).toBe(300 * YUAN - 1)
      expect(await order(o)).toMatchObject({
        status: 'pending_payment',
        payment_id: null,
        pay_method: null,
      })
      expect(await paymentsOf(carol)).toEqual([])
    })

    it('replays a paid payment retried with its key without asking the password again, even once payment is locked', async () => {
      const eve = await payer(t)
      const [o, other] = [await mallOrder(eve, 30 * YUAN), await mallOrder(eve, 20 * YUAN)]
      await fundBalance(t, eve.userId, 100 * YUAN)
      const body = { orderIds: [o], method: 'balance', payPassword: PAY_PASSWORD }
      const paid = await doPay(t, eve, body, { [KEY]: 'pay-eve-once' })
      expect(paid.json().data, paid.body).toMatchObject({ status: 'PAID' })
      for (let i = 0; i < PAY_PASSWORD_MAX_TRIES; i++) {
        const wrong = await doPay(t, eve, { ...body, orderIds: [other], payPassword: '000000' })
        expect(wrong.json().code).toMatch(/^PAY_(PASSWORD_WRONG|LOCKED)$/)
      }
      const locked = await doPay(t, eve, { ...body, orderIds: [other] })
      expect(locked.json().code).toBe('PAY_LOCKED')

      // The retry of the first tap (the answer was lost): the same payment, PAID, nothing moved.
      const before = await transferCount()
      const retry = await doPay(t, eve, body, { [KEY]: 'pay-eve-once' })
      expect(retry.statusCode, retry.body).toBe(200)
      expect(retry.json().data).toEqual(paid.json().data)
      expect(await transferCount()).toBe(before)
      expect(await balanceOf(t, eve.userId)).toBe(70 * YUAN)
      // The key replays only what it decided: other orders under it are a reuse, still no password.
      const reused = await doPay(t, eve, { ...body, orderIds: [other] }, { [KEY]: 'pay-eve-once' })
      expect(reused.statusCode).toBe(422)
      // A fresh key is a new payment, and payment is still locked.
      const fresh = await doPay(t, eve, { ...body, orderIds: [other] }, { [KEY]: 'pay-eve-twice' })
      expect(fresh.json().code).toBe('PAY_LOCKED')
      expect((await order(other)).status).toBe('pending_payment')
    })

    it('refuses a wrong, missing or unset payment password and moves nothing', async () => {
      const dan = await payer(t)
      const o = await mallOrder(dan, 40 * YUAN)
      await fundBalance(t, dan.userId, 100 * YUAN)
      const wrong = await doPay(t, dan, { orderIds: [o], method: 'balance', payPassword: '000000' })
      // 400, not 403: the web client signs out on 401/403.
      expect(wrong.statusCode).toBe(400)
      expect(wrong.json().code).toBe('PAY_PASSWORD_WRONG')
      const missing = await doPay(t, dan, { orderIds: [o], method: 'balance' })
      expect(missing.json().code).toBe('PAY_PASSWORD_WRONG')
      expect(await balanceOf(t, dan.userId)).toBe(100 * YUAN)
      expect(await order(o)).toMatchObject({ status: 'pending_payment', payment_id: null })
      expect(await paymentsOf(dan)).toEqual([])

      const noPassword = await t.signIn()
      const theirs = await mallOrder(noPassword, 40 * YUAN)
      const unset = await doPay(t, noPassword, {
        orderIds: [theirs],
        method: 'balance',
        payPassword: PAY_PASSWORD,
      })
      expect(unset.statusCode).toBe(409)
      expect(unset.json().code).toBe('PAY_PASSWORD_NOT_SET')
    })

    it('applies a coupon chosen at payment to a mall order without one, and uses it', async () => {
      const erin = await payer(t)
      const o = await mallOrder(erin, 150 * YUAN)
      await fundBalance(t, erin.userId, 500 * YUAN)
      const tooBig = await receiveCoupon(erin, {
        title: '满1000减100',
        threshold: 1_000 * YUAN,
        amount: 100 * YUAN,
      })
      const refused = await doPay(t, erin, {
        orderIds: [o],
        method: 'balance',
        payPassword: PAY_PASSWORD,
        userCouponId: tooBig,
      })
      expect(refused.statusCode).toBe(409)
      expect(refused.json().code).toBe('COUPON_INVALID')
      expect(await userCoupon(tooBig)).toMatchObject({ status: 'usable', order_id: null })
      expect(await order(o)).toMatchObject({ discount: 0, total: 150 * YUAN, user_coupon_id: null })

      const coupon = await receiveCoupon(erin)
      const res = await doPay(t, erin, {
        orderIds: [o],
        method: 'balance',
        payPassword: PAY_PASSWORD,
        userCouponId: coupon,
      })
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json().data).toMatchObject({ status: 'PAID', amount: 130 * YUAN })
      expect(await order(o)).toMatchObject({
        status: 'paid',
        discount: 20 * YUAN,
        total: 130 * YUAN,
        user_coupon_id: coupon,
      })
      expect(await userCoupon(coupon)).toEqual({
        status: 'used',
        order_id: o,
        used_at: t.clock.now(),
      })
      expect(await balanceOf(t, erin.userId)).toBe(370 * YUAN)
    })

    it('uses the coupon an order was placed with when it is paid', async () => {
      const fay = await payer(t)
      const coupon = await receiveCoupon(fay)
      const { productNo } = await createMallItem(admin, { price: 200 * YUAN })
      const placed = await buy(t, fay, { productNo, quantity: 1, userCouponId: coupon })
      const o = placed.json().data.orderId as number
      await fundBalance(t, fay.userId, 180 * YUAN)
      expect(await userCoupon(coupon)).toMatchObject({ status: 'locked', order_id: o })
      // Naming the coupon the order already holds changes nothing.
      const res = await doPay(t, fay, {
        orderIds: [o],
        method: 'balance',
        payPassword: PAY_PASSWORD,
        userCouponId: coupon,
      })
      expect(res.json().data, res.body).toMatchObject({ status: 'PAID', amount: 180 * YUAN })
      expect(await userCoupon(coupon)).toEqual({
        status: 'used',
        order_id: o,
        used_at: t.clock.now(),
      })
      expect(await balanceOf(t, fay.userId)).toBe(0)
    })
  })

  /** A paid notice as the platform signs it, for any attempt (`P<id>` or `P<id>-<start>`). */
  const platformNotice = (outTradeNo: string, transactionId: string, totalFee: number) =>
    toXml(
      signed(
        {
          appid: SANDBOX_WECHAT_PAY.appId,
          mch_id: SANDBOX_WECHAT_PAY.mchId,
          nonce_str: 'platformnoticenonce0',
          return_code: 'SUCCESS',
          result_code: 'SUCCESS',
          out_trade_no: outTradeNo,
          transaction_id: transactionId,
          total_fee: totalFee,
        },
        SANDBOX_WECHAT_PAY.key,
      ),
    )

  describe('with the messaging platform’s pay (sandbox)', () => {
    it('is PENDING with a signed pay request; the cashier’s confirm posts the notice and only then are the orders paid', async () => {
      const gus = await t.signIn()
      const o = await mallOrder(gus, 88 * YUAN)
      const { paymentId, prepayId, result } = await startWechat(gus, [o], { [KEY]: 'gus-key-0001' })
      const request = result.payRequest!
      expect(request).toEqual({
        appid: SANDBOX_WECHAT_PAY.appId,
        timestamp: String(Math.floor(t.clock.now() / 1000)),
        noncestr: expect.stringMatching(/^[0-9a-f]{32}$/),
        packages: expect.stringMatching(/^prepay_id=wx\d{14}[0-9a-f]{24}$/),
        signType: 'MD5',
        sign: expect.any(String),
      })
      expect(request.sign).toBe(
        wxSign(
          {
            appId: request.appid,
            timeStamp: request.timestamp,
            nonceStr: request.noncestr,
            package: request.packages,
            signType: 'MD5',
          },
          SANDBOX_WECHAT_PAY.key,
        ),
      )
      expect(await order(o)).toMatchObject({
        status: 'pending_payment',
        pay_method: 'wechat',
        payment_id: paymentId,
        paid_at: null,
      })
      expect((await getPayment(gus, paymentId)).json().data).toMatchObject({
        status: 'pending',
        method: 'wechat',
        amount: 88 * YUAN,
      })

      // A second tap: the same payment and the same prepay id, no second trade.
      const again = await startWechat(gus, [o])
      expect(again.paymentId).toBe(paymentId)
      expect(again.prepayId).toBe(prepayId)
      expect(await paymentsOf(gus)).toHaveLength(1)

      const page = await t.inject({
        method: 'GET',
        url: `/svc/sandbox/wxpay/cashier?prepay_id=${prepayId}&redirect=/account/paySuc`,
      })
      expect(page.headers['content-type']).toMatch(/^text\/html/)
      expect(page.body).toContain('¥88.00')
      expect(page.body).toContain('确认支付')
      expect(page.body).toContain('取消')

      const confirmed = await confirmAtCashier(
        t,
        prepayId,
        `/account/paySuc?paymentId=${paymentId}`,
      )
      expect(confirmed.statusCode).toBe(303)
      expect(confirmed.headers.location).toBe(`/account/paySuc?paymentId=${paymentId}&wxpay=ok`)
      expect(wx.delivered.at(-1)).toMatchObject({ statusCode: 200 })
      expect(await order(o)).toMatchObject({
        status: 'paid',
        pay_method: 'wechat',
        payment_id: paymentId,
        paid_at: t.clock.now(),
      })
      expect((await getPayment(gus, paymentId)).json().data).toMatchObject({
        status: 'paid',
        credited: 0,
      })
      const stored = (await paymentsOf(gus))[0]!
      expect(stored.transaction_id).toMatch(/^4200\d{24}$/)
      expect(stored.prepay_id).toBe(prepayId)

      // A retry of the first request after the notice says PAID rather than offer the sheet again;
      // a new request finds the order paid.
      const retry = await doPay(
        t,
        gus,
        { orderIds: [o], method: 'wechat' },
        { [KEY]: 'gus-key-0001' },
      )
      expect(retry.json().data).toEqual({ ...result, status: 'PAID', payRequest: undefined })
      const late = await doPay(t, gus, { orderIds: [o], method: 'wechat' })
      expect(late.json().code).toBe('ORDER_NOT_PAYABLE')
    })

    it('asks the platform for a fresh prepay id once the old one’s window closes; either attempt’s notice settles the payment once', async () => {
      const kim = await t.signIn()
      // A won lot waits 3 days for its money; a mall order would expire long before.
      const o = await winLot(t, kim, 500 * YUAN)
      const first = await startWechat(kim, [o])
      t.clock.advance(100 * MINUTE)
      expect((await startWechat(kim, [o])).prepayId).toBe(first.prepayId)
      // Past two hours less the margin: the stored prepay id is not handed out again.
      t.clock.advance(15 * MINUTE)
      const second = await startWechat(kim, [o])
      expect(second.paymentId).toBe(first.paymentId)
      expect(second.prepayId).not.toBe(first.prepayId)
      expect(await paymentsOf(kim)).toMatchObject([
        { prepay_id: second.prepayId, prepay_at: expect.any(Number), status: 'pending' },
      ])
      // The first attempt is closed at the platform: its sheet can no longer be paid.
      const stale = await t.inject({
        method: 'GET',
        url: `/svc/sandbox/wxpay/cashier?prepay_id=${first.prepayId}&redirect=/account/paySuc`,
      })
      expect(stale.statusCode).toBe(404)
      expect((await startWechat(kim, [o])).prepayId).toBe(second.prepayId)

      const before = await transferCount()
      expect((await confirmAtCashier(t, second.prepayId)).statusCode).toBe(303)
      const notice = parseXml(wx.delivered.at(-1)!.xml)!
      expect(notice.out_trade_no).toMatch(new RegExp(`^P${first.paymentId}-[0-9a-z]+$`))
      expect(await order(o)).toMatchObject({ status: 'paid', payment_id: first.paymentId })
      expect(await transferCount()).toBe(before + 1)
      const replayed = await postNotice(t, wx.delivered.at(-1)!.xml)
      expect(parseXml(replayed.body)).toMatchObject({ return_code: 'SUCCESS' })
      expect(await transferCount()).toBe(before + 1)
      expect((await getPayment(kim, first.paymentId)).json().data).toMatchObject({
        status: 'paid',
        credited: 0,
      })
    })

    it('refuses a forged, altered or foreign notice and changes nothing', async () => {
      const hal = await t.signIn()
      const o = await mallOrder(hal, 66 * YUAN)
      const { paymentId, amount } = await startWechat(hal, [o])
      const before = await transferCount()
      const notice = (fields: Record<string, string | number>, key: string) =>
        toXml(
          signed(
            {
              appid: SANDBOX_WECHAT_PAY.appId,
              mch_id: SANDBOX_WECHAT_PAY.mchId,
              nonce_str: 'forgedforgedforged',
              return_code: 'SUCCESS',
              result_code: 'SUCCESS',
              out_trade_no: `P${paymentId}`,
              transaction_id: '4200000000000000000000000001',
              total_fee: amount,
              ...fields,
            },
            key,
          ),
        )
      const genuine = notice({}, SANDBOX_WECHAT_PAY.key)
      for (const xml of [
        notice({}, 'NotTheMerchantKeyAtAll0000000000'),
        genuine.replace(`<total_fee><![CDATA[${amount}]]>`, '<total_fee><![CDATA[1]]>'),
        genuine.replace(/<sign>.*<\/sign>/, ''),
        notice({ total_fee: amount - 1 }, SANDBOX_WECHAT_PAY.key),
        notice({ appid: 'wx0000000000000000' }, SANDBOX_WECHAT_PAY.key),
        notice({ out_trade_no: 'P2147483000' }, SANDBOX_WECHAT_PAY.key),
        notice({ out_trade_no: 'X1' }, SANDBOX_WECHAT_PAY.key),
        'not xml at all',
      ]) {
        const res = await postNotice(t, xml)
        expect(res.statusCode, xml).toBe(400)
        expect(parseXml(res.body)).toMatchObject({ return_code: 'FAIL' })
      }
      expect(await transferCount()).toBe(before)
      expect(await order(o)).toMatchObject({ status: 'pending_payment', paid_at: null })
      expect((await paymentsOf(hal))[0]).toMatchObject({ status: 'pending', transaction_id: null })

      // The genuine one, signed with the merchant key, is what pays.
      expect((await postNotice(t, genuine)).statusCode).toBe(200)
      expect((await order(o)).status).toBe('paid')
    })

    it('acknowledges a replayed notice every time and pays once', async () => {
      const ian = await t.signIn()
      const o = await mallOrder(ian, 77 * YUAN)
      const { paymentId, prepayId } = await startWechat(ian, [o])
      await confirmAtCashier(t, prepayId)
      const notice = wx.delivered.at(-1)!
      expect((await order(o)).payment_id).toBe(paymentId)
      const paidAt = (await order(o)).paid_at
      const before = await transferCount()
      t.clock.advance(MINUTE)
      const replays = await Promise.all(Array.from({ length: 10 }, () => postNotice(t, notice.xml)))
      for (const res of replays) {
        expect(res.statusCode).toBe(200)
        expect(parseXml(res.body)).toMatchObject({ return_code: 'SUCCESS' })
      }
      expect(await transferCount()).toBe(before)
      expect((await order(o)).paid_at).toBe(paidAt)
      // The sandbox will not take the same payment twice either.
      const twice = await t.inject({
        method: 'POST',
        url: '/svc/sandbox/wxpay/cashier/confirm',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `prepay_id=${prepayId}&redirect=%2F`,
      })
      expect(twice.statusCode).toBe(303)
      expect(await transferCount()).toBe(before)
    })

    it('credits the balance with the money for orders cancelled before the notice, and pays the rest', async () => {
      const jo = await t.signIn()
      const [kept, dropped] = [await mallOrder(jo, 30 * YUAN), await mallOrder(jo, 45 * YUAN)]
      const { paymentId, prepayId, amount } = await startWechat(jo, [kept, dropped])
      expect(amount).toBe(75 * YUAN)
      expect((await cancel(jo, dropped)).statusCode).toBe(200)
      await confirmAtCashier(t, prepayId)
      expect(wx.delivered.at(-1)).toMatchObject({ statusCode: 200 })
      expect(await order(kept)).toMatchObject({ status: 'paid', payment_id: paymentId })
      expect(await order(dropped)).toMatchObject({ status: 'cancelled', paid_at: null })
      expect(await balanceOf(t, jo.userId)).toBe(45 * YUAN)
      expect((await getPayment(jo, paymentId)).json().data).toMatchObject({
        status: 'paid',
        amount: 75 * YUAN,
        credited: 45 * YUAN,
      })
    })

    it('credits all of it when every order expired before the notice', async () => {
      const kim = await t.signIn()
      const o = await mallOrder(kim, 55 * YUAN)
      const { paymentId, prepayId } = await startWechat(kim, [o])
      t.clock.advance(31 * MINUTE)
      await MallOrderExpiry.forDatabase(t.database, t.clock, couponHoldsFor(t.database)).sweep()
      expect((await order(o)).status).toBe('cancelled')
      // The sheet closed with the order; a notice the platform still sends (its clock a little
      // behind ours) credits the money.
      const sheet = await t.inject({
        method: 'GET',
        url: `/svc/sandbox/wxpay/cashier?prepay_id=${prepayId}&redirect=/account/paySuc`,
      })
      expect(sheet.statusCode).toBe(404)
      const late = await postNotice(
        t,
        platformNotice(`P${paymentId}`, '4200000000000000000000000055', 55 * YUAN),
      )
      expect(late.statusCode, late.body).toBe(200)
      expect(await balanceOf(t, kim.userId)).toBe(55 * YUAN)
      expect((await getPayment(kim, paymentId)).json().data).toMatchObject({
        status: 'paid',
        credited: 55 * YUAN,
      })
    })

    it('credits the balance when the orders were paid another way before the notice', async () => {
      const lee = await payer(t)
      const o = await mallOrder(lee, 60 * YUAN)
      const { paymentId, prepayId } = await startWechat(lee, [o])
      await fundBalance(t, lee.userId, 60 * YUAN)
      const byBalance = await doPay(t, lee, {
        orderIds: [o],
        method: 'balance',
        payPassword: PAY_PASSWORD,
      })
      expect(byBalance.json().data.status, byBalance.body).toBe('PAID')
      expect(await balanceOf(t, lee.userId)).toBe(0)
      await confirmAtCashier(t, prepayId)
      expect((await order(o)).payment_id).toBe(byBalance.json().data.paymentId)
      expect(await balanceOf(t, lee.userId)).toBe(60 * YUAN)
      expect((await getPayment(lee, paymentId)).json().data).toMatchObject({ credited: 60 * YUAN })
    })

    it('closes a mall order’s sheet when the order’s 30 minutes end, and refuses one with under five minutes left', async () => {
      const max = await t.signIn()
      const o = await mallOrder(max, 88 * YUAN)
      const dueAt = (await order(o)).due_at!
      const { prepayId } = await startWechat(max, [o])
      t.clock.set(dueAt + 15 * MINUTE)
      await MallOrderExpiry.forDatabase(t.database, t.clock, couponHoldsFor(t.database)).sweep()
      expect((await order(o)).status).toBe('cancelled')
      const sheet = await t.inject({
        method: 'GET',
        url: `/svc/sandbox/wxpay/cashier?prepay_id=${prepayId}&redirect=/account/paySuc`,
      })
      expect(sheet.statusCode).toBe(404)
      expect(await balanceOf(t, max.userId)).toBe(0)

      // Four minutes before the end the platform would refuse the trade: so do we, writing nothing.
      const late = await mallOrder(max, 66 * YUAN)
      t.clock.set((await order(late)).due_at! - 4 * MINUTE)
      const refused = await doPay(t, max, { orderIds: [late], method: 'wechat' })
      expect(refused.statusCode, refused.body).toBe(409)
      expect(refused.json()).toMatchObject({
        code: 'ORDER_NOT_PAYABLE',
        details: { orderIds: [late] },
      })
      expect(await order(late)).toMatchObject({ payment_id: null, pay_method: null })
    })

    it('refuses a forfeit while the winner’s messaging-app payment is payable; once it lapses staff may', async () => {
      const ned = await t.signIn()
      const o = await winLot(t, ned, 500 * YUAN)
      t.clock.advance(3 * 24 * 60 * MINUTE)
      expect(await overdueJobFor(t.database, t.clock).sweep()).toContain(o)
      const { prepayId } = await startWechat(ned, [o])
      admin = await staffCaller(t)
      const refused = await admin('POST', `/orders/${o}/forfeit`)
      expect(refused.statusCode, refused.body).toBe(409)
      expect(refused.json()).toMatchObject({
        code: 'ORDER_PAYMENT_PENDING',
        details: { orderId: o },
      })
      expect(await balanceOf(t, ned.userId, 'deposit')).toBe(500 * YUAN)
      // Past the attempt's window its sheet is closed: nothing can pay it now.
      t.clock.advance(2 * 60 * MINUTE)
      const stale = await t.inject({
        method: 'GET',
        url: `/svc/sandbox/wxpay/cashier?prepay_id=${prepayId}&redirect=/account/paySuc`,
      })
      expect(stale.statusCode).toBe(404)
      admin = await staffCaller(t)
      const taken = await admin('POST', `/orders/${o}/forfeit`)
      expect(taken.statusCode, taken.body).toBe(200)
      expect(taken.json().data).toMatchObject({ taken: 500 * YUAN, status: 'cancelled' })
    })

    it('credits the money of a second paid attempt to the balance, once per transaction', async () => {
      const olga = await t.signIn()
      const o = await winLot(t, olga, 300 * YUAN)
      const { paymentId, prepayId, amount } = await startWechat(olga, [o])
      expect((await confirmAtCashier(t, prepayId)).statusCode).toBe(303)
      expect((await order(o)).status).toBe('paid')
      const before = await transferCount()
      // The platform took a later attempt's money too (its clock around time_expire).
      const second = platformNotice(`P${paymentId}-zzzzzz`, '4200000000000000000000000077', amount)
      const results = await Promise.all(Array.from({ length: 5 }, () => postNotice(t, second)))
      for (const res of results) {
        expect(res.statusCode, res.body).toBe(200)
        expect(parseXml(res.body)).toMatchObject({ return_code: 'SUCCESS' })
      }
      expect(await balanceOf(t, olga.userId)).toBe(amount)
      expect(await transferCount()).toBe(before + 1)
      expect((await postNotice(t, second)).statusCode).toBe(200)
      expect(await balanceOf(t, olga.userId)).toBe(amount)
      expect((await order(o)).status).toBe('paid')
    })

    it('sends the payer back only to this site: a redirect a browser would read as another host is refused', async () => {
      const ivy = await payer(t)
      const o = await mallOrder(ivy, 12 * YUAN)
      const { prepayId } = await startWechat(ivy, [o])
      for (const redirect of ['/\t/evil.example/phish', '/\n/evil.example', '/\\evil.example']) {
        const page = await t.inject({
          method: 'GET',
          url: `/svc/sandbox/wxpay/cashier?prepay_id=${prepayId}&redirect=${encodeURIComponent(redirect)}`,
        })
        expect(page.statusCode, JSON.stringify(redirect)).toBe(400)
        expect(page.body).not.toContain('evil.example')
        expect(page.body).not.toContain('确认支付')
        const confirm = await t.inject({
          method: 'POST',
          url: '/svc/sandbox/wxpay/cashier/confirm',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ prepay_id: prepayId, redirect }).toString(),
        })
        expect(confirm.statusCode, JSON.stringify(redirect)).toBe(400)
        expect(confirm.headers.location).toBeUndefined()
        expect(confirm.body).not.toContain('evil.example')
      }
      // Refused before the sheet confirms: nothing was paid.
      expect((await order(o)).status).toBe('pending_payment')
      // A path that merely walks up stays on this site, as the browser would resolve it.
      const page = await t.inject({
        method: 'GET',
        url: `/svc/sandbox/wxpay/cashier?prepay_id=${prepayId}&redirect=${encodeURIComponent('/a/../account/paySuc')}`,
      })
      expect(page.statusCode).toBe(200)
      expect(page.body).toContain('href="/account/paySuc?wxpay=cancel"')
      const confirmed = await confirmAtCashier(t, prepayId, '/a/../account/paySuc')
      expect(confirmed.statusCode).toBe(303)
      expect(confirmed.headers.location).toBe('/account/paySuc?wxpay=ok')
    })
  })

  describe('by bank remittance', () => {
    it('marks the orders as paid by remittance: PENDING, and the mall order no longer expires', async () => {
      const max = await payer(t)
      const [remitted, other] = [await mallOrder(max, 99 * YUAN), await mallOrder(max, 11 * YUAN)]
      const res = await doPay(t, max, { orderIds: [remitted], method: 'remittance' })
      expect(res.statusCode, res.body).toBe(200)
      const result = PayResultSchema.parse(res.json().data)
      expect(result).toEqual({
        status: 'PENDING',
        paymentId: expect.any(Number),
        method: 'remittance',
        orderIds: [remitted],
        amount: 99 * YUAN,
      })
      expect(await order(remitted)).toMatchObject({
        status: 'pending_payment',
        pay_method: 'remittance',
        payment_id: result.paymentId,
      })
      // Choosing it again is the same payment.
      const again = await doPay(t, max, { orderIds: [remitted], method: 'remittance' })
      expect(again.json().data.paymentId).toBe(result.paymentId)

      t.clock.advance(31 * MINUTE)
      await MallOrderExpiry.forDatabase(t.database, t.clock, couponHoldsFor(t.database)).sweep()
      expect((await order(remitted)).status).toBe('pending_payment')
      expect((await order(other)).status).toBe('cancelled')

      // Past the mall's 30 minutes it may still be paid, from the balance for one.
      await fundBalance(t, max.userId, 99 * YUAN)
      const paid = await doPay(t, max, {
        orderIds: [remitted],
        method: 'balance',
        payPassword: PAY_PASSWORD,
      })
      expect(paid.json().data, paid.body).toMatchObject({ status: 'PAID' })
      expect(await order(remitted)).toMatchObject({ status: 'paid', pay_method: 'balance' })
    })
  })

  describe('refusals', () => {
    it('refuses another user’s order and an unknown one as ORDER_NOT_PAYABLE; another’s payment is 404', async () => {
      const ned = await payer(t)
      const olga = await payer(t)
      const hers = await mallOrder(olga, 25 * YUAN)
      await fundBalance(t, ned.userId, 100 * YUAN)
      for (const method of ['balance', 'wechat', 'remittance']) {
        const res = await doPay(t, ned, {
          orderIds: [hers],
          method,
          payPassword: PAY_PASSWORD,
        })
        expect(res.statusCode, method).toBe(409)
        expect(res.json()).toMatchObject({
          code: 'ORDER_NOT_PAYABLE',
          details: { orderIds: [hers] },
        })
      }
      const unknown = await doPay(t, ned, {
        orderIds: [2_147_483_000],
        method: 'balance',
        payPassword: PAY_PASSWORD,
      })
      expect(unknown.json().code).toBe('ORDER_NOT_PAYABLE')
      expect((await statistics(ned, [hers])).json().code).toBe('ORDER_NOT_PAYABLE')
      expect(await order(hers)).toMatchObject({
        status: 'pending_payment',
        payment_id: null,
        pay_method: null,
      })
      expect(await paymentsOf(ned)).toEqual([])
      expect(await balanceOf(t, ned.userId)).toBe(100 * YUAN)

      const { paymentId } = await startWechat(olga, [hers])
      expect((await getPayment(ned, paymentId)).statusCode).toBe(404)
      expect((await getPayment(olga, paymentId)).statusCode).toBe(200)
    })

    it('answers bad input with 400 and a reused key with 422', async () => {
      const pam = await payer(t)
      const o = await mallOrder(pam, 10 * YUAN)
      for (const body of [
        { orderIds: [], method: 'balance' },
        { orderIds: [o, o], method: 'balance' },
        { orderIds: [o], method: 'cash' },
        { orderIds: [o], method: 'balance', payPassword: '12345' },
        { orderIds: [-1], method: 'remittance' },
      ]) {
        const res = await doPay(t, pam, body)
        expect(res.statusCode, JSON.stringify(body)).toBe(400)
        expect(res.json().code).toBe('VALIDATION_FAILED')
      }
      expect((await statistics(pam, [])).statusCode).toBe(400)
      const first = await doPay(
        t,
        pam,
        { orderIds: [o], method: 'remittance' },
        { [KEY]: 'pam-key-0001' },
      )
      expect(first.statusCode).toBe(200)
      const reused = await doPay(
        t,
        pam,
        { orderIds: [o], method: 'wechat' },
        { [KEY]: 'pam-key-0001' },
      )
      expect(reused.statusCode).toBe(422)
      expect(reused.json().code).toBe('IDEMPOTENCY_KEY_REUSED')
    })
  })

  it.runIf(kind.name === 'sqlite')(
    'has no sandbox in production, where messaging-app pay without a merchant key is unavailable',
    async () => {
      const prod = await createTestApp(kind, { env: 'production' })
      try {
        const page = await prod.inject({ method: 'GET', url: '/svc/sandbox/wxpay/cashier' })
        expect(page.statusCode).toBe(404)
        const buyer = await prod.signIn()
        const res = await prod.call({
          method: 'POST',
          path: '/user/3_3/pay/doPay',
          as: buyer,
          body: { orderIds: [1], method: 'wechat' },
        })
        expect(res.statusCode).toBe(503)
        expect(res.json().code).toBe('PAY_CHANNEL_FAILED')
        const notice = await prod.inject({
          method: 'POST',
          url: '/svc/main/pay/notify/wechat',
          headers: { 'content-type': 'text/xml' },
          payload: toXml(
            signed({ return_code: 'SUCCESS', out_trade_no: 'P1' }, SANDBOX_WECHAT_PAY.key),
          ),
        })
        expect(notice.statusCode).toBe(400)
      } finally {
        await prod.close()
      }
    },
  )
})
