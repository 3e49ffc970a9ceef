import { startTransition, useEffect, useState, type RefObject } from 'react'

/**
 * Whether a block below the fold may mount: once it comes within `margin` of the viewport, so the
 * first screen's load and render carry none of its code, data or pictures (issue 13), and it is
 * there before the reader scrolls to it. Rendered in a transition, in slices that yield to the
 * browser rather than as one long task.
 */
export function useDeferredMount(ref: RefObject<Element | null>, margin = '200px'): boolean {
  const [mounted, setMounted] = useState(false)
  useEffect(() => {
    const element = ref.current
    if (mounted || !element) return
    if (typeof IntersectionObserver !== 'function') {
      startTransition(() => setMounted(true))
      return
    }
    // Pages scroll inside their own body (PageFrame), not the window: the margin must widen
    // that box, or the block would only mount once already on screen.
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) startTransition(() => setMounted(true))
      },
      { root: scrollingAncestor(element), rootMargin: margin },
    )
    observer.observe(element)
    return () => observer.disconnect()
  }, [mounted, ref, margin])
  return mounted
}

/** The nearest ancestor that scrolls vertically, or null for the viewport. */
function scrollingAncestor(element: Element): Element | null {
  for (let node = element.parentElement; node; node = node.parentElement) {
    const overflow = getComputedStyle(node).overflowY
    if (overflow === 'auto' || overflow === 'scroll') return node
  }
  return null
}
