import { lazy, use, type ComponentType, type LazyExoticComponent } from 'react'
import { Route, Routes, useLocation, type Location } from 'react-router'
import { PageMetaContext } from '../components/page-meta-context'
import { AppLayout } from './app-layout'
import { RouteErrorBoundary } from './route-error'
import { nextTask } from '../lib/first-screen-paint'
import { whenIdle } from '../lib/idle-work'
import { matchRoute, ROUTES, visibleRoutes, type RouteMeta } from './routes'

type Page = ComponentType | LazyExoticComponent<ComponentType>

const loaders = new Map<Page, () => Promise<unknown>>()

/**
 * Each page is its own chunk: the home route loads only what it shows. One promise per page,
 * shared by its lazy component and by what loads it ahead (loadPage, prefetchPages): a page loaded
 * ahead is then ready at its first render, where a second import() of the same module would still
 * take a task per level of its imports, and React would commit the fallback meanwhile (ADR 026 §9).
 * A failed load is forgotten, so that the next visit tries again: React's lazy() would keep the
 * failure for good, and the page would show its error until the whole app was reloaded. The load
 * a visit's renders wait on stays failed for that visit (its location, PageLocation's pinned one),
 * or React would render the page again at once, and load again, for as long as the loads failed.
 */
function page<M>(load: () => Promise<M>, name: keyof M): Page {
  let loaded: ComponentType | undefined
  let loading: Promise<ComponentType> | undefined
  let rendering: { promise: Promise<ComponentType>; visit: Location; failed: boolean } | undefined
  const ready = () =>
    (loading ??= load().then(
      (module) => (loaded = module[name] as ComponentType),
      (error: unknown) => {
        loading = undefined
        throw error
      },
    ))
  /** The load a visit's renders wait on: the same promise for all of them; a new visit's after a failure. */
  const forRender = (visit: Location): Promise<ComponentType> => {
    if (!rendering || (rendering.failed && rendering.visit !== visit)) {
      const attempt = { promise: ready(), visit, failed: false }
      attempt.promise.catch(() => (attempt.failed = true))
      rendering = attempt
    }
    return rendering.promise
  }
  function Page() {
    const visit = useLocation()
    const Component = loaded ?? use(forRender(visit))
    // eslint-disable-next-line react-hooks/static-components -- not created here: the module's own page component, the same on every render
    return <Component />
  }
  loaders.set(Page, ready)
  return Page
}

/**
 * Fetches the page chunks a visitor may open next, so moving between pages later works on a flaky
 * or lost connection (the data call then shows spec §5's offline alert, not a broken page). An
 * anonymous visitor gets the public pages only: the signed-in ones wait for a sign-in. One page at
 * a time, each in an idle moment: every chunk is evaluated as it arrives, and forty of them at once
 * held a slow phone's main thread for seconds just as the reader began to use the page (issue 13).
 */
export function prefetchPages(signedIn: boolean): () => void {
  const queue = ROUTES.filter((meta) => !meta.debugOnly && (signedIn || !meta.auth))
    .map((meta) => PAGES[meta.path])
    .map((Page) => (Page ? loaders.get(Page) : undefined))
    .filter((load) => load !== undefined)
  let stopped = false
  const next = (): void => {
    const load = queue.shift()
    if (stopped || !load) return
    load()
      .catch(() => undefined)
      .finally(() => whenIdle(next))
  }
  whenIdle(next)
  return () => {
    stopped = true
  }
}

const TaskPage = lazy(async () => {
  const { TaskPage: Task } = await import('../features/debug/pages/task-page')
  return { default: () => <Task routes={ROUTES} /> }
})

