import { lazy, Suspense, useEffect, useState } from 'react'
import { KeepAlive } from 'keepalive-for-react'
import { useTranslation } from '../lib/i18n'
import { useLocation, useOutlet } from 'react-router'
import { PageLoading } from '../components/page-loading'
import { inBackground } from '../lib/background'
import { browserCookies, readSession } from '../lib/cookies'
import { guardFromCookies } from '../lib/guard'
import { currentInAppEnvironment } from '../lib/in-app/environment'
import { requestSignIn } from '../lib/in-app/sign-in'
import { PageLocation } from './page-location'
import { keepAlivePatterns, matchRoute, ROUTES, titleFor } from './routes'

/** Signed-in users only; its own chunk so an anonymous first load does not carry push. */
const OutbidNotifier = lazy(async () => ({
  default: (await import('../features/auction/components/outbid-notifier')).OutbidNotifier,
}))

/** Inside the messaging app only: its JS-SDK and share set-up stay out of every other first load. */
const MessagingShare = lazy(async () => ({
  default: (await import('../lib/share/messaging-share')).MessagingShare,
}))
const IN_MESSAGING_APP = currentInAppEnvironment() === 'messaging'

/** Shown only when a native sign-in did not happen: not part of any first load. */
const SignedOutPage = lazy(async () => ({
  default: (await import('./signed-out-page')).SignedOutPage,
}))

/** Non-production only (spec §2), so never part of the production first load. */
const DebugTools = lazy(async () => ({ default: (await import('./debug-tools')).DebugTools }))

const KEEP_ALIVE = keepAlivePatterns(ROUTES)
/** How many kept-alive pages (distinct path + query) are held at once. */
const KEEP_ALIVE_MAX = 12

/**
 * The shell around every route: the sign-in guard, the document title from route meta, and the
 * keep-alive cache (key = pathname + search) that preserves kept-alive pages.
 */
export function AppLayout({ debugTools }: { debugTools: boolean }) {
  const location = useLocation()
  const outlet = useOutlet()
  const { i18n } = useTranslation()
  const meta = matchRoute(location.pathname, debugTools)
  const cacheKey = location.pathname + location.search
  const decision = guardFromCookies(meta.auth, cacheKey + location.hash, browserCookies)
  const signInFor = decision.kind === 'sign-in' ? decision.wanted : null

  const title = titleFor(meta, location.search)
  useEffect(() => {
    document.title = i18n.language === 'en' ? title.en : title.zh
  }, [title, i18n.language])

  // Each visit and each 去登录 press is a new attempt; the attempt whose sign-in came back
  // without a user (native app only) shows the signed-out page until the next one.
  const [attempt, setAttempt] = useState(0)
  const attemptKey = signInFor === null ? null : `${location.key} ${attempt}`
  const [signedOutAt, setSignedOutAt] = useState<string | null>(null)
  useEffect(() => {
    if (signInFor === null || attemptKey === null) return
    let current = true
    // Replacing the guarded URL: the sign-in page is a separate app, the platform's OAuth a round
    // trip; in the native app the page stays and reloads on the app's login-status event, or
    // learns that the login screen was closed.
    inBackground(
      requestSignIn(signInFor, 'replace').then((outcome) => {
        if (current && (outcome === 'cancelled' || outcome === 'failed')) setSignedOutAt(attemptKey)
      }),
    )
    return () => {
      current = false
    }
  }, [signInFor, attemptKey])

  return (
    <>
      {signInFor !== null ? (
        signedOutAt === attemptKey ? (
          <Suspense fallback={<PageLoading />}>
            <SignedOutPage onSignIn={() => setAttempt((n) => n + 1)} />
          </Suspense>
        ) : (
          <PageLoading />
        )
      ) : (
        <KeepAlive activeCacheKey={cacheKey} include={KEEP_ALIVE} max={KEEP_ALIVE_MAX}>
          <Suspense fallback={<PageLoading />}>
            <PageLocation location={location}>{outlet}</PageLocation>
          </Suspense>
        </KeepAlive>
      )}
      {readSession() ? (
        <Suspense>
          <OutbidNotifier />
        </Suspense>
      ) : null}
      {IN_MESSAGING_APP ? (
        <Suspense>
          <MessagingShare />
        </Suspense>
      ) : null}
      {debugTools ? (
        <Suspense>
          <DebugTools />
        </Suspense>
      ) : null}
    </>
  )
}
