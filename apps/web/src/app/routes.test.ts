import { describe, expect, it } from 'vitest'
import { keepAlivePatterns, matchRoute, ROUTES, titleFor, visibleRoutes } from './routes'

describe('ROUTES', () => {
  it('has every route of spec §2 once, and /account/withdraw, /notices and /chat', () => {
    expect(ROUTES).toHaveLength(38)
    expect(new Set(ROUTES.map((r) => r.path)).size).toBe(38)
  })

  it('carries the spec flags', () => {
    const byPath = (p: string) => ROUTES.find((r) => r.path === p)
    expect(byPath('/ucenter')).toMatchObject({ auth: true, keepAlive: true })
    expect(byPath('/account/applySuc')).toMatchObject({ auth: false, keepAlive: false })
    expect(byPath('/order/applySend')).toMatchObject({ auth: true, keepAlive: true })
    expect(byPath('/rules')?.title.zh).toBe('竞买须知')
    expect(byPath('/account/withdraw')).toMatchObject({
      auth: true,
      keepAlive: false,
      title: { zh: '提现', en: 'Withdraw' },
    })
    expect(byPath('/notices')).toMatchObject({
      auth: true,
      keepAlive: false,
      title: { zh: '消息通知', en: 'Notices' },
    })
    expect(byPath('/chat')).toMatchObject({
      auth: true,
      keepAlive: false,
      title: { zh: '在线客服', en: 'Customer service' },
    })
    // The OAuth callback must not need sign-in: it is where signing in happens.
    expect(byPath('/wx/callback')).toMatchObject({
      auth: false,
      title: { zh: '微信登录', en: 'Messaging-app sign-in' },
    })
  })

  it('titles /productDetail by what it shows: a lot, or a mall item (?productNo=)', () => {
    const detail = ROUTES.find((r) => r.path === '/productDetail')!
    expect(titleFor(detail, '?id=12').zh).toBe('拍品详情')
    expect(titleFor(detail, '?productNo=M100001').zh).toBe('商品详情')
    expect(titleFor(detail, 'productNo=M100001').en).toBe('Item detail')
  })

  it('hides /task outside debug environments', () => {
    expect(visibleRoutes(false).some((r) => r.path === '/task')).toBe(false)
    expect(matchRoute('/task', false).path).toBe('*')
    expect(matchRoute('/task', true).path).toBe('/task')
  })

  it('matches like the router', () => {
    expect(matchRoute('/ucenter/', true).path).toBe('/ucenter')
    expect(matchRoute('/UCENTER', true).path).toBe('/ucenter')
    expect(matchRoute('/nope', true).path).toBe('*')
    // What react-router also shows the page for: the guard and title must be that page's.
    expect(matchRoute('/ucenter//', false).path).toBe('/ucenter')
    expect(matchRoute('/myBuy//', false).path).toBe('/myBuy')
    expect(matchRoute('/my%42uy', false).path).toBe('/myBuy')
    expect(matchRoute('/address/list/', false).path).toBe('/address/list')
  })

  it('remembers its answers per environment, and many made-up paths change none', () => {
    expect(matchRoute('/task', true).path).toBe('/task')
    expect(matchRoute('/task', false).path).toBe('*')
    for (let i = 0; i < 450; i++) expect(matchRoute(`/made-up/${i}`, i % 2 === 0).path).toBe('*')
    expect(matchRoute('/task', true).path).toBe('/task')
    expect(matchRoute('/task', false).path).toBe('*')
    expect(matchRoute('/myBuy//', false)).toBe(matchRoute('/mybuy', false))
  })

  it('builds keep-alive cache key patterns', () => {
    const patterns = keepAlivePatterns(ROUTES)
    const kept = (key: string) => patterns.some((p) => p.test(key))
    expect(kept('/')).toBe(true)
    expect(kept('/?a=1')).toBe(true)
    expect(kept('/myOrder?tab=pay')).toBe(true)
    expect(kept('/order/cashpay/list')).toBe(true)
    expect(kept('/order/cashpay')).toBe(false)
    expect(kept('/rules')).toBe(false)
  })
})
