import { createHash, createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  authorizationHeader,
  canonicalString,
  constantTimeEqual,
  hmacSignature,
  osInfoHeader,
  parseAuthorization,
  randomUuid,
  signedHeaders,
  signedPath,
  xSign,
} from './signing'

describe('request signing (spec §7)', () => {
  it('covers uppercase method, two newlines, the path, a newline and the device id', () => {
    expect(canonicalString('get', '/user/@statistics', 'dev-1')).toBe(
      'GET\n\n/user/@statistics\ndev-1',
    )
  })

  it('matches an independent HMAC-SHA1 base64 implementation', () => {
    const expected = createHmac('sha1', 'secret-key')
      .update('POST\n\n/bidding/bid\n1700000000000abc')
      .digest('base64')
    expect(hmacSignature('secret-key', 'post', '/bidding/bid', '1700000000000abc')).toBe(expected)
  })

  it('builds and parses the ZHAO authorization header', () => {
    const header = authorizationHeader('h5app', 'k', 'GET', '/pub/@time', 'd')
    expect(header).toMatch(/^ZHAO h5app:[A-Za-z0-9+/]{27}=$/)
    expect(parseAuthorization(header)).toEqual({
      appId: 'h5app',
      signature: header.slice('ZHAO h5app:'.length),
    })
  })

  it.each(['', 'Bearer x', 'ZHAO :abc', 'ZHAO app', 'ZHAO app:not-base64!', 'ZHAO a b:c'])(
    'rejects malformed authorization %j',
    (value) => {
      expect(parseAuthorization(value)).toBeNull()
    },
  )

  it('X-Sign is hex SHA-256 of nonce + timestamp + secret', () => {
    const expected = createHash('sha256').update('n-11700000000000s3cret').digest('hex')
    expect(xSign('n-1', '1700000000000', 's3cret')).toBe(expected)
  })

  it('signs the path without query string or hash', () => {
    expect(signedPath('/auction/42?x=1')).toBe('/auction/42')
    expect(signedPath('/auction/42#top')).toBe('/auction/42')
    expect(signedPath('pub/@time')).toBe('/pub/@time')
  })

  it('produces every header of spec §7', () => {
    const headers = signedHeaders({
      method: 'get',
      path: '/user/@statistics?page=2',
      appId: 'app',
      key: 'key',
      deviceId: 'dev',
      signSecret: 'sec',
      osInfo: osInfoHeader(),
      userId: '7',
      now: 1_700_000_000_000,
      nonce: 'nonce-1',
    })
    expect(headers).toEqual({
      'x-app-id': 'app',
      'x-device-id': 'dev',
      'x-os-info': 'os=h5;version=2.0.0',
      authorization: authorizationHeader('app', 'key', 'GET', '/user/@statistics', 'dev'),
      'x-user-id': '7',
      'x-nonce': 'nonce-1',
      'x-timestamp': '1700000000000',
      'x-sign': xSign('nonce-1', '1700000000000', 'sec'),
    })
  })

  it('omits the user id header when anonymous and makes fresh nonces', () => {
    const base = {
      method: 'GET',
      path: '/pub/@time',
      appId: 'a',
      key: 'k',
      deviceId: 'd',
      signSecret: 's',
      osInfo: 'os=h5',
    }
    const a = signedHeaders(base)
    const b = signedHeaders(base)
    expect(a['x-user-id']).toBeUndefined()
    expect(a['x-nonce']).not.toBe(b['x-nonce'])
  })

  it('makes RFC 4122 v4 UUIDs', () => {
    for (let i = 0; i < 50; i++) {
      expect(randomUuid()).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      )
    }
  })

  it('compares in constant time but correctly', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true)
    expect(constantTimeEqual('abc', 'abd')).toBe(false)
    expect(constantTimeEqual('abc', 'ab')).toBe(false)
  })

  it('keeps separators out of OS info values', () => {
    expect(osInfoHeader({ ua: 'a;b=c' })).toBe('os=h5;version=2.0.0;ua=a b c')
  })
})
