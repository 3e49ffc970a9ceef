import { useEffect, useState } from 'react'
import { RouterProvider } from 'react-router'
import { currentEnvironment } from '../lib/environment'
import { Providers } from './providers'
import { createAppRouter, prefetchPages } from './router'

export function ShopApp() {
  const [router] = useState(() => createAppRouter(currentEnvironment().debugTools))
  useEffect(() => {
    const timer = window.setTimeout(prefetchPages, 200)
    return () => window.clearTimeout(timer)
  }, [])
  return (
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  )
}
