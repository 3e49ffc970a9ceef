import { startTransition, useEffect, useState } from 'react'

/** After a failed fetch, the next try waits this long, doubling up to a minute. */
export const RETRY_FIRST_MS = 2_000
const RETRY_MAX_MS = 60_000

/**
 * A module the first render does without (issue 13): the hook returns undefined until the module
 * has arrived, fetched once a component using it has mounted (and `wanted`), then the module; a
 * component renders a static stand-in until then. Effects never run on the server, so the server's
 * first screen and the app's first render both show the stand-in. Once loaded, later mounts have it
 * at once, and every mounted user gets it when it arrives, whichever of them fetched it. A failed
 * fetch is tried again while a user is mounted — when the connection comes back, or after a wait
 * that doubles — since a kept-alive page may never mount again.
 */
export function laterModule<T extends object>(load: () => Promise<T>) {
  let loaded: T | undefined
  let loading: Promise<T> | undefined
  const waiting = new Set<(module: T) => void>()
  const start = (): Promise<T> =>
    (loading ??= load().then(
      (module) => {
        loaded = module
        for (const arrived of waiting) arrived(module)
        return module
      },
      (error: unknown) => {
        loading = undefined
        throw error
      },
    ))

  return function useLaterModule(wanted = true): T | undefined {
    const [module, setModule] = useState(() => loaded)
    useEffect(() => {
      if (module || !wanted) return
      // In a transition: the components taking the module render in slices that yield.
      const arrived = (value: T) => startTransition(() => setModule(value))
      if (loaded) {
        arrived(loaded)
        return
      }
      waiting.add(arrived)
      let wait = RETRY_FIRST_MS
      let timer: ReturnType<typeof setTimeout> | undefined
      let trying = false
      const attempt = (): void => {
        clearTimeout(timer)
        if (trying) return
        trying = true
        start().catch((error: unknown) => {
          trying = false
          console.error(error)
          if (!waiting.has(arrived)) return
          timer = setTimeout(attempt, wait)
          wait = Math.min(wait * 2, RETRY_MAX_MS)
        })
      }
      window.addEventListener('online', attempt)
      attempt()
      return () => {
        waiting.delete(arrived)
        window.removeEventListener('online', attempt)
        clearTimeout(timer)
      }
    }, [module, wanted])
    return module
  }
}
