/**
 * Lets a promise nobody waits for (a navigation from a tap, a cache refresh after a push) run on,
 * reporting a failure instead of dropping it: lint refuses promises discarded with `void`, because
 * a rejection there vanishes without a trace.
 */
export function inBackground(work: unknown): void {
  Promise.resolve(work).catch((error: unknown) => {
    console.error(error)
  })
}
