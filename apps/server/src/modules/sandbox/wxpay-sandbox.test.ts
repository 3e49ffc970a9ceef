import { describe, expect, it } from 'vitest'
import { FakeClock } from '../../platform/clock'
import {
  chinaTime,
  parseXml,
  signed,
  toXml,
  wxVerify,
  type WxInput,
} from '../payments/wechat-pay-protocol'
import { safeRedirect, withResult } from './cashier-page'
import { sandboxOpenid } from './mp-sandbox'
import { type NoticeDelivery, WxPaySandbox } from './wxpay-sandbox'

const MERCHANT = { appId: 'wxsandboxapp00001', mchId: '1900000109', key: 'K'.repeat(32) }
const SUCCESS = toXml({ return_code: 'SUCCESS', return_msg: 'OK' })

function setup(deliver: NoticeDelivery = () => Promise.resolve(SUCCESS), retryDelaysMs?: number[]) {
  const clock = new FakeClock()
  const sandbox = new WxPaySandbox(MERCHANT, deliver, clock, { retryDelaysMs: retryDelaysMs ?? [] })
  const order = (fields: WxInput = {}, key = MERCHANT.key) =>
    parseXml(
      sandbox.unifiedOrder(
        toXml(
          signed(
            {
              appid: MERCHANT.appId,
              mch_id: MERCHANT.mchId,
              nonce_str: 'abc',
              body: '泉藏拍卖-订单支付',
              out_trade_no: 'P1',
              total_fee: 8_800,
              notify_url: 'http://shop.test/svc/main/pay/notify/wechat',
              trade_type: 'JSAPI',
              ...fields,
            },
            key,
          ),
        ),
      ),
    )!
  return { sandbox, clock, order }
}

describe('the pay sandbox’s unified order', () => {
  it('hands out a prepay id in a reply signed with the merchant key, the same one for the same order', () => {
    const { order } = setup()
    const reply = order()
    expect(reply).toMatchObject({
      return_code: 'SUCCESS',
      result_code: 'SUCCESS',
      trade_type: 'JSAPI',
    })
    expect(wxVerify(reply, MERCHANT.key)).toBe(true)
    expect(reply.prepay_id).toMatch(/^wx\d{14}[0-9a-f]{24}$/)
    expect(order({ nonce_str: 'another' }).prepay_id).toBe(reply.prepay_id)
    expect(order({ out_trade_no: 'P2' }).prepay_id).not.toBe(reply.prepay_id)
  })

  it('refuses what the platform refuses', () => {
    const { order, sandbox } = setup()
    expect(order({}, 'wrong key')).toEqual({ return_code: 'FAIL', return_msg: '签名错误' })
    expect(order({ appid: 'wxother' }).return_msg).toBe('appid和mch_id不匹配')
    expect(order({ body: '' }).return_msg).toBe('缺少参数body')
    expect(parseXml(sandbox.unifiedOrder('<json/>'))?.return_msg).toBe('XML格式错误')
    for (const [fields, code] of [
      [{ trade_type: 'NATIVE' }, 'PARAM_ERROR'],
      [{ total_fee: 0 }, 'PARAM_ERROR'],
      [{ total_fee: '1.5' }, 'PARAM_ERROR'],
      [{ notify_url: 'ftp://x' }, 'PARAM_ERROR'],
      [{ out_trade_no: 'P 1' }, 'PARAM_ERROR'],
    ] as const) {
      expect(order(fields)).toMatchObject({ result_code: 'FAIL', err_code: code })
    }
    order()
    expect(order({ total_fee: 1 })).toMatchObject({ err_code: 'INVALID_REQUEST' })
  })

  it('takes an open id only when the official-account sandbox issued it under this app', () => {
    const { order, sandbox } = setup()
    const openid = sandboxOpenid(MERCHANT.appId, '张三')
    const paid = order({ openid })
    expect(paid).toMatchObject({ result_code: 'SUCCESS' })
    expect(sandbox.trade(paid.prepay_id!)?.openid).toBe(openid)
    const mismatch = {
      return_code: 'SUCCESS',
      result_code: 'FAIL',
      err_code: 'PARAM_ERROR',
      err_code_des: 'appid和openid不匹配',
    }
    expect(order({ out_trade_no: 'P2', openid: sandboxOpenid('wxother', '张三') })).toMatchObject(
      mismatch,
    )
    expect(order({ out_trade_no: 'P3', openid: 'oNotIssuedByTheSandbox00000' })).toMatchObject(
      mismatch,
    )
    // Without one JSAPI is still taken (the desktop cashier in development, see unifiedOrder).
    expect(order({ out_trade_no: 'P4' })).toMatchObject({ result_code: 'SUCCESS' })
  })

  it('forgets an unpaid prepay id after two hours, and refuses a paid order', async () => {
    const { order, sandbox, clock } = setup()
    const first = order().prepay_id!
    clock.advance(2 * 60 * 60 * 1000)
    expect(sandbox.trade(first)).toBeUndefined()
    expect((await sandbox.confirm(first)).kind).toBe('unknown')
    const second = order().prepay_id!
    expect(second).not.toBe(first)
    expect((await sandbox.confirm(second)).kind).toBe('paid')
    expect((await sandbox.confirm(second)).kind).toBe('already_paid')
    expect(order()).toMatchObject({ result_code: 'FAIL', err_code: 'ORDERPAID' })
  })

  it('asked again after its prepay id lapsed, still takes only the same order', () => {
    const { order, clock } = setup()
    const first = order().prepay_id!
    clock.advance(2 * 60 * 60 * 1000)
    expect(order({ total_fee: 1 })).toMatchObject({
      result_code: 'FAIL',
      err_code: 'INVALID_REQUEST',
    })
    expect(order().prepay_id).not.toBe(first)
  })

  it('honours time_expire: the order closes then, its prepay id with it, and stays closed', async () => {
    const { order, sandbox, clock } = setup()
    const closes = { time_expire: chinaTime(clock.now() + 30 * 60_000) }
    const prepayId = order(closes).prepay_id!
    clock.advance(30 * 60_000 - 1_000)
    expect(sandbox.trade(prepayId)).toBeDefined()
    clock.advance(1_000)
    expect(sandbox.trade(prepayId)).toBeUndefined()
    expect((await sandbox.confirm(prepayId)).kind).toBe('unknown')
    expect(order(closes)).toMatchObject({ result_code: 'FAIL', err_code: 'ORDERCLOSED' })
    // A time the platform cannot read, or too soon (JSAPI: at least 5 minutes), is refused.
    for (const time_expire of ['2026', chinaTime(clock.now() + 4 * 60_000)]) {
      expect(order({ out_trade_no: 'P9', time_expire })).toMatchObject({
        result_code: 'FAIL',
        err_code: 'PARAM_ERROR',
      })
    }
    // Asked again with another closing time, an open order is another order: 201.
    order({ out_trade_no: 'P8', time_expire: chinaTime(clock.now() + 60 * 60_000) })
    expect(
      order({ out_trade_no: 'P8', time_expire: chinaTime(clock.now() + 61 * 60_000) }),
    ).toMatchObject({ err_code: 'INVALID_REQUEST' })
  })
})

