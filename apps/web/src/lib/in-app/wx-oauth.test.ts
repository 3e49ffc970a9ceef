import { describe, expect, it } from 'vitest'
import {
  beginWxOAuth,
  newWxState,
  WX_STATE_KEY,
  wxAuthorizeUrl,
  wxCallbackUrl,
  wxStateMatches,
} from './wx-oauth'

const settings = {
  appId: 'wx123',
  authorizeUrl: 'https://shop.example/svc/sandbox/wx/connect/oauth2/authorize',
}
const fixedRandom = (bytes: Uint8Array<ArrayBuffer>): Uint8Array => bytes.map((_, i) => i * 17)

function memoryStorage(): Storage {
  const map = new Map<string, string>()
  return {
    get length() {
      return map.size
    },
    clear: () => map.clear(),
    getItem: (k) => map.get(k) ?? null,
    key: (i) => [...map.keys()][i] ?? null,
    removeItem: (k) => void map.delete(k),
    setItem: (k, v) => void map.set(k, v),
  }
}

describe('messaging-app OAuth', () => {
  it('sends the platform back to the callback with the wanted path, never elsewhere', () => {
    expect(wxCallbackUrl('https://shop.example', '/myOrder?tab=pay')).toBe(
      'https://shop.example/wx/callback?redirect=%2FmyOrder%3Ftab%3Dpay',
    )
    expect(wxCallbackUrl('https://shop.example', 'https://evil.example/')).toBe(
      'https://shop.example/wx/callback?redirect=%2F',
    )
  })

  it('asks for the user-info scope with the state, redirect_uri encoded once', () => {
    const url = new URL(
      wxAuthorizeUrl(settings, 'https://shop.example/wx/callback?redirect=%2F', 'abc'),
    )
    expect(url.searchParams.get('appid')).toBe('wx123')
    expect(url.searchParams.get('redirect_uri')).toBe(
      'https://shop.example/wx/callback?redirect=%2F',
    )
    expect(url.searchParams.get('response_type')).toBe('code')
    expect(url.searchParams.get('scope')).toBe('snsapi_userinfo')
    expect(url.searchParams.get('state')).toBe('abc')
    expect(url.hash).toBe('#wechat_redirect')
  })

  it('stores the state it sends and accepts only that state back', () => {
    const storage = memoryStorage()
    const url = beginWxOAuth(settings, '/ucenter', 'https://shop.example', storage, fixedRandom)
    const state = new URL(url ?? '').searchParams.get('state')
    expect(state).toBe(newWxState(fixedRandom))
    expect(storage.getItem(WX_STATE_KEY)).toBe(state)
    expect(wxStateMatches(storage, state)).toBe(true)
    expect(wxStateMatches(storage, 'forged')).toBe(false)
    expect(wxStateMatches(storage, null)).toBe(false)
    expect(wxStateMatches(memoryStorage(), state)).toBe(false)
  })

  it('gives no URL when the platform is not set up', () => {
    expect(
      beginWxOAuth(null, '/', 'https://shop.example', memoryStorage(), fixedRandom),
    ).toBeUndefined()
  })
})
