import { useEffect, useState } from 'react'
import { BrowserRouter } from 'react-router'
import { prepareSigning } from '../lib/api-client'
import { readSession } from '../lib/cookies'
import { currentEnvironment } from '../lib/environment'
import { afterFirstInput } from '../lib/idle-work'
import { Providers } from './providers'
import { AppRoutes, prefetchPages } from './router'

export function ShopApp() {
  const [debugTools] = useState(() => currentEnvironment().debugTools)
  // The first render's data came with the page; the calls after it need the signer's code.
  useEffect(prepareSigning, [])
  useEffect(() => {
    let stopPrefetch: (() => void) | undefined
    const cancel = afterFirstInput(() => {
      stopPrefetch = prefetchPages(readSession() !== null)
    })
    return () => {
      cancel()
      stopPrefetch?.()
    }
  }, [])
  return (
    <Providers>
      <BrowserRouter>
        <AppRoutes debugTools={debugTools} />
      </BrowserRouter>
    </Providers>
  )
}
