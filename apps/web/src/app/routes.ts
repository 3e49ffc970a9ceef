/**
 * The route table of spec §2 as plain data (no components), so Node-side tests can enumerate every route
 * with its title and flags. `router.tsx` binds each path to its page component.
 */
import { matchRoutes, type RouteObject } from 'react-router'

export interface LocalizedText {
  zh: string
  en: string
}

export interface RouteMeta {
  path: string
  title: LocalizedText
  /** Sign-in and an accepted agreement are required (spec §2 guard). */
  auth: boolean
  /** Page state (and scroll) survives leaving and coming back (spec §2 "kept alive"). */
  keepAlive: boolean
  /** A tab root: no back arrow, the tab bar is shown. */
  tab: boolean
  /** Present only where the environment's debug tools are on (spec §2: /task). */
  debugOnly: boolean
  /** Another title when the URL carries this query parameter (one route, two kinds of page). */
  titleWith?: { param: string; title: LocalizedText }
}

/** The title a route shows for this query string. */
export function titleFor(meta: RouteMeta, search: string): LocalizedText {
  const variant = meta.titleWith
  return variant && new URLSearchParams(search).has(variant.param) ? variant.title : meta.title
}

type Flags = Partial<Pick<RouteMeta, 'auth' | 'keepAlive' | 'tab' | 'debugOnly'>>

function route(path: string, zh: string, en: string, flags: Flags = {}): RouteMeta {
  return {
    path,
    title: { zh, en },
    auth: flags.auth ?? false,
    keepAlive: flags.keepAlive ?? false,
    tab: flags.tab ?? false,
    debugOnly: flags.debugOnly ?? false,
  }
}

const AUTH = { auth: true } as const
const KEPT = { keepAlive: true } as const
const AUTH_KEPT = { auth: true, keepAlive: true } as const

export const ROUTES: readonly RouteMeta[] = [
  route('/', '首页', 'Home', { keepAlive: true, tab: true }),
  route('/category', '分类', 'Categories', { keepAlive: true, tab: true }),
  route('/specialDetail', '专场详情', 'Special detail', KEPT),
  {
    ...route('/productDetail', '拍品详情', 'Lot detail'),
    // ?productNo= is a mall item (app/product-detail-route.tsx), not a lot.
    titleWith: { param: 'productNo', title: { zh: '商品详情', en: 'Item detail' } },
  },
  route('/productHistory', '出价记录', 'Bid history'),
  route('/rules', '竞买须知', 'Bidding notice'),
  route('/ucenter', '个人中心', 'My account', { auth: true, keepAlive: true, tab: true }),
  route('/myBuy', '我的竞买', 'My bids', AUTH),
  route('/myLike', '我的关注', 'My watchlist', AUTH),
  route('/myEntrust', '我的委托', 'My proxy bids', AUTH_KEPT),
  route('/myOrder', '我的订单', 'My orders', AUTH_KEPT),
  route('/myCoupon', '优惠券', 'Coupons', AUTH),
  route('/categoryDetail', '分类详情', 'Category detail'),
  route('/orderHistory', '成交记录', 'Order history'),
  route('/address/list', '收货地址', 'Shipping addresses', AUTH),
  route('/address/edit', '编辑地址', 'Edit address', AUTH),
  route('/order/list', '订单列表', 'Order list', AUTH_KEPT),
  route('/order/cashpay', '柜台现金支付预约', 'Counter cash booking', AUTH),
  route('/order/cashpay/list', '预约列表', 'Bookings', AUTH_KEPT),
  route('/order/selfSend', '自提/邮寄', 'Self-pickup and shipping', AUTH_KEPT),
  route('/order/applySelf', '申请自提', 'Apply for self-pickup', AUTH),
  route('/order/selfSend/list', '提货记录', 'Pickup and shipping records', AUTH_KEPT),
  route('/order/applySend', '选择提货方式', 'Choose delivery', AUTH_KEPT),
  route('/order/confirm', '确认订单', 'Confirm order', AUTH),
  route('/account/pay', '支付方式', 'Payment method', AUTH),
  route('/account/setPayPwd', '设置支付密码', 'Set payment password', AUTH),
  route('/account/paySuc', '支付成功', 'Payment successful', AUTH),
  route('/account/applySuc', '预约成功', 'Appointment booked'),
  route('/account/bankAddress', '公司收款账户', 'Company bank accounts', AUTH),
  route('/account/bankAddressDetail', '账户详情', 'Account detail', AUTH),
  route('/account/sendBankInfo', '汇款通知', 'Remittance notice', AUTH),
  route('/account/quotaRecharge', '额度充值', 'Recharge quota', AUTH),
  // Not in spec §2: issue 9 asks for withdrawals, and the user centre's 提现 leads here.
  route('/account/withdraw', '提现', 'Withdraw', AUTH),
  // Not in spec §2: issue 9 asks the user centre for unread notices; its 消息通知 leads here.
  route('/notices', '消息通知', 'Notices', AUTH),
  // Not in spec §2: issue 11's chat; the item pages' 客服 and the user centre's 在线客服 lead here.
  route('/chat', '在线客服', 'Customer service', AUTH),
  // Spec §2: where the messaging platform's OAuth sends the user back (contracts/wechat).
  route('/wx/callback', '微信登录', 'Messaging-app sign-in'),
  route('/task', '测试任务', 'Test tasks', { debugOnly: true }),
  route('*', '页面不存在', 'Page not found'),
]

