/**
 * `load` once for every caller: one promise shared while it runs and after it has succeeded; a
 * load that failed is forgotten, so the next caller tries again.
 */
export function sharedLoad<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined
      throw error
    }))
}
