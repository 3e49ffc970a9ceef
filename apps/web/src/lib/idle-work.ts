const FIRST_INPUT = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const

/**
 * Runs `task` in an idle moment after the reader's first touch, key or wheel: deferred work that
 * serves later pages (prefetching them) waits until someone uses this one, so it never competes
 * with the first screen on a slow network and phone (issue 13). Returns the cancel function an
 * effect needs.
 */
export function afterFirstInput(task: () => void): () => void {
  let cancelIdle: (() => void) | undefined
  const start = () => {
    stopListening()
    cancelIdle = whenIdle(task)
  }
  const stopListening = () => {
    for (const type of FIRST_INPUT) window.removeEventListener(type, start, true)
  }
  for (const type of FIRST_INPUT) {
    window.addEventListener(type, start, { capture: true, passive: true, once: true })
  }
  return () => {
    stopListening()
    cancelIdle?.()
  }
}

/** Runs `task` in the browser's next idle moment (within a second); returns its cancel function. */
export function whenIdle(task: () => void): () => void {
  // Safari has no requestIdleCallback: there a short timer stands in for the idle moment.
  if (typeof window.requestIdleCallback !== 'function') {
    const timer = window.setTimeout(task, 50)
    return () => window.clearTimeout(timer)
  }
  const idle = window.requestIdleCallback(task, { timeout: 1000 })
  return () => window.cancelIdleCallback(idle)
}
