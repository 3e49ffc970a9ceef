import { useEffect, useState } from 'react'
import { RouterProvider } from 'react-router'
import { readSession } from '../lib/cookies'
import { currentEnvironment } from '../lib/environment'
import { whenSettled } from '../lib/when-settled'
import { Providers } from './providers'
import { createAppRouter, prefetchPages } from './router'

export function ShopApp() {
  const [router] = useState(() => createAppRouter(currentEnvironment().debugTools))
  useEffect(() => whenSettled(() => prefetchPages(readSession() !== null)), [])
  return (
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  )
}

