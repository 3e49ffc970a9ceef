import { describe, expect, it, vi } from 'vitest'
import type { NativeUserData } from '@numisma/contracts/native-bridge'
import { memoryCookies } from '../cookies'
import type { NativeBridgeClient } from './native-bridge'
import { reloadOnLoginStatus, syncNativeSession } from './native-session'

const USER: NativeUserData = {
  id: 'sess-1',
  key: 'k-1',
  userId: '42',
  display: '张三',
  mobile: '138****0000',
  loginTime: '1764000000000',
  agreement: '1',
}

const OLD_LOGIN = {
  id: 'old',
  key: 'old-key',
  userId: '7',
  display: 'x',
  mobile: 'y',
  agreement: '1',
  loginTime: '1',
  deviceId: 'dev-1',
}

function fakeBridge(getUserData: () => Promise<NativeUserData | null>) {
  const listeners = new Set<(loggedIn: boolean) => void>()
  const bridge: NativeBridgeClient = {
    call: () => Promise.reject(new Error('not used')),
    getUserData,
    login: () => Promise.resolve({ loggedIn: false }),
    share: () => Promise.resolve({ shared: true }),
    onLoginStatus: (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
  const emit = (loggedIn: boolean) => {
    for (const listener of listeners) listener(loggedIn)
  }
  return { bridge, emit }
}

describe('syncNativeSession', () => {
  it('writes the app’s user data into the spec cookies', async () => {
    const jar = memoryCookies({ deviceId: 'dev-1' })
    await syncNativeSession(fakeBridge(() => Promise.resolve(USER)).bridge, jar)
    expect(Object.fromEntries(jar.names().map((n) => [n, jar.get(n)]))).toEqual({
      ...USER,
      deviceId: 'dev-1',
    })
  })

  it('clears the login cookies when the app is signed out, keeping the device id', async () => {
    const jar = memoryCookies(OLD_LOGIN)
    await syncNativeSession(fakeBridge(() => Promise.resolve(null)).bridge, jar)
    expect(jar.names()).toEqual(['deviceId'])
  })

  it('starts signed out when the bridge fails or times out', async () => {
    const jar = memoryCookies(OLD_LOGIN)
    await syncNativeSession(fakeBridge(() => Promise.reject(new Error('timeout'))).bridge, jar)
    expect(jar.names()).toEqual(['deviceId'])
  })
})

describe('reloadOnLoginStatus', () => {
  it('reloads on either login-status event', () => {
    const { bridge, emit } = fakeBridge(() => Promise.resolve(null))
    const reload = vi.fn()
    reloadOnLoginStatus(bridge, reload)
    emit(true)
    emit(false)
    expect(reload).toHaveBeenCalledTimes(2)
  })
})
