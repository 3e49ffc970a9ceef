import { useEffect, useState } from 'react'
import { RouterProvider } from 'react-router'
import { readSession } from '../lib/cookies'
import { currentEnvironment } from '../lib/environment'
import { afterFirstInput } from '../lib/idle-work'
import { Providers } from './providers'
import { createAppRouter, prefetchPages } from './router'

export function ShopApp() {
  const [router] = useState(() => createAppRouter(currentEnvironment().debugTools))
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
      <RouterProvider router={router} />
    </Providers>
  )
}
