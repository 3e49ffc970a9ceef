import { startTransition, useEffect, useState } from 'react'
import { FIRST_SCREEN_ID } from './first-screen-paint'

/** Items a long list renders in its first commit, and in each commit after it. */
export const FIRST_STEP = 8
export const NEXT_STEP = 8

/**
 * How many items of a long list to render now: the first `first` in the page's own commit, then
 * `step` more per task, each in a transition (issue 13). A special's 40 lot cards committed at once
 * were one long task on a cheap phone — the special page's blocking time; in steps, the first
 * screen is in the first commit and no task blocks input for long.
 *
 * The whole list at once where it has to be: in the server's rendering of the first screen (no
 * effects run there), and when the reader had scrolled that first screen before the app took over,
 * so that the app's page has the cards under the scroll offset it carries over.
 */
export function useRenderedInSteps(total: number, first = FIRST_STEP, step = NEXT_STEP): number {
  const [shown, setShown] = useState(() =>
    firstCount(first, typeof document === 'undefined' ? undefined : firstScreenScroll(document)),
  )
  useEffect(() => {
    if (shown >= total) return
    const timer = setTimeout(() => startTransition(() => setShown((n) => n + step)), 0)
    return () => clearTimeout(timer)
  }, [shown, total, step])
  return Math.min(shown, total)
}

/**
 * The first commit's count: everything without a document (the server) or under a scrolled first
 * screen, otherwise `first`.
 */
export function firstCount(first: number, scrolled: number | undefined): number {
  return scrolled === undefined || scrolled > 0 ? Number.POSITIVE_INFINITY : first
}

/** How far the reader scrolled the server's first screen; 0 when there is none (any more). */
function firstScreenScroll(doc: Document): number {
  const body = doc.getElementById(FIRST_SCREEN_ID)?.querySelector('[data-testid=page-body]')
  return body?.scrollTop ?? 0
}
