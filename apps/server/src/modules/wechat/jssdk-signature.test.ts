import { describe, expect, it } from 'vitest'
import { jssdkSignature, withoutHash } from './jssdk-signature'

describe('jssdkSignature', () => {
  // The platform's published example (JS-SDK 说明文档, 附录1).
  const example = {
    ticket:
      'sM4AOVdWfPE4DxkXGEs8VMCPGGVi4C3VM0P37wVUCFvkVAy_90u5h9nbSlYy3-Sl-HhTdfl2fzFy1AOcHKP7qg',
    nonceStr: 'Wm3WZYTPz0wzccnW',
    timestamp: 1414587457,
    url: 'http://mp.weixin.qq.com?params=value',
  }

  it('matches the platform’s published example', () => {
    expect(jssdkSignature(example)).toBe('0f9de62fce790f9a083d5c99e95740ceb90c27ed')
  })

  it('signs the URL without its hash', () => {
    expect(jssdkSignature({ ...example, url: `${example.url}#/somewhere` })).toBe(
      '0f9de62fce790f9a083d5c99e95740ceb90c27ed',
    )
    expect(withoutHash('https://a.example/x?y=1#z')).toBe('https://a.example/x?y=1')
  })

  it('changes with every field', () => {
    const base = jssdkSignature(example)
    expect(jssdkSignature({ ...example, nonceStr: 'other' })).not.toBe(base)
    expect(jssdkSignature({ ...example, timestamp: example.timestamp + 1 })).not.toBe(base)
    expect(jssdkSignature({ ...example, url: `${example.url}&x=1` })).not.toBe(base)
    expect(jssdkSignature({ ...example, ticket: `${example.ticket}x` })).not.toBe(base)
  })
})
