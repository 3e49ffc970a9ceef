import { useEffect, useState } from 'react'
import { BrowserRouter } from 'react-router'
import { readSession } from '../lib/cookies'
import { currentEnvironment } from '../lib/environment'
import { afterFirstInput } from '../lib/idle-work'
import { Providers } from './providers'
import { AppRoutes, prefetchPages } from './router'

export function ShopApp() {
  const [debugTools] = useState(() => currentEnvironment().debugTools)
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
