import vm from 'node:vm'
import { describe, expect, it } from 'vitest'
import { eagerCommonJs, eagerCompile } from './eager-compile'

describe('eagerCommonJs', () => {
  it('turns the bundler’s CommonJS wrappers into function expressions, and nothing else', () => {
    const chunk = [
      'var require_react_production = /* @__PURE__ */ __commonJSMin(((exports) => {',
      '\texports.version = "19";',
      '}));',
      'var require_react = /* @__PURE__ */ __commonJSMin(((exports, module) => {',
      '\tmodule.exports = require_react_production();',
      '}));',
      'var require_x = __commonJS(((exports) => {',
      '\tconst f = (exports) => {};',
      '}));',
    ].join('\n')
    expect(eagerCommonJs(chunk)).toBe(
      [
        'var require_react_production = /* @__PURE__ */ __commonJSMin((function (exports) {',
        '\texports.version = "19";',
        '}));',
        'var require_react = /* @__PURE__ */ __commonJSMin((function (exports, module) {',
        '\tmodule.exports = require_react_production();',
        '}));',
        'var require_x = __commonJS((function (exports) {',
        '\tconst f = (exports) => {};',
        '}));',
      ].join('\n'),
    )
  })

  it('leaves a chunk without wrappers as it is', () => {
    const esm = 'const a = ((exports) => {})\nexport { a }'
    expect(eagerCommonJs(esm)).toBe(esm)
  })

  it('the rewritten wrapper runs as the arrow did', () => {
    // The runtime's helper, as the bundler writes it: calls the wrapper once, with exports and module.
    const helper =
      'var __commonJSMin = (cb, mod) => () => (mod || (cb((mod = { exports: {} }).exports, mod, mod.exports), cb = null), mod.exports);'
    const code =
      'var require_a = __commonJSMin(((exports, module) => { module.exports.n = 1; exports.m = 2 }));'
    const run = (wrapped: string): unknown =>
      vm.runInNewContext(
        `"use strict"; ${helper} ${wrapped} [require_a(), require_a() === require_a()]`,
      )
    expect(run(eagerCommonJs(code))).toEqual([{ n: 1, m: 2 }, true])
    expect(run(eagerCommonJs(code))).toEqual(run(code))
  })
  it('fails the build for a named chunk missing, without wrappers, or with one it cannot rewrite', () => {
    const context = {
      error: (message: string): never => {
        throw new Error(message)
      },
    }
    const run = (chunks: { name: string; code: string }[]) => {
      const plugin = eagerCompile(['framework']) as unknown as {
        renderChunk: (this: typeof context, code: string, chunk: { name: string }) => unknown
        generateBundle: (this: typeof context) => void
      }
      const out = chunks.map((chunk) => plugin.renderChunk.call(context, chunk.code, chunk))
      plugin.generateBundle.call(context)
      return out
    }
    const wrapper = 'var r = __commonJSMin(((exports) => { exports.a = 1 }));'
    expect(
      run([
        { name: 'framework', code: wrapper },
        { name: 'shell', code: wrapper },
      ]),
    ).toEqual([
      { code: 'var r = __commonJSMin((function (exports) { exports.a = 1 }));', map: null },
      null,
    ])
    expect(() => run([{ name: 'shell', code: wrapper }])).toThrow('no chunk named framework')
    expect(() => run([{ name: 'framework', code: 'export const a = 1' }])).toThrow(
      'no CommonJS wrapper',
    )
    const unknown = `${wrapper} var s = __commonJSMin(((exports, module, extra) => {}));`
    expect(() => run([{ name: 'framework', code: unknown }])).toThrow('does not know')
  })
})