describe('the pay sandbox’s notice', () => {
  it('posts a notice signed with the merchant key to the notify url', async () => {
    const sent: { url: string; xml: string }[] = []
    const { order, sandbox } = setup((url, xml) => {
      sent.push({ url, xml })
      return Promise.resolve(SUCCESS)
    })
    const prepayId = order().prepay_id!
    const result = await sandbox.confirm(prepayId)
    expect(result.kind).toBe('paid')
    expect(sent).toHaveLength(1)
    expect(sent[0]!.url).toBe('http://shop.test/svc/main/pay/notify/wechat')
    const notice = parseXml(sent[0]!.xml)!
    expect(wxVerify(notice, MERCHANT.key)).toBe(true)
    expect(notice).toMatchObject({
      return_code: 'SUCCESS',
      result_code: 'SUCCESS',
      appid: MERCHANT.appId,
      mch_id: MERCHANT.mchId,
      out_trade_no: 'P1',
      total_fee: '8800',
      transaction_id: expect.stringMatching(/^4200\d{24}$/),
      time_end: expect.stringMatching(/^\d{14}$/),
    })
  })

  it('tries again until the merchant answers SUCCESS, and stops when closed', async () => {
    const answers = ['refused', 'down', 'ok']
    let tries = 0
    const { order, sandbox } = setup(() => {
      const answer = answers[tries++]
      if (answer === 'down') return Promise.reject(new Error('connection refused'))
      return Promise.resolve(answer === 'ok' ? SUCCESS : toXml({ return_code: 'FAIL' }))
    }, [5, 5, 5, 5])
    const prepayId = order().prepay_id!
    await sandbox.confirm(prepayId)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(tries).toBe(3)
    expect(sandbox.trade(prepayId)?.paid?.delivered).toBe(true)
    sandbox.close()
  })
})

describe('the cashier’s way back', () => {
  it('goes back to a path of this site, or to a page on this host or this machine', () => {
    expect(safeRedirect(undefined, 'shop.test')).toBe('/')
    expect(safeRedirect('/account/paySuc?paymentId=1', 'shop.test')).toBe(
      '/account/paySuc?paymentId=1',
    )
    expect(safeRedirect('http://localhost:5173/account/paySuc', 'shop.test')).toBe(
      'http://localhost:5173/account/paySuc',
    )
    expect(safeRedirect('https://shop.test/x', 'shop.test')).toBe('https://shop.test/x')
    for (const bad of [
      '//evil.test/x',
      '/\\evil.test',
      '/\t/evil.test/phish',
      '/\n/evil.test',
      '/\r\n/evil.test',
      '\t//evil.test',
      '/x\\..\\\\evil.test',
      '/a\u0000b',
      'https://evil.test/',
      'javascript:alert(1)',
      'x'.repeat(3000),
    ]) {
      expect(safeRedirect(bad, 'shop.test'), bad).toBeNull()
    }
  })

  it('tells the page how the sheet ended', () => {
    expect(withResult('/account/paySuc', 'ok')).toBe('/account/paySuc?wxpay=ok')
    expect(withResult('/account/paySuc?paymentId=3#top', 'cancel')).toBe(
      '/account/paySuc?paymentId=3&wxpay=cancel#top',
    )
  })
})
