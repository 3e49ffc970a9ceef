/** What checks and types an answer: the value, or a throw when it does not pass. */
export interface Schema<T> {
  parse(value: unknown): T
}

/**
 * A schema whose code — zod and the contracts module that builds it — is loaded on first use
 * (issue 13): the modules the shop's first load reaches name their schemas this way, so the first
 * render never waits for zod. request() loads it alongside the call it checks.
 */
export interface LazySchema<T> {
  /** The schema, loaded once; a load that failed is tried again on the next call. */
  load(): Promise<Schema<T>>
}

/**
 * A schema from a dynamic import, e.g.
 * `lazySchema(() => import('@numisma/contracts/catalog').then((m) => listOf(m.BannerSchema)))`.
 * Made once per module (a constant beside the call), so every call shares one load.
 */
export function lazySchema<T>(load: () => Promise<Schema<T>>): LazySchema<T> {
  let loading: Promise<Schema<T>> | undefined
  return {
    load() {
      loading ??= load().catch((error: unknown) => {
        loading = undefined
        throw error
      })
      return loading
    },
  }
}

export function isLazySchema<T>(schema: Schema<T> | LazySchema<T>): schema is LazySchema<T> {
  return !('parse' in schema)
}

/** The schema itself, a lazy one once loaded. */
export async function loadSchema<T>(schema: Schema<T> | LazySchema<T>): Promise<Schema<T>> {
  return isLazySchema(schema) ? schema.load() : schema
}
