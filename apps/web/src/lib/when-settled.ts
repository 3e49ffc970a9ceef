/** How long after the load event deferred work may start. */
export const SETTLE_MS = 3000

/**
 * Runs `task` once the first screen is done: after the load event, a few seconds for its data and
 * pictures, then an idle moment, so deferred work (prefetching the next pages, lists below the
 * fold) never competes with what the visitor is waiting for on a slow network (issue 13).
 * Returns the cancel function an effect needs.
 */
export function whenSettled(task: () => void, settleMs = SETTLE_MS): () => void {
  // Safari has no requestIdleCallback: there a timer stands in for the idle moment.
  const hasIdle = typeof window.requestIdleCallback === 'function'
  let timer: number | undefined
  let idle: number | undefined
  const schedule = () => {
    timer = window.setTimeout(() => {
      if (hasIdle) idle = window.requestIdleCallback(task, { timeout: settleMs })
      else task()
    }, settleMs)
  }
  if (document.readyState === 'complete') schedule()
  else window.addEventListener('load', schedule, { once: true })
  return () => {
    window.removeEventListener('load', schedule)
    window.clearTimeout(timer)
    if (idle !== undefined) window.cancelIdleCallback(idle)
  }
}
