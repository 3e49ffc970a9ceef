import type { ReactNode } from 'react'
import { renderToString } from 'react-dom/server'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { ConfigProvider } from 'antd-mobile'
import zhCN from 'antd-mobile/es/locales/zh-CN'
import { StaticRouter } from 'react-router'
import type { ClientConfig } from '@numisma/contracts/client-config'
import { osInfoHeader } from '@numisma/contracts/signing'
import { ProductDetailRoute } from './product-detail-route'
import { ROUTES } from './routes'
import { PageMetaContext } from '../components/page-meta-context'
import { SpecialDetailPage } from '../features/auction/pages/special-detail-page'
import { HomePage } from '../features/home/pages/home-page'
import { createApiClient, REQUEST_TIMEOUT_MS, renderingWith } from '../lib/api-client'
import { setClientConfig } from '../lib/config'
import { memoryCookies } from '../lib/cookies'
import { createTranslation, TranslationContext } from '../lib/i18n'
import { DEFAULT_LANGUAGE } from '../lib/language'
import { zhCN as texts } from '../lib/locales/zh-cn'

const PAGES: Record<string, () => ReactNode> = {
  '/': () => <HomePage />,
  '/specialDetail': () => <SpecialDetailPage />,
  '/productDetail': () => <ProductDetailRoute />,
}

/**
 * Chinese only: a reader who chose English gets the page the client renders (web-app.ts). Given
 * to the render by context, not set in module state, so no request's language reaches another's.
 */
const translation = createTranslation(DEFAULT_LANGUAGE, texts)

export interface FirstScreenInput {
  /** The page's path and query, as the browser asked for it. */
  url: string
  config: ClientConfig
  /** The answers inlined into the same page, keyed by the URL the client would fetch. */
  bodies: Record<string, unknown>
  now: number
}

/**
 * The first screen of a landing page as HTML for #root (issue 13, ADR 026 §9), rendered by the
 * app's own page components from the answers inlined into the same page; undefined for any other
 * path. The browser paints it before any script arrives; the app's first render then replaces it.
 * The markup around the page is the keep-alive cache's (app-layout.tsx), so it lays out alike.
 */
export function renderFirstScreen(input: FirstScreenInput): string | undefined {
  const { pathname, search } = new URL(input.url, 'http://x')
  const page = PAGES[pathname]
  const meta = ROUTES.find((route) => route.path === pathname)
  if (!page || !meta) return undefined
  setClientConfig(input.config)
  const api = createApiClient({
    fetch: () => Promise.reject(new Error('no network while rendering on the server')),
    cookies: memoryCookies(),
    config: () => input.config,
    language: () => DEFAULT_LANGUAGE,
    isOnline: () => true,
    alert: () => undefined,
    toast: () => undefined,
    now: () => input.now,
    osInfo: osInfoHeader(),
    timeoutMs: REQUEST_TIMEOUT_MS,
    firstScreen: { ...input.bodies },
  })
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const cacheKey = pathname + search
  return renderingWith(api, () =>
    renderToString(
      <QueryClientProvider client={queryClient}>
        <ConfigProvider locale={zhCN}>
          <StaticRouter location={cacheKey}>
            <div className="keep-alive-render" style={{ height: '100%' }}>
              <div
                className="keepalive-cache-div cache-component active"
                data-cache-key={cacheKey}
                style={{ height: '100%' }}
              >
                <TranslationContext value={translation}>
                  <PageMetaContext value={meta}>{page()}</PageMetaContext>
                </TranslationContext>
              </div>
            </div>
          </StaticRouter>
        </ConfigProvider>
      </QueryClientProvider>,
    ),
  )
}
