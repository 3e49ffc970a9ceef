import { describe, expect, it } from 'vitest'
import {
  chinaTime,
  noticeReply,
  parseXml,
  signed,
  toXml,
  wxSign,
  wxVerify,
} from './wechat-pay-protocol'

describe('the messaging platform’s pay protocol (v2)', () => {
  it('signs as the platform’s published example does', () => {
    // The example of the platform's 安全规范 (signing rules): sorted, non-empty, &key=…, MD5.
    const fields = {
      appid: 'wxd930ea5d5a258f4f',
      mch_id: '10000100',
      device_info: '1000',
      body: 'test',
      nonce_str: 'ibuaiVcKdpRxkhJA',
    }
    expect(wxSign(fields, '192006250b4c09247ec02edce69f6a2d')).toBe(
      '9A0A8659F005D6984697E2CA0A9CF3B7',
    )
    // Empty values and the sign itself take no part.
    expect(wxSign({ ...fields, attach: '', sign: 'X' }, '192006250b4c09247ec02edce69f6a2d')).toBe(
      '9A0A8659F005D6984697E2CA0A9CF3B7',
    )
  })

  it('verifies a signed document and refuses any change to it', () => {
    const key = 'k'.repeat(32)
    const doc = signed({ out_trade_no: 'P1', total_fee: 12_000, result_code: 'SUCCESS' }, key)
    expect(doc.total_fee).toBe('12000')
    expect(wxVerify(doc, key)).toBe(true)
    expect(wxVerify({ ...doc, sign: doc.sign!.toLowerCase() }, key)).toBe(true)
    expect(wxVerify({ ...doc, total_fee: '1' }, key)).toBe(false)
    expect(wxVerify(doc, 'another key')).toBe(false)
    expect(wxVerify({ ...doc, sign: 'short' }, key)).toBe(false)
    const { sign: _dropped, ...unsigned } = doc
    expect(wxVerify(unsigned, key)).toBe(false)
  })

  it('writes and reads flat xml, CDATA and entities alike', () => {
    const fields = { body: '泉藏 <订单> & "more"', tricky: 'a]]>b', total_fee: 1 }
    expect(parseXml(toXml(fields))).toEqual({ ...fields, total_fee: '1' })
    expect(
      parseXml(
        '<?xml version="1.0"?>\n<xml>\n  <return_code>SUCCESS</return_code>\n  <msg>a &lt; b</msg>\n</xml>',
      ),
    ).toEqual({ return_code: 'SUCCESS', msg: 'a < b' })
    expect(parseXml(noticeReply(false, 'bad sign'))).toEqual({
      return_code: 'FAIL',
      return_msg: 'bad sign',
    })
    expect(parseXml('<xml></xml>')).toEqual({})
  })

  it('refuses what is not a flat platform document', () => {
    for (const text of [
      '',
      'return_code=SUCCESS',
      '{"return_code":"SUCCESS"}',
      '<xml><a><b>1</b></a></xml>',
      '<xml><a>1</a><a>2</a></xml>',
      '<xml><a>1</b></xml>',
      '<xml>stray<a>1</a></xml>',
      '<!DOCTYPE x [<!ENTITY e "boom">]><xml><a>&e;</a></xml>',
      `<xml>${'<a1>x</a1>'.repeat(2)}</xml>`,
      `<xml>${Array.from({ length: 65 }, (_, i) => `<f${i}>1</f${i}>`).join('')}</xml>`,
    ]) {
      expect(parseXml(text), text).toBeNull()
    }
    expect(() => toXml({ 'bad name': 'x' })).toThrow()
  })

  it('writes time_end in China time', () => {
    expect(chinaTime(Date.UTC(2026, 0, 31, 17, 5, 9))).toBe('20260201010509')
  })
})
