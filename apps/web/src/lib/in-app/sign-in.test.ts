import { describe, expect, it, vi } from 'vitest'
import type { NativeBridgeClient } from './native-bridge'
import { dispatchSignIn, type SignInDeps } from './sign-in'
import { beginWxOAuth, WX_STATE_KEY } from './wx-oauth'

const WANTED = '/myOrder?tab=pay#top'
const WECHAT = { appId: 'wx-app-1', authorizeUrl: 'https://open.example/connect/oauth2/authorize' }
const ORIGIN = 'https://shop.example'

function fakeBridge(
  login: (redirect: string) => Promise<{ loggedIn: boolean }>,
): NativeBridgeClient {
  return {
    call: () => Promise.reject(new Error('not used')),
    getUserData: () => Promise.resolve(null),
    login,
    share: () => Promise.resolve({ shared: false }),
    onLoginStatus: () => () => undefined,
  }
}

function deps(overrides: Partial<SignInDeps>): SignInDeps & { went: string[] } {
  const went: string[] = []
  return {
    environment: 'browser',
    bridge: () => Promise.resolve(undefined),
    wxAuthorizeUrl: () => undefined,
    navigate: (url) => went.push(url),
    went,
    ...overrides,
  }
}

describe('dispatchSignIn', () => {
  it('sends a browser or the microblog app to the passport page', async () => {
    for (const environment of ['browser', 'microblog'] as const) {
      const d = deps({ environment })
      await expect(dispatchSignIn(WANTED, d)).resolves.toBe('left')
      expect(d.went).toEqual(['/passport?redirect=%2FmyOrder%3Ftab%3Dpay%23top'])
    }
  })

  it('asks the native app for its login screen and stays on the page', async () => {
    const login = vi.fn(() => Promise.resolve({ loggedIn: true }))
    const d = deps({ environment: 'native', bridge: () => Promise.resolve(fakeBridge(login)) })
    await expect(dispatchSignIn(WANTED, d)).resolves.toBe('signed-in')
    expect(login).toHaveBeenCalledWith(WANTED)
    expect(d.went).toEqual([])
  })

  it('reports a cancelled or failed native login and stays on the page', async () => {
    const cancelled = deps({
      environment: 'native',
      bridge: () => Promise.resolve(fakeBridge(() => Promise.resolve({ loggedIn: false }))),
    })
    await expect(dispatchSignIn(WANTED, cancelled)).resolves.toBe('cancelled')
    const failing = deps({
      environment: 'native',
      bridge: () => Promise.resolve(fakeBridge(() => Promise.reject(new Error('timeout')))),
    })
    await expect(dispatchSignIn(WANTED, failing)).resolves.toBe('failed')
    expect([...cancelled.went, ...failing.went]).toEqual([])
  })

  it('falls back to the passport page when the native app injected no bridge', async () => {
    const missing = deps({ environment: 'native' })
    await expect(dispatchSignIn(WANTED, missing)).resolves.toBe('left')
    expect(missing.went).toEqual(['/passport?redirect=%2FmyOrder%3Ftab%3Dpay%23top'])
  })

  it('sends the messaging app to the platform’s authorize page with a stored state', async () => {
    const stored = new Map<string, string>()
    const storage = { setItem: (k: string, v: string) => void stored.set(k, v) }
    const d = deps({
      environment: 'messaging',
      wxAuthorizeUrl: (to) =>
        beginWxOAuth(WECHAT, to, ORIGIN, storage, (bytes) => bytes.fill(0xab)),
    })
    await dispatchSignIn(WANTED, d)
    const state = 'ab'.repeat(16)
    expect(stored.get(WX_STATE_KEY)).toBe(state)
    const callback = `${ORIGIN}/wx/callback?redirect=${encodeURIComponent(WANTED)}`
    expect(d.went).toEqual([
      `${WECHAT.authorizeUrl}?appid=wx-app-1&redirect_uri=${encodeURIComponent(callback)}` +
        `&response_type=code&scope=snsapi_userinfo&state=${state}#wechat_redirect`,
    ])
    const url = new URL(d.went[0] ?? '')
    expect(url.searchParams.get('redirect_uri')).toBe(callback)
  })

  it('sends the messaging app to the passport page when the platform is not set up', async () => {
    const d = deps({ environment: 'messaging' })
    await dispatchSignIn(WANTED, d)
    expect(d.went).toEqual(['/passport?redirect=%2FmyOrder%3Ftab%3Dpay%23top'])
  })
})
