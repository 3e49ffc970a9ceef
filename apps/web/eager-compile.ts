import type { Plugin } from 'vite'

/**
 * The bundler wraps each CommonJS module in an arrow function it calls on the module's first
 * `require` (`__commonJSMin(((exports) => { … }))`). V8 compiles a function when it is first
 * called, on the main thread — for React DOM's client, 200 KB of source in one function, about
 * 7 ms of an 18–20 ms task here, which Lighthouse models as four times that (issue 13: total
 * blocking time). A function expression in parentheses is one V8 expects to be called at once
 * (its "PIFE" heuristic) and compiles with the script, which it does off the main thread while
 * the script streams in. So, in the chunks every landing page runs at start-up (the framework's:
 * React, React DOM, the scheduler), the wrappers become function expressions: the same calls, with
 * `exports` and `module` as before; a CommonJS module's top level uses neither `this` nor
 * `arguments`, which is all an arrow and a function expression differ in here.
 */
export function eagerCommonJs(code: string): string {
  return code.replace(
    /(__commonJS(?:Min)?\(\()\((exports(?:, module)?)\) => \{/g,
    '$1function ($2) {',
  )
}

/** A wrapper {@link eagerCommonJs} did not rewrite: the bundler's output changed under it. */
const ARROW_WRAPPER = /__commonJS(?:Min)?\(\(\(/

/**
 * {@link eagerCommonJs} on the named chunks of a build, before they are minified. The build fails
 * when a named chunk is missing, has no wrapper, or keeps one the rewrite did not match: a
 * bundler upgrade or a renamed chunk cannot quietly bring the compile back to the main thread.
 */
export function eagerCompile(chunks: readonly string[]): Plugin {
  const seen = new Set<string>()
  return {
    name: 'numisma-eager-compile',
    apply: 'build',
    renderChunk(code, chunk) {
      if (!chunks.includes(chunk.name)) return null
      seen.add(chunk.name)
      const eager = eagerCommonJs(code)
      if (eager === code) this.error(`chunk ${chunk.name}: no CommonJS wrapper to compile eagerly`)
      if (ARROW_WRAPPER.test(eager)) {
        this.error(`chunk ${chunk.name}: a CommonJS wrapper the rewrite does not know`)
      }
      return { code: eager, map: null }
    },
    generateBundle() {
      const missing = chunks.filter((name) => !seen.has(name))
      if (missing.length > 0) this.error(`no chunk named ${missing.join(', ')} to compile eagerly`)
    },
  }
}
