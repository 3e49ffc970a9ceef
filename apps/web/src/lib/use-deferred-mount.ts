import { startTransition, useEffect, useState, type RefObject } from 'react'
import { whenSettled } from './when-settled'

/**
 * Whether a block below the fold may mount: as soon as it comes within `margin` of the viewport,
 * or once the first screen has settled, whichever comes first — so the first screen's load and
 * render carry none of its code, data or pictures (issue 13), and it is there before anyone
 * scrolls to it.
 */
export function useDeferredMount(ref: RefObject<Element | null>, margin = '400px'): boolean {
  const [mounted, setMounted] = useState(false)
  useEffect(() => {
    if (mounted) return
    // A transition: the block renders in slices that yield to the browser, not as one long task.
    const show = () => startTransition(() => setMounted(true))
    const cancel = whenSettled(show)
    const element = ref.current
    const observer =
      element && typeof IntersectionObserver === 'function'
        ? new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && show(), {
            rootMargin: margin,
          })
        : undefined
    if (element) observer?.observe(element)
    return () => {
      cancel()
      observer?.disconnect()
    }
  }, [mounted, ref, margin])
  return mounted
}
