import type { ShareInfo } from '@numisma/contracts/share'
import type { ShareSignature } from '@numisma/contracts/wechat'
import { describe, expect, it } from 'vitest'
import { createWxShare, type WxSdk } from './wx-share'
import { deferred } from '../../test/deferred'

type Call =
  | { kind: 'config'; signature: string }
  | { kind: 'appMessage'; title: string; link: string }
  | { kind: 'timeline'; title: string }

/** Behaves like jweixin: `ready` waits for the config's verdict, `error` keeps the last handler. */
function fakeSdk() {
  const calls: Call[] = []
  let onReady: (() => void)[] = []
  let onError: ((result: { errMsg: string }) => void) | null = null
  const sdk: WxSdk = {
    config: (options) => calls.push({ kind: 'config', signature: options.signature }),
    ready: (callback) => onReady.push(callback),
    error: (callback) => {
      onError = callback
    },
    updateAppMessageShareData: (data) =>
      calls.push({ kind: 'appMessage', title: data.title, link: data.link }),
    updateTimelineShareData: (data) => calls.push({ kind: 'timeline', title: data.title }),
  }
  return {
    sdk,
    calls,
    verify() {
      const waiting = onReady
      onReady = []
      for (const callback of waiting) callback()
    },
    refuse() {
      onError?.({ errMsg: 'config:invalid signature' })
    },
  }
}

const signatureFor = (url: string): ShareSignature => ({
  appid: 'wx-app',
  timestamp: 1_700_000_000,
  nonceStr: 'n',
  signature: Array.from({ length: 40 }, (_, i) => (url.length + i) % 16)
    .map((n) => n.toString(16))
    .join(''),
})

const info = (title: string, link: string): ShareInfo => ({
  title,
  desc: 'd',
  link,
  imgUrl: 'https://shop.example/i.png',
})

const A = 'https://shop.example/productDetail?id=1'
const B = 'https://shop.example/productDetail?id=22'

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

function setUp() {
  const wx = fakeSdk()
  const pending = new Map<string, ReturnType<typeof deferred<ShareSignature>>>()
  const asked: string[] = []
  const failures: unknown[] = []
  const share = createWxShare({
    loadSdk: () => Promise.resolve(wx.sdk),
    signature: (url) => {
      asked.push(url)
      const d = deferred<ShareSignature>()
      pending.set(url, d)
      return d.promise
    },
    failed: (error) => failures.push(error),
  })
  const answer = async (url: string) => {
    pending.get(url)?.resolve(signatureFor(url))
    await settle()
  }
  return { wx, share, asked, failures, answer, pending }
}

describe('createWxShare', () => {
  it('shares its timeline title, with the price, to the timeline, which shows no description', async () => {
    const { wx, share, answer } = setUp()
    share.show(A, { ...info('Lot 1', A), timelineTitle: 'Lot 1 · 当前价 ¥1,240.00' })
    await answer(A)
    wx.verify()
    expect(wx.calls.slice(1)).toEqual([
      { kind: 'appMessage', title: 'Lot 1', link: A },
      { kind: 'timeline', title: 'Lot 1 · 当前价 ¥1,240.00' },
    ])
  })

  it('configs with the signature for the page URL and shares its info once verified', async () => {
    const { wx, share, asked, answer } = setUp()
    share.show(A, info('Lot 1', A))
    await answer(A)
    expect(asked).toEqual([A])
    expect(wx.calls).toEqual([{ kind: 'config', signature: signatureFor(A).signature }])
    wx.verify()
    expect(wx.calls.slice(1)).toEqual([
      { kind: 'appMessage', title: 'Lot 1', link: A },
      { kind: 'timeline', title: 'Lot 1' },
    ])
  })

  it('configs again after a route change, and updates the share data when the info changes', async () => {
    const { wx, share, asked, answer } = setUp()
    share.show(A, info('Shop', 'https://shop.example/'))
    await answer(A)
    wx.verify()
    share.show(A, info('Lot 1', A))
    expect(wx.calls.at(-2)).toEqual({ kind: 'appMessage', title: 'Lot 1', link: A })

    share.show(B, info('Lot 22', B))
    await answer(B)
    expect(asked).toEqual([A, B])
    expect(wx.calls.at(-1)).toEqual({ kind: 'config', signature: signatureFor(B).signature })
    wx.verify()
    expect(wx.calls.at(-2)).toEqual({ kind: 'appMessage', title: 'Lot 22', link: B })
  })

  it('drops a late signature for a page already left: the newer URL wins', async () => {
    const { wx, share, answer } = setUp()
    share.show(A, info('Lot 1', A))
    share.show(B, info('Lot 22', B))
    await answer(B)
    await answer(A)
    expect(wx.calls.filter((c) => c.kind === 'config')).toEqual([
      { kind: 'config', signature: signatureFor(B).signature },
    ])
    wx.verify()
    expect(wx.calls.filter((c) => c.kind === 'appMessage')).toEqual([
      { kind: 'appMessage', title: 'Lot 22', link: B },
    ])
  })

  it('says so once when the signature call fails, and not for a page already left', async () => {
    const { share, failures, pending } = setUp()
    share.show(A, info('Lot 1', A))
    share.show(B, info('Lot 22', B))
    pending.get(A)?.reject(new Error('late failure'))
    await settle()
    expect(failures).toEqual([])
    pending.get(B)?.reject(new Error('boom'))
    await settle()
    share.show(B, info('Lot 22 (loaded)', B))
    expect(failures).toHaveLength(1)
  })

  it('says so when the platform refuses the config', async () => {
    const { wx, share, failures, answer } = setUp()
    share.show(A, info('Lot 1', A))
    await answer(A)
    wx.refuse()
    expect(failures).toHaveLength(1)
    expect(wx.calls.some((c) => c.kind === 'appMessage')).toBe(false)
  })
})
