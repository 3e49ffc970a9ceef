import type { ShareInfo } from '@numisma/contracts/share'
import { WX_JS_API_LIST, type ShareSignature } from '@numisma/contracts/wechat'
import { inBackground } from '../background'

/** The part of the platform's JS-SDK (jweixin 1.6, `weixin-js-sdk`) that sharing uses. */
export interface WxSdk {
  config(options: {
    debug: boolean
    appId: string
    timestamp: number
    nonceStr: string
    signature: string
    jsApiList: (typeof WX_JS_API_LIST)[number][]
  }): void
  ready(callback: () => void): void
  error(callback: (result: { errMsg: string }) => void): void
  updateAppMessageShareData(data: {
    title: string
    desc: string
    link: string
    imgUrl: string
  }): void
  updateTimelineShareData(data: { title: string; link: string; imgUrl: string }): void
}

export interface WxShareDeps {
  loadSdk(): Promise<WxSdk>
  /** Our server's signature for this page URL (without hash). */
  signature(url: string): Promise<ShareSignature>
  /** Sharing could not be set up for the page on screen (spec §8 'failed to initialise sharing'). */
  failed(error: unknown): void
}

export interface WxShare {
  /**
   * The page on screen and what it shares. A new URL configures the SDK again (the platform
   * checks the signature against the URL the page has now, so a single-page app must config after
   * every route change); the same URL with new info only updates the share data.
   */
  show(url: string, info: ShareInfo): void
}

/**
 * Keeps the messaging app's share menu in step with the page. Each URL gets a generation; a
 * signature or `ready` that arrives for an older generation is dropped, so a slow answer for the
 * page the collector already left can neither config the SDK for the wrong URL nor share the wrong
 * item.
 */
export function createWxShare(deps: WxShareDeps): WxShare {
  let generation = 0
  let page: { url: string; info: ShareInfo; generation: number; ready: boolean } | null = null
  let failedGeneration = -1
  let sdk: Promise<WxSdk> | null = null
  let loaded: WxSdk | null = null

  const fail = (gen: number, error: unknown) => {
    if (gen !== page?.generation || failedGeneration === gen) return
    failedGeneration = gen
    deps.failed(error)
  }

  const apply = (wx: WxSdk, info: ShareInfo) => {
    wx.updateAppMessageShareData({ ...info })
    wx.updateTimelineShareData({
      title: info.timelineTitle ?? info.title,
      link: info.link,
      imgUrl: info.imgUrl,
    })
  }

  const loadSdk = (): Promise<WxSdk> => {
    sdk ??= deps.loadSdk().then((wx) => {
      // One error handler for the SDK's life (the SDK keeps only the last one): a refused config
      // fails the page the latest config was for.
      wx.error((result) => {
        if (page) fail(page.generation, new Error(result.errMsg))
      })
      loaded = wx
      return wx
    })
    return sdk
  }

  const configure = async (gen: number, url: string) => {
    let wx: WxSdk
    let signature: ShareSignature
    try {
      ;[wx, signature] = await Promise.all([loadSdk(), deps.signature(url)])
    } catch (error) {
      fail(gen, error)
      return
    }
    if (gen !== page?.generation) return
    wx.config({
      debug: false,
      appId: signature.appid,
      timestamp: signature.timestamp,
      nonceStr: signature.nonceStr,
      signature: signature.signature,
      jsApiList: [...WX_JS_API_LIST],
    })
    wx.ready(() => {
      if (gen !== page?.generation) return
      page.ready = true
      apply(wx, page.info)
    })
  }

  return {
    show(url, info) {
      if (page && page.url === url) {
        if (page.info === info) return
        page.info = info
        if (page.ready && loaded) apply(loaded, info)
        return
      }
      generation += 1
      page = { url, info, generation, ready: false }
      inBackground(configure(generation, url))
    },
  }
}
