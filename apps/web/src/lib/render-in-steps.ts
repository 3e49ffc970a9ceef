import { type RefObject, startTransition, useEffect, useState } from 'react'
import { useKeepAliveContext } from 'keepalive-for-react'
import { firstScreenScrolled } from './first-screen-paint'
import { scrollingAncestor } from './use-when-near'

/** Items a long list renders in its first commit, and in each commit after it. */
export const FIRST_STEP = 8
export const NEXT_STEP = 8
/**
 * How near a long list's end comes before its next items render: within half a screen below it.
 * A step's 8 lot cards are more than a screen high, so they are in place before the reader's
 * scrolling reaches them; a special's first 8, under its header, end further down than that on a
 * phone, so the page renders no more while it loads.
 */
export const NEAR_END_MARGIN = '0px 0px 50% 0px'

/**
 * How many items of a long list to render now: the first `first` in the page's own commit, then
 * `step` more, in a transition, whenever the list's end (`end`, an element right after it) comes
 * within half a screen below the screen ({@link NEAR_END_MARGIN}) — so they are there before the
 * reader scrolls to them, and none is rendered while the page loads (issue 13). A special's 40 lot cards committed
 * at once were one long task on a cheap phone; rendered 8 per task they were still four commits,
 * layouts and paints of cards below the fold, each blocking input, as the app started.
 *
 * The server's first screen has the first `first` too: it is the first screen, not the whole
 * page, and 32 cards more were 38 KB of a special's page to parse, lay out and paint, much of it
 * after the first paint. The whole list at once where it has to be: when the reader had scrolled
 * that first screen before the app took over, so that the app's page has the cards under the
 * scroll offset it carries over.
 */
export function useRenderedWhenNear(
  total: number,
  end: RefObject<Element | null>,
  first = FIRST_STEP,
  step = NEXT_STEP,
): number {
  const [shown, setShown] = useState(() =>
    firstCount(first, typeof document === 'undefined' ? undefined : firstScreenScrolled()),
  )
  // A kept-alive page away from the screen is out of the document: its scrolling box cannot be
  // found then, so the watch starts again when the page is back.
  const { active } = useKeepAliveContext()
  useEffect(() => {
    const element = end.current
    if (shown >= total || !element?.isConnected) return
    const more = () => startTransition(() => setShown((n) => n + step))
    if (typeof IntersectionObserver !== 'function') {
      more()
      return
    }
    // A new observer per step: its first report says whether the end is still near after the
    // items just added (one kept across steps would report only changes).
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return
        observer.disconnect()
        more()
      },
      { root: scrollingAncestor(element), rootMargin: NEAR_END_MARGIN },
    )
    observer.observe(element)
    return () => observer.disconnect()
  }, [shown, total, step, end, active])
  return Math.min(shown, total)
}

/**
 * The first commit's count: everything under a scrolled first screen, otherwise `first` (also on
 * the server, where there is no document: `scrolled` undefined).
 */
export function firstCount(first: number, scrolled: number | undefined): number {
  return scrolled !== undefined && scrolled > 0 ? Number.POSITIVE_INFINITY : first
}