/** The page of every route of spec §2 (titles and flags are in routes.ts). */
const PAGES: Record<string, Page> = {
  '/': page(() => import('../features/home/pages/home-page'), 'HomePage'),
  '/category': page(() => import('../features/category/pages/category-page'), 'CategoryPage'),
  '/specialDetail': page(
    () => import('../features/auction/pages/special-detail-page'),
    'SpecialDetailPage',
  ),
  '/productDetail': page(() => import('./product-detail-route'), 'ProductDetailRoute'),
  '/productHistory': page(
    () => import('../features/auction/pages/product-history-page'),
    'ProductHistoryPage',
  ),
  '/rules': page(() => import('../features/auction/pages/rules-page'), 'RulesPage'),
  '/ucenter': page(() => import('../features/account/pages/ucenter-page'), 'UcenterPage'),
  '/myBuy': page(() => import('../features/auction/pages/my-buy-page'), 'MyBuyPage'),
  '/myLike': page(() => import('../features/auction/pages/my-like-page'), 'MyLikePage'),
  '/myEntrust': page(() => import('../features/auction/pages/my-entrust-page'), 'MyEntrustPage'),
  '/myOrder': page(() => import('../features/order/pages/my-order-page'), 'MyOrderPage'),
  '/myCoupon': page(() => import('../features/account/pages/my-coupon-page'), 'MyCouponPage'),
  '/categoryDetail': page(
    () => import('../features/category/pages/category-detail-page'),
    'CategoryDetailPage',
  ),
  '/orderHistory': page(
    () => import('../features/mall/pages/order-history-page'),
    'OrderHistoryPage',
  ),
  '/address/list': page(
    () => import('../features/address/pages/address-list-page'),
    'AddressListPage',
  ),
  '/address/edit': page(
    () => import('../features/address/pages/address-edit-page'),
    'AddressEditPage',
  ),
  '/order/list': page(() => import('../features/order/pages/order-list-page'), 'OrderListPage'),
  '/order/cashpay': page(() => import('../features/order/pages/cashpay-page'), 'CashpayPage'),
  '/order/cashpay/list': page(
    () => import('../features/order/pages/cashpay-list-page'),
    'CashpayListPage',
  ),
  '/order/selfSend': page(() => import('../features/order/pages/self-send-page'), 'SelfSendPage'),
  '/order/applySelf': page(
    () => import('../features/order/pages/apply-self-page'),
    'ApplySelfPage',
  ),
  '/order/selfSend/list': page(
    () => import('../features/order/pages/self-send-list-page'),
    'SelfSendListPage',
  ),
  '/order/applySend': page(
    () => import('../features/order/pages/apply-send-page'),
    'ApplySendPage',
  ),
  '/order/confirm': page(
    () => import('../features/order/pages/order-confirm-page'),
    'OrderConfirmPage',
  ),
  '/account/pay': page(() => import('../features/account/pages/pay-page'), 'PayPage'),
  '/account/setPayPwd': page(
    () => import('../features/account/pages/set-pay-pwd-page'),
    'SetPayPwdPage',
  ),
  '/account/paySuc': page(() => import('../features/account/pages/pay-suc-page'), 'PaySucPage'),
  '/account/applySuc': page(() => import('../features/order/pages/apply-suc-page'), 'ApplySucPage'),
  '/account/bankAddress': page(
    () => import('../features/account/pages/bank-address-page'),
    'BankAddressPage',
  ),
  '/account/bankAddressDetail': page(
    () => import('../features/account/pages/bank-address-detail-page'),
    'BankAddressDetailPage',
  ),
  '/account/sendBankInfo': page(
    () => import('../features/account/pages/send-bank-info-page'),
    'SendBankInfoPage',
  ),
  '/account/quotaRecharge': page(
    () => import('../features/account/pages/quota-recharge-page'),
    'QuotaRechargePage',
  ),
  '/account/withdraw': page(
    () => import('../features/account/pages/withdraw-page'),
    'WithdrawPage',
  ),
  '/notices': page(() => import('../features/notices/pages/notices-page'), 'NoticesPage'),
  '/chat': page(() => import('../features/chat/pages/chat-page'), 'ChatPage'),
  '/wx/callback': page(
    () => import('../features/wx-auth/pages/wx-callback-page'),
    'WxCallbackPage',
  ),
  '/task': TaskPage,
  '*': page(() => import('./not-found-page'), 'NotFoundPage'),
}

function toRoute(meta: RouteMeta) {
  const Page = PAGES[meta.path]
  if (!Page) throw new Error(`no page for route ${meta.path}`)
  return (
    <Route
      key={meta.path}
      path={meta.path}
      element={
        <PageMetaContext value={meta}>
          <Page />
        </PageMetaContext>
      }
    />
  )
}

/**
 * The landing pages whose chunk imports the moving parts (components/gestures.ts: the photo and
 * banner swipers, react-spring and @use-gesture beneath them). At start-up that chunk is evaluated
 * in a task of its own before the page's: the two together were one task of about 24 ms here, a
 * long one on the phone Lighthouse models (issue 13). Their scripts are already being fetched,
 * listed by the server, so waiting for the one before asking for the other costs no round trip.
 */
const GESTURES_FIRST: ReadonlySet<string> = new Set(['/specialDetail', '/productDetail'])

/**
 * Loads the chunk of the page this path shows at start-up (the not-found page for an unknown one),
 * unless it is one for signed-in readers only and there is no session: that visit goes to sign in.
 */
export function loadPage(pathname: string, signedIn: boolean): Promise<unknown> {
  const meta = matchRoute(pathname, false)
  const Page = PAGES[meta.path]
  const load = Page && loaders.get(Page)
  if (!load || (meta.auth && !signedIn)) return Promise.resolve()
  if (!GESTURES_FIRST.has(meta.path)) return load()
  return import('../components/gestures').then(nextTask).then(load)
}

/**
 * Every route of spec §2 inside the shell (react-router's declarative mode: the app loads no data
 * through the router, and the data router's code was 16 KB of the first load, issue 13).
 */
export function AppRoutes({ debugTools }: { debugTools: boolean }) {
  return (
    <Routes>
      <Route
        element={
          <RouteErrorBoundary>
            <AppLayout debugTools={debugTools} />
          </RouteErrorBoundary>
        }
      >
        {visibleRoutes(debugTools).map(toRoute)}
      </Route>
    </Routes>
  )
}
