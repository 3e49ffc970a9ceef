import { NATIVE_BRIDGE_GLOBAL, NATIVE_RECEIVER_GLOBAL } from '@numisma/contracts/in-app'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  NativeCallSchema,
  type NativeCall,
  type NativeUserData,
} from '@numisma/contracts/native-bridge'
import {
  createNativeBridge,
  NATIVE_LOGIN_TIMEOUT_MS,
  NativeBridgeError,
  type BridgeHost,
} from './native-bridge'

const USER: NativeUserData = {
  id: 'sess-1',
  key: 'k-1',
  userId: '42',
  display: '张三',
  mobile: '138****0000',
  loginTime: '1764000000000',
  agreement: '1',
}

/** A fake app: records what the page posts and lets the test answer through the receiver. */
function fakeApp() {
  const calls: NativeCall[] = []
  const host: BridgeHost = {
    [NATIVE_BRIDGE_GLOBAL]: {
      postMessage(json: string) {
        calls.push(NativeCallSchema.parse(JSON.parse(json)))
      },
    },
  }
  const send = (message: unknown) => {
    const receive = host[NATIVE_RECEIVER_GLOBAL]
    if (typeof receive !== 'function') throw new Error('no receiver installed')
    receive(JSON.stringify(message))
  }
  const reply = (call: NativeCall | undefined, fields: Record<string, unknown>) => {
    if (!call) throw new Error('no call posted')
    send({ type: 'reply', id: call.id, ...fields })
  }
  return { host, calls, send, reply }
}

describe('createNativeBridge', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('is undefined when the app injected no bridge', () => {
    expect(createNativeBridge({})).toBeUndefined()
    expect(createNativeBridge({ [NATIVE_BRIDGE_GLOBAL]: {} })).toBeUndefined()
  })

  it('pairs replies with their calls by id, whatever the order', async () => {
    const app = fakeApp()
    const bridge = createNativeBridge(app.host)
    const data = bridge?.getUserData()
    const login = bridge?.login('/myOrder')
    expect(app.calls.map((c) => c.method)).toEqual(['getUserData', 'login'])
    expect(app.calls[1]).toMatchObject({ redirect: '/myOrder' })
    expect(app.calls[0]?.id).not.toBe(app.calls[1]?.id)
    app.reply(app.calls[1], { ok: true, result: { loggedIn: true } })
    app.reply(app.calls[0], { ok: true, result: USER })
    await expect(data).resolves.toEqual(USER)
    await expect(login).resolves.toEqual({ loggedIn: true })
  })

  it('answers login when the app’s login screen closes: cancelled is loggedIn false', async () => {
    const app = fakeApp()
    const login = createNativeBridge(app.host, { timeoutMs: 10_000 })?.login('/ucenter')
    // A user typing an SMS code takes longer than an ordinary call's timeout.
    await vi.advanceTimersByTimeAsync(60_000)
    app.reply(app.calls[0], { ok: true, result: { loggedIn: false } })
    await expect(login).resolves.toEqual({ loggedIn: false })
  })

  it('rejects a login reply without its outcome, and a login screen that never closes', async () => {
    const app = fakeApp()
    const bridge = createNativeBridge(app.host)
    const bare = bridge?.login('/ucenter')
    app.reply(app.calls[0], { ok: true, result: null })
    await expect(bare).rejects.toMatchObject({ reason: 'malformed' })
    const hung = bridge?.login('/ucenter').catch((e: unknown) => e)
    await vi.advanceTimersByTimeAsync(NATIVE_LOGIN_TIMEOUT_MS)
    expect(await hung).toMatchObject({ method: 'login', reason: 'timeout' })
  })

  it('reads a signed-out app as null user data', async () => {
    const app = fakeApp()
    const data = createNativeBridge(app.host)?.getUserData()
    app.reply(app.calls[0], { ok: true, result: null })
    await expect(data).resolves.toBeNull()
  })

  it('rejects user data that is not the spec cookies', async () => {
    const app = fakeApp()
    const data = createNativeBridge(app.host)?.getUserData()
    app.reply(app.calls[0], { ok: true, result: { ...USER, agreement: '0' } })
    await expect(data).rejects.toMatchObject({ reason: 'malformed' })
  })

  it('rejects a refused call with the app’s reason', async () => {
    const app = fakeApp()
    const shared = createNativeBridge(app.host)?.share({
      title: '1980 熊猫金币',
      desc: '',
      link: 'https://shop.example/auctionDetail?id=1',
      imgUrl: 'https://shop.example/a.jpg',
    })
    expect(app.calls[0]).toMatchObject({ method: 'share', info: { title: '1980 熊猫金币' } })
    app.reply(app.calls[0], { ok: false, error: 'no share targets' })
    const error: unknown = await shared?.catch((e: unknown) => e)
    expect(error).toBeInstanceOf(NativeBridgeError)
    expect(error).toMatchObject({ method: 'share', reason: 'refused' })
    expect(String(error)).toContain('no share targets')
  })

  it('rejects a call the app never answers after the timeout, and ignores a late reply', async () => {
    const app = fakeApp()
    const data = createNativeBridge(app.host, { timeoutMs: 10_000 })?.getUserData()
    const outcome = data?.catch((e: unknown) => e)
    await vi.advanceTimersByTimeAsync(9_999)
    const early = await Promise.race([outcome, Promise.resolve('pending')])
    expect(early).toBe('pending')
    await vi.advanceTimersByTimeAsync(1)
    expect(await outcome).toMatchObject({ reason: 'timeout' })
    expect(() => app.reply(app.calls[0], { ok: true, result: USER })).not.toThrow()
  })

  it('drops messages it cannot read', async () => {
    const app = fakeApp()
    const data = createNativeBridge(app.host)?.getUserData()
    const receive = app.host[NATIVE_RECEIVER_GLOBAL] as (raw: unknown) => void
    receive('not json')
    receive(JSON.stringify({ type: 'reply' }))
    app.reply(app.calls[0], { ok: true, result: USER })
    await expect(data).resolves.toEqual(USER)
  })

  it('tells login-status listeners until they unsubscribe', () => {
    const app = fakeApp()
    const bridge = createNativeBridge(app.host)
    const seen: boolean[] = []
    const stop = bridge?.onLoginStatus((loggedIn) => seen.push(loggedIn))
    app.send({ type: 'loginStatus', loggedIn: true })
    stop?.()
    app.send({ type: 'loginStatus', loggedIn: false })
    expect(seen).toEqual([true])
  })

  it('accepts a message passed as an object rather than a string', async () => {
    const app = fakeApp()
    const data = createNativeBridge(app.host)?.getUserData()
    const receive = app.host[NATIVE_RECEIVER_GLOBAL] as (raw: unknown) => void
    receive({ type: 'reply', id: app.calls[0]?.id, ok: true, result: null })
    await expect(data).resolves.toBeNull()
  })

  it('rejects at once when posting throws', async () => {
    const host: BridgeHost = {
      [NATIVE_BRIDGE_GLOBAL]: {
        postMessage() {
          throw new Error('bridge gone')
        },
      },
    }
    await expect(createNativeBridge(host)?.getUserData()).rejects.toThrow('bridge gone')
  })
})
