import { startTransition, type ReactNode } from 'react'
import { createRoot } from 'react-dom/client'
import { RELEASE_AFTER_MS, releaseFirstScreen } from '../lib/first-screen-paint'
import { startUp } from '../lib/start-up'
import './global.css'

/** Runs start-up, then renders the app (or the retry screen) into #root. */
export async function mount(app: ReactNode): Promise<void> {
  const ok = await startUp()
  const container = document.getElementById('root')
  if (!container) throw new Error('#root is missing')
  // No StrictMode: keepalive-for-react does not work under it (see its README).
  if (ok) {
    // A transition renders in slices that yield to the browser, so the first render of a page is
    // no single long task on a slow phone (issue 13: total blocking time).
    const root = createRoot(container)
    startTransition(() => root.render(app))
    // The first page takes the server's first screen away (PageFrame); one that never renders a
    // page frame must not leave the app covered.
    setTimeout(() => {
      if (releaseFirstScreen() !== undefined) console.warn('no page took over the first screen')
    }, RELEASE_AFTER_MS)
    return
  }
  releaseFirstScreen()
  const { StartFailed } = await import('./start-failed')
  createRoot(container).render(<StartFailed />)
}
