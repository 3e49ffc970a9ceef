import { useLayoutEffect, useRef } from 'react'

/** Near the bottom: a new message scrolls into view (further up, the reader is reading history). */
export const STICK_PX = 96

/**
 * The scrolling of a chat thread, the collector's page and the desk's pane alike: the newest
 * message stays in view while the reader is at the bottom, and an older page arriving above keeps
 * the message they were looking at where it was.
 */
export function useThreadScroll(oldestId: number | undefined, newestKey: string | undefined) {
  const scroller = useRef<HTMLDivElement>(null)
  const stick = useRef(true)
  const olderAnchor = useRef<{ height: number; top: number } | null>(null)

  useLayoutEffect(() => {
    const el = scroller.current
    const anchor = olderAnchor.current
    if (!el || !anchor) return
    el.scrollTop = el.scrollHeight - anchor.height + anchor.top
    olderAnchor.current = null
  }, [oldestId])

  const keepNewestInView = () => {
    const el = scroller.current
    if (el && stick.current) el.scrollTop = el.scrollHeight
  }
  useLayoutEffect(keepNewestInView, [newestKey])

  return {
    scroller,
    keepNewestInView,
    /** The reader sent something: follow the thread to the bottom again. */
    stickToBottom: () => (stick.current = true),
    /** Call on scroll: whether the reader is at the bottom. Returns the element. */
    onScroll: () => {
      const el = scroller.current
      if (el) stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX
      return el
    },
    /** Call just before fetching an older page, so that it lands above what is on screen. */
    anchorOlder: () => {
      const el = scroller.current
      if (el) olderAnchor.current = { height: el.scrollHeight, top: el.scrollTop }
    },
  }
}
