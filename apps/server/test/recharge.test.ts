import { RechargeSchema } from '@numisma/contracts/account'
import { RECHARGE_FEE_BPS } from '@numisma/domain/fees'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { parseXml, signed, toXml, wxSign } from '../src/modules/payments/wechat-pay-protocol'
import { SANDBOX_WECHAT_PAY } from '../src/platform/config'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { expectLedgerSound } from './helpers/ledger'
import { balanceOf, confirmAtCashier, injectedWechatPay, postNotice } from './helpers/payments'

/** Issue 9, M3: recharging the deposit through the messaging platform's pay (sandbox). */
const databases = await testDatabases()
const YUAN = 100
const KEY = 'idempotency-key'

describe.each(databases)('recharge on $name', (kind) => {
  let t: TestApp
  const wx = injectedWechatPay()

  beforeAll(async () => {
    t = await createTestApp(kind, { wechatPay: wx.options })
    wx.attach(t.app)
  })
  afterAll(() => t.close())
  afterEach(() => expectLedgerSound(t.database))

  const recharge = (as: Session, amount: unknown, headers?: Record<string, string>) =>
    t.call({ method: 'PATCH', path: '/user/recharge/@finance', as, body: { amount }, headers })
  const view = (as: Session, id: number) =>
    t.call({ method: 'GET', path: `/user/recharge/${id}`, as })
  const platformFees = async () =>
    (
      await t.database.db
        .selectFrom('ledger_accounts')
        .select('balance')
        .where('user_id', '=', 0)
        .where('kind', '=', 'platform_fees')
        .executeTakeFirst()
    )?.balance ?? 0

  it('charges the amount plus the channel fee rounded up, and credits the deposit once the notice arrives', async () => {
    const amy = await t.signIn()
    // 0.6 % of 1,000.01 yuan is 6.00006 yuan: 601 fen, rounded up.
    const amount = 100_001
    const fee = Math.ceil((amount * RECHARGE_FEE_BPS) / 10_000)
    expect(fee).toBe(601)
    const res = await recharge(amy, amount, { [KEY]: 'amy-recharge-01' })
    expect(res.statusCode, res.body).toBe(200)
    const created = RechargeSchema.parse(res.json().data)
    expect(created).toEqual({
      rechargeId: expect.any(Number),
      amount,
      fee,
      total: amount + fee,
      status: 'pending',
      payRequest: expect.objectContaining({ appid: SANDBOX_WECHAT_PAY.appId, signType: 'MD5' }),
    })
    const request = created.payRequest!
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
    // Nothing moves on the browser's word.
    expect(await balanceOf(t, amy.userId, 'deposit')).toBe(0)
    const fees = await platformFees()

    // A retry with the same key is the same recharge and the same trade.
    const retry = await recharge(amy, amount, { [KEY]: 'amy-recharge-01' })
    expect(retry.json().data.rechargeId).toBe(created.rechargeId)
    expect(retry.json().data.payRequest.packages).toBe(request.packages)

    const page = await t.inject({
      method: 'GET',
      url: `/svc/sandbox/wxpay/cashier?prepay_id=${request.packages.slice(10)}&redirect=/account/quotaRecharge`,
    })
    expect(page.body).toContain('¥1,006.02')
    const confirmed = await confirmAtCashier(t, request.packages.slice('prepay_id='.length))
    expect(confirmed.statusCode).toBe(303)
    expect(await balanceOf(t, amy.userId, 'deposit')).toBe(amount)
    expect(await balanceOf(t, amy.userId, 'balance')).toBe(0)
    expect((await platformFees()) - fees).toBe(fee)
    const paid = await view(amy, created.rechargeId)
    expect(paid.json().data).toEqual({
      rechargeId: created.rechargeId,
      amount,
      fee,
      total: amount + fee,
      status: 'paid',
    })

    // The notice again, ten times at once: acknowledged each time, credited once.
    const notice = wx.delivered.at(-1)!.xml
    const replays = await Promise.all(Array.from({ length: 10 }, () => postNotice(t, notice)))
    expect(replays.map((r) => r.statusCode)).toEqual(Array<number>(10).fill(200))
    expect(await balanceOf(t, amy.userId, 'deposit')).toBe(amount)
    const transfers = await t.database.db
      .selectFrom('ledger_transfers')
      .select('id')
      .where('kind', '=', 'recharge')
      .where('memo', '=', `recharge ${created.rechargeId}`)
      .execute()
    expect(transfers).toHaveLength(1)
  })

  it('a recharge retried after its prepay window closed gets a fresh prepay id, and is credited once', async () => {
    const ben = await t.signIn()
    const amount = 500 * YUAN
    const headers = { [KEY]: 'ben-recharge-01' }
    const first = RechargeSchema.parse((await recharge(ben, amount, headers)).json().data)
    t.clock.advance(115 * 60_000)
    // The page polling it is not handed the lapsing prepay id; the retry asks for a fresh one.
    expect((await view(ben, first.rechargeId)).json().data.payRequest).toBeUndefined()
    const again = RechargeSchema.parse((await recharge(ben, amount, headers)).json().data)
    expect(again.rechargeId).toBe(first.rechargeId)
    expect(again.payRequest!.packages).not.toBe(first.payRequest!.packages)
    expect((await view(ben, first.rechargeId)).json().data.payRequest.packages).toBe(
      again.payRequest!.packages,
    )
    t.clock.advance(10 * 60_000)
    const prepayId = again.payRequest!.packages.slice('prepay_id='.length)
    expect((await confirmAtCashier(t, prepayId)).statusCode).toBe(303)
    expect(parseXml(wx.delivered.at(-1)!.xml)!.out_trade_no).toMatch(
      new RegExp(`^R${first.rechargeId}-[0-9a-z]+$`),
    )
    expect(await balanceOf(t, ben.userId, 'deposit')).toBe(amount)
    expect((await postNotice(t, wx.delivered.at(-1)!.xml)).statusCode).toBe(200)
    expect(await balanceOf(t, ben.userId, 'deposit')).toBe(amount)
  })

  it('refuses a notice that is forged or for another amount, and credits nothing', async () => {
    const ben = await t.signIn()
    const { rechargeId, total } = (await recharge(ben, 50 * YUAN)).json().data as {
      rechargeId: number
      total: number
    }
    const notice = (fields: Record<string, string | number>, key: string) =>
      toXml(
        signed(
          {
            appid: SANDBOX_WECHAT_PAY.appId,
            mch_id: SANDBOX_WECHAT_PAY.mchId,
            nonce_str: 'n0nce',
            return_code: 'SUCCESS',
            result_code: 'SUCCESS',
            out_trade_no: `R${rechargeId}`,
            transaction_id: '4200000000000000000000000002',
            total_fee: total,
            ...fields,
          },
          key,
        ),
      )
    for (const xml of [
      notice({}, 'NotTheMerchantKeyAtAll0000000000'),
      notice({ total_fee: 50 * YUAN }, SANDBOX_WECHAT_PAY.key),
    ]) {
      const res = await postNotice(t, xml)
      expect(res.statusCode).toBe(400)
      expect(parseXml(res.body)?.return_code).toBe('FAIL')
    }
    expect(await balanceOf(t, ben.userId, 'deposit')).toBe(0)
    expect((await view(ben, rechargeId)).json().data.status).toBe('pending')
    // The genuine notice credits it.
    expect((await postNotice(t, notice({}, SANDBOX_WECHAT_PAY.key))).statusCode).toBe(200)
    expect(await balanceOf(t, ben.userId, 'deposit')).toBe(50 * YUAN)
  })

  it('a second paid attempt of a settled recharge is credited as another recharge, once', async () => {
    const cai = await t.signIn()
    const { rechargeId, total, fee } = (await recharge(cai, 80 * YUAN)).json().data as {
      rechargeId: number
      total: number
      fee: number
    }
    const paidBy = (transactionId: string) =>
      toXml(
        signed(
          {
            appid: SANDBOX_WECHAT_PAY.appId,
            mch_id: SANDBOX_WECHAT_PAY.mchId,
            nonce_str: 'n0nce',
            return_code: 'SUCCESS',
            result_code: 'SUCCESS',
            out_trade_no: `R${rechargeId}`,
            transaction_id: transactionId,
            total_fee: total,
          },
          SANDBOX_WECHAT_PAY.key,
        ),
      )
    const feesBefore = await platformFees()
    expect((await postNotice(t, paidBy('4200000000000000000000000011'))).statusCode).toBe(200)
    expect(await balanceOf(t, cai.userId, 'deposit')).toBe(80 * YUAN)
    // The platform took the money of a second attempt too: it is not kept from the payer.
    const second = paidBy('4200000000000000000000000012')
    const answers = await Promise.all([postNotice(t, second), postNotice(t, second)])
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200])
    expect(await balanceOf(t, cai.userId, 'deposit')).toBe(160 * YUAN)
    expect(await platformFees()).toBe(feesBefore + 2 * fee)
    // Replays of either change nothing.
    await postNotice(t, paidBy('4200000000000000000000000011'))
    await postNotice(t, second)
    expect(await balanceOf(t, cai.userId, 'deposit')).toBe(160 * YUAN)
  })

  it('refuses bad amounts with 400, another user’s recharge with 404, a reused key with 422', async () => {
    const cy = await t.signIn()
    const dee = await t.signIn()
    for (const amount of [0, -100, 1.5, '100', 100_000_000_001]) {
      const res = await recharge(cy, amount)
      expect(res.statusCode, String(amount)).toBe(400)
      expect(res.json().code).toBe('VALIDATION_FAILED')
    }
    const mine = (await recharge(cy, 10 * YUAN, { [KEY]: 'cy-recharge-01' })).json().data
    expect((await view(dee, mine.rechargeId)).statusCode).toBe(404)
    expect((await view(cy, mine.rechargeId)).statusCode).toBe(200)
    const reused = await recharge(cy, 20 * YUAN, { [KEY]: 'cy-recharge-01' })
    expect(reused.statusCode).toBe(422)
    expect(reused.json().code).toBe('IDEMPOTENCY_KEY_REUSED')
  })
})
