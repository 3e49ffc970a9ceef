import { lazy, Suspense, useEffect } from 'react'
import { PassportPage } from '../features/passport/pages/passport-page'
import { prepareSigning } from '../lib/api-client'
import { currentEnvironment } from '../lib/environment'
import { Providers } from './providers'
import { matchRoute } from './routes'

const DebugTools = lazy(async () => ({ default: (await import('./debug-tools')).DebugTools }))

/** The sign-in app (spec §2 "a separate app"): one page, its own bundle, no router. */
export function PassportApp() {
  // Signing's code loads after the first render, before the first tap needs it.
  useEffect(prepareSigning, [])
  return (
    <Providers>
      {/* The back control goes home instead of to a page that needs a user (issue 11). */}
      <PassportPage needsSignIn={(pathname) => matchRoute(pathname, false).auth} />
      {currentEnvironment().debugTools ? (
        <Suspense>
          <DebugTools />
        </Suspense>
      ) : null}
    </Providers>
  )
}
