import { useEffect, useEffectEvent, type RefObject } from 'react'

/**
 * Calls `onNear` once a block below the fold may mount: when its placeholder (`ref`) comes within
 * `margin` of the viewport, so the first screen's load and render carry none of its code, data or
 * pictures (issue 13), and it is there before the reader scrolls to it. Watches while `watching`
 * (until the caller has mounted the block). The caller renders the block in a transition, in
 * slices that yield to the browser rather than as one long task.
 */
export function useWhenNear(
  ref: RefObject<Element | null>,
  onNear: () => void,
  watching = true,
  margin = '200px',
): void {
  const near = useEffectEvent(onNear)
  useEffect(() => {
    const element = ref.current
    if (!watching || !element) return
    if (typeof IntersectionObserver !== 'function') {
      near()
      return
    }
    // Pages scroll inside their own body (PageFrame), not the window: the margin must widen
    // that box, or the block would only mount once already on screen.
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) near()
      },
      { root: scrollingAncestor(element), rootMargin: margin },
    )
    observer.observe(element)
    return () => observer.disconnect()
  }, [watching, ref, margin])
}

/** The nearest ancestor that scrolls vertically, or null for the viewport. */
export function scrollingAncestor(element: Element): Element | null {
  for (let node = element.parentElement; node; node = node.parentElement) {
    const overflow = getComputedStyle(node).overflowY
    if (overflow === 'auto' || overflow === 'scroll') return node
  }
  return null
}
