import { startTransition, useEffect, useState } from 'react'

/**
 * A module the first render does without (issue 13): the hook returns undefined until the module
 * has arrived, fetched once a component using it has mounted (and `wanted`), then the module; a
 * component renders a static stand-in until then. Effects never run on the server, so the server's
 * first screen and the app's first render both show the stand-in. Once loaded, later mounts have it
 * at once. A failed fetch leaves the stand-in and is tried again at the next mount.
 */
export function laterModule<T extends object>(load: () => Promise<T>) {
  let loaded: T | undefined
  let loading: Promise<T> | undefined
  const start = (): Promise<T> =>
    (loading ??= load().then(
      (module) => (loaded = module),
      (error: unknown) => {
        loading = undefined
        throw error
      },
    ))

  return function useLaterModule(wanted = true): T | undefined {
    const [module, setModule] = useState(() => loaded)
    useEffect(() => {
      if (module || !wanted) return
      let live = true
      start().then(
        (arrived) => {
          // In a transition: the components taking the module render in slices that yield.
          if (live) startTransition(() => setModule(arrived))
        },
        (error: unknown) => {
          console.error(error)
        },
      )
      return () => {
        live = false
      }
    }, [module, wanted])
    return module
  }
}
