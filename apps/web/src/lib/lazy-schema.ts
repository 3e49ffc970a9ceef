import { nextTask } from './first-screen-paint'
import { sharedLoad } from './shared-load'

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
 * What every contracts module builds on — zod and the contracts' shared schemas — evaluated in a
 * task of its own before the module a lazy schema names. Evaluated with it in one go (a module's
 * imports are evaluated in the same task), building the schemas was one task of 30–45 ms on a
 * 2-core server, four times that on the phone Lighthouse models (issue 13).
 */
export const loadSchemaBase = sharedLoad(async () => {
  // Not import('zod') on its own: the build then puts zod in a chunk of the first load.
  await import('@numisma/contracts/api')
  await nextTask()
})

/**
 * A schema from a dynamic import, e.g.
 * `lazySchema(() => import('@numisma/contracts/catalog').then((m) => listOf(m.BannerSchema)))`.
 * Made once per module (a constant beside the call), so every call shares one load.
 */
export function lazySchema<T>(
  load: () => Promise<Schema<T>>,
  base: () => Promise<void> = loadSchemaBase,
): LazySchema<T> {
  return { load: sharedLoad(() => base().then(load)) }
}

export function isLazySchema<T>(schema: Schema<T> | LazySchema<T>): schema is LazySchema<T> {
  return !('parse' in schema)
}

/** The schema itself, a lazy one once loaded. */
export async function loadSchema<T>(schema: Schema<T> | LazySchema<T>): Promise<Schema<T>> {
  return isLazySchema(schema) ? schema.load() : schema
}
