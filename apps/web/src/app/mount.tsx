import { startTransition, type ReactNode } from 'react'
import { createRoot } from 'react-dom/client'
import {
  nextTask,
  RELEASE_AFTER_MS,
  releaseFirstScreen,
  reloadApp,
  appStarted,
} from '../lib/first-screen-paint'
import { startUp } from '../lib/start-up'
import './global.css'

/**
 * Runs start-up — with `page`, the first page's chunk loading alongside — then renders the app (or
 * the retry screen) into #root. A page chunk that cannot be had is the app's to report: the page
 * is loaded again, once, as for the app's own scripts; else its route shows the error.
 */
export async function mount(app: ReactNode, page?: Promise<unknown>): Promise<void> {
  const [ok, pageLoaded] = await Promise.all([
    // In a task of its own, after the one that asked for the page's chunk (issue 13).
    nextTask().then(startUp),
    page?.then(
      () => true,
      () => false,
    ),
  ])
  if (pageLoaded === false && reloadApp()) return
  // The page's chunk was evaluated in its own task; the first render starts in the next one.
  await nextTask()
  const container = document.getElementById('root')
  if (!container) throw new Error('#root is missing')
  // No StrictMode: keepalive-for-react does not work under it (see its README).
  if (ok) {
    // A transition renders in slices that yield to the browser, so the first render of a page is
    // no single long task on a slow phone (issue 13: total blocking time).
    const root = createRoot(container)
    startTransition(() => root.render(app))
    appStarted()
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
