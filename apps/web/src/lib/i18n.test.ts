import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  changeLanguage,
  createTranslation,
  createTranslator,
  currentTranslation,
  subscribeTranslation,
  TranslationContext,
  useTranslation,
} from './i18n'
import { en } from './locales/en'
import { zhCN, type Messages } from './locales/zh-cn'

const zh = createTranslator(zhCN)
const english = createTranslator(en)

describe('createTranslator', () => {
  it("looks a dot-path key up in the language's texts, at any depth", () => {
    expect(zh('tabs.home')).toBe('首页')
    expect(english('tabs.home')).toBe('Home')
    expect(zh('notices.kind.outbid.title')).toBe(zhCN.notices.kind.outbid.title)
    expect(english('notices.kind.outbid.title')).toBe(en.notices.kind.outbid.title)
    expect(english('notices.kind.outbid.title')).not.toBe(zh('notices.kind.outbid.title'))
  })

  it('fills every {{name}} from the values, numbers too, spaces inside the braces allowed', () => {
    expect(zh('bank.noteOrders', { ids: 'A1、B2' })).toBe('订单号 A1、B2')
    const t = createTranslator({
      ...zhCN,
      home: { ...zhCN.home, search: '{{n}} of {{ total }}, {{n}} again' },
    })
    expect(t('home.search', { n: 3, total: 10 })).toBe('3 of 10, 3 again')
  })

  it('leaves a placeholder without a value as written, and fills null or undefined as empty', () => {
    expect(zh('bank.noteOrders')).toBe('订单号 {{ids}}')
    expect(zh('bank.noteOrders', { other: 'x' })).toBe('订单号 {{ids}}')
    expect(zh('bank.noteOrders', { ids: undefined })).toBe('订单号 ')
    expect(zh('bank.noteOrders', { ids: null })).toBe('订单号 ')
  })

  it('puts a value in as it is: neither searched for placeholders nor read as a replacement pattern', () => {
    expect(zh('bank.noteOrders', { ids: "{{ids}} $& $' $$" })).toBe("订单号 {{ids}} $& $' $$")
  })

  it('falls back to zh-CN for a key the language lacks, then to the key itself', () => {
    const partial = { ...en, tabs: { home: 'Home' } } as unknown as Messages
    const t = createTranslator(partial)
    expect(t('tabs.home')).toBe('Home')
    expect(t('tabs.ucenter')).toBe('我的')
    const missing = 'tabs.nowhere' as 'tabs.home'
    expect(t(missing)).toBe('tabs.nowhere')
    expect(zh(missing)).toBe('tabs.nowhere')
    // A path through a text, not an object, is missing too.
    expect(zh('tabs.home.deeper' as 'tabs.home')).toBe('tabs.home.deeper')
  })

  it('returns arrays and objects, their texts filled in', () => {
    expect(zh('rules.items', { returnObjects: true })).toEqual(zhCN.rules.items)
    expect(english('payPassword.tips', { returnObjects: true })).toEqual(en.payPassword.tips)
    expect(english('brand')).toEqual(en.brand)
    const steps = zh('bank.how', { returnObjects: true, note: '订单号 7', orders: '（并付款）' })
    expect(steps).toHaveLength(zhCN.bank.how.length)
    expect(steps[1]).toBe('在转账附言（备注、用途）中填写：订单号 7，便于工作人员核对。')
    expect(steps[3]).toContain('款项计入您的账户余额（并付款）；')
    // The texts themselves are left as they were.
    expect(zhCN.bank.how[1]).toContain('{{note}}')
  })
})

describe('the current translation', () => {
  let cookie = ''
  beforeEach(() => {
    cookie = ''
    vi.stubGlobal('document', {
      documentElement: { lang: '' },
      get cookie() {
        return cookie
      },
      set cookie(value: string) {
        cookie = value
      },
    })
  })
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  const nextChange = () =>
    new Promise<void>((resolve) => {
      const stop = subscribeTranslation(() => {
        stop()
        resolve()
      })
    })

  it('is Chinese at first, switches to English once its texts are loaded, and back', async () => {
    expect(currentTranslation().i18n.language).toBe('zh-CN')
    expect(currentTranslation().t('tabs.home')).toBe('首页')

    const listener = vi.fn()
    const stop = subscribeTranslation(listener)
    const switched = nextChange()
    changeLanguage('en')
    // The choice is saved at once, before the English texts arrive.
    expect(cookie).toMatch(/^lang=en;/)
    expect(document.documentElement.lang).toBe('en')
    expect(listener).not.toHaveBeenCalled()
    await switched
    expect(listener).toHaveBeenCalledTimes(1)
    expect(currentTranslation().i18n.language).toBe('en')
    expect(currentTranslation().t('tabs.home')).toBe('Home')

    const back = nextChange()
    changeLanguage('zh-CN')
    await back
    expect(listener).toHaveBeenCalledTimes(2)
    expect(currentTranslation().t('tabs.home')).toBe('首页')
    stop()
  })

  it('shows the latest choice when an earlier one arrives after it', async () => {
    const listener = vi.fn()
    const stop = subscribeTranslation(listener)
    changeLanguage('en')
    changeLanguage('zh-CN')
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(currentTranslation().i18n.language).toBe('zh-CN')
    expect(listener).not.toHaveBeenCalled()
    expect(cookie).toMatch(/^lang=zh-CN;/)
    stop()
  })
})

describe('useTranslation', () => {
  const Tab = () => useTranslation().t('tabs.home')

  it("renders with the current translation, or with one given to the tree (the server's)", () => {
    expect(renderToString(createElement(Tab))).toBe('首页')
    const given = createElement(
      TranslationContext,
      { value: createTranslation('en', en) },
      createElement(Tab),
    )
    expect(renderToString(given)).toBe('Home')
  })
})
