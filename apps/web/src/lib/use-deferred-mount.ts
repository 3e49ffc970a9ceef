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
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) startTransition(() => setMounted(true))
      },
      { rootMargin: margin },
    )
    observer.observe(element)
    return () => observer.disconnect()
  }, [mounted, ref, margin])
  return mounted
}