export const NOT_FOUND_ROUTE: RouteMeta = ROUTES.find((r) => r.path === '*') ?? route('*', '', '')

/** Routes present in an environment: /task only where debug tools are on. */
export function visibleRoutes(debugTools: boolean): RouteMeta[] {
  return ROUTES.filter((r) => debugTools || !r.debugOnly)
}

/** The route objects react-router matches, each with its meta as its handle, per environment. */
const MATCHABLE = new Map<boolean, RouteObject[]>()
/**
 * Pathnames matched before, per environment: `matchRoutes` flattens and ranks every route on each
 * call, a slow phone's milliseconds at start-up (issue 13), and the shell asks on every render.
 */
const MATCHED = new Map<boolean, Map<string, RouteMeta>>()
/** Pathnames remembered per environment; made-up ones beyond it start the memory afresh. */
const MATCHED_MAX = 200

/**
 * The route a pathname lands on, matched by react-router's own `matchRoutes` — as `<Routes>`
 * matches it: case-insensitive, percent-escapes decoded, trailing slashes ignored — so that the
 * shell's guard and title always belong to the page shown; unknown paths give the not-found route.
 */
export function matchRoute(pathname: string, debugTools: boolean): RouteMeta {
  let matched = MATCHED.get(debugTools)
  if (!matched) {
    matched = new Map()
    MATCHED.set(debugTools, matched)
  }
  let meta = matched.get(pathname)
  if (!meta) {
    meta = matchRouteAfresh(pathname, debugTools)
    if (matched.size >= MATCHED_MAX) matched.clear()
    matched.set(pathname, meta)
  }
  return meta
}

function matchRouteAfresh(pathname: string, debugTools: boolean): RouteMeta {
  let routes = MATCHABLE.get(debugTools)
  if (!routes) {
    routes = visibleRoutes(debugTools).map((meta) => ({ path: meta.path, handle: meta }))
    MATCHABLE.set(debugTools, routes)
  }
  const handle: unknown = matchRoutes(routes, pathname)?.at(-1)?.route.handle
  return (handle as RouteMeta | undefined) ?? NOT_FOUND_ROUTE
}

/** Cache keys (pathname + search) of kept-alive routes, for keepalive-for-react's `include`. */
export function keepAlivePatterns(routes: readonly RouteMeta[]): RegExp[] {
  return routes
    .filter((r) => r.keepAlive)
    .map((r) => new RegExp(`^${escapeRegExp(r.path)}/?(?:\\?|$)`, 'i'))
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
