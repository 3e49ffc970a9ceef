import fs from 'node:fs'
import { fileURLToPath } from 'node:url'

/**
 * First-load chunking (issue 13, ADR 026). Left to itself the bundler gives every combination of
 * routes that share code its own chunk: the home page needed 75 files, and over HTTP/1.1 a phone
 * fetches six at a time, one network round trip per round. Here the pages collectors land on get
 * a handful: the framework, the shop shell, what the home page and the item pages share, then
 * what each needs alone. Every other route keeps the bundler's own splitting.
 */

/**
 * Libraries every page needs from the first render on. (@noble/hashes, which signs calls, comes
 * after it with contracts/signing: lib/api-client.ts.)
 */
const FRAMEWORK =
  /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack|use-sync-external-store|cookie)[\\/]/

const src = (file: string) => fileURLToPath(new URL(`./src/${file}`, import.meta.url))
/** The entry only waits for the first screen's paint; start-shop is the app it then loads. */
const ENTRY = src('main.tsx')
const SHELL_ROOTS = [src('app/start-shop.tsx')]
/** The sign-in app shares the shop's shell, and nothing of its pages. */
const PASSPORT_ROOTS = [src('passport/main.tsx')]
/** The console's modules stay in the bundler's own chunks: it never loads shop code or CSS. */
const CONSOLE_ROOTS = [src('admin/main.tsx')]
const HOME_ROOTS = [src('features/home/pages/home-page.tsx')]
const ITEM_ROOTS = [
  src('features/auction/pages/special-detail-page.tsx'),
  src('app/product-detail-route.tsx'),
]
/**
 * What the home page takes right after its first render (components/gestures.ts: the swiper, pull
 * to refresh and the notice bar, react-spring and @use-gesture beneath them). A chunk of its own, which the item
 * pages and the sign-in app load at once; in the shell or a page's group it would be home's first
 * load again, or bring that group along.
 */
const GESTURE_ROOTS = [src('components/gestures.ts')]

/**
 * Barrels whose re-exports are followed by name: `import { Swiper } from 'antd-mobile'` reaches
 * the swiper and nothing else, where the barrel's own import list names every component some page
 * uses.
 */
const BARREL = /node_modules[\\/](antd-mobile|antd-mobile-icons|ahooks)[\\/]es[\\/]index\.js$/

interface ModuleGraph {
  getModuleInfo(id: string): { importedIds: readonly string[] } | null
}

const read = (id: string): string => {
  try {
    return fs.readFileSync(id.replace(/\?.*$/, ''), 'utf8')
  } catch {
    return ''
  }
}

/**
 * `export { default as Swiper } from './components/swiper'` → Swiper → ./components/swiper, and
 * `export { unstableSetRender } from './utils/unstable-render'` likewise; ahooks imports each hook
 * (`import useSize from './useSize'`, `import { createUpdateEffect } from './createUpdateEffect'`)
 * and exports them all in one list (`export { useSize, … }`).
 */
function reExports(barrel: string): Map<string, string> {
  const names = new Map<string, string>()
  const text = read(barrel)
  const parts = (list: string) => list.split(',').map((part) => part.trim().split(/\s+as\s+/))
  for (const m of text.matchAll(/export\s*\{([^}]*)\}\s*from\s*'([^']+)'/g)) {
    for (const part of parts(m[1]!)) if (part.at(-1)) names.set(part.at(-1)!, m[2]!)
  }
  // `import useRequest, { clearCache } from './useRequest'` too.
  const imported = new Map<string, string>()
  for (const m of text.matchAll(/import\s+(\w+)?\s*,?\s*(?:\{([^}]*)\})?\s*from\s*'([^']+)'/g)) {
    if (m[1]) imported.set(m[1], m[3]!)
    for (const part of parts(m[2] ?? '')) if (part.at(-1)) imported.set(part.at(-1)!, m[3]!)
  }
  for (const m of text.matchAll(/export\s*\{([^}]*)\}\s*;/g)) {
    for (const [local = '', exported = local] of parts(m[1]!)) {
      const from = imported.get(local)
      if (from) names.set(exported, from)
    }
  }
  return names
}

/** The names a module imports from a package: `import { A, B as C } from 'pkg'` → A, B. */
function namesImported(id: string, pkg: string): string[] {
  const names: string[] = []
  const pattern = new RegExp(`import\\s*(?:type\\s*)?\\{([^}]*)\\}\\s*from\\s*'${pkg}'`, 'g')
  for (const m of read(id).matchAll(pattern)) {
    for (const part of m[1]!.split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0]
      if (name) names.push(name)
    }
  }
  return names
}

/** Every module the roots reach by static imports, barrels followed by the names imported. */
function reach(roots: string[], graph: ModuleGraph): Set<string> {
  const seen = new Set<string>()
  const barrels = new Map<string, Map<string, string>>()
  const stack = [...roots]
  while (stack.length) {
    const id = stack.pop()!
    if (seen.has(id)) continue
    seen.add(id)
    for (const next of graph.getModuleInfo(id)?.importedIds ?? []) {
      const barrel = BARREL.exec(next)
      if (!barrel) {
        stack.push(next)
        continue
      }
      let targets = barrels.get(next)
      if (!targets) barrels.set(next, (targets = reExports(next)))
      for (const name of namesImported(id, barrel[1]!)) {
        const target = targets.get(name)
        if (!target) continue
        const resolved = fileURLToPath(new URL(target, `file://${next}`))
        const file = [`${resolved}/index.js`, `${resolved}.js`, resolved].find((f) =>
          fs.existsSync(f),
        )
        if (file) stack.push(file)
      }
    }
  }
  return seen
}

/** The chunk of a module of the shop's first loads, or null for the bundler's own splitting. */
export function firstLoadChunks(): (id: string, graph: ModuleGraph) => string | null {
  let owner: Map<string, string> | undefined
  return (id, graph) => {
    if (FRAMEWORK.test(id)) return 'framework'
    if (!owner) {
      owner = new Map()
      const shell = reach(SHELL_ROOTS, graph)
      const home = reach(HOME_ROOTS, graph)
      const item = reach(ITEM_ROOTS, graph)
      for (const m of item) if (!shell.has(m)) owner.set(m, home.has(m) ? 'landing' : 'item')
      for (const m of home) if (!shell.has(m) && !item.has(m)) owner.set(m, 'home')
      for (const m of shell) owner.set(m, 'shell')
      // The gestures chunk imports only the framework and the shell: what it shares with home's
      // first load (the swiper's page indicator) goes into the shell.
      for (const m of reach(GESTURE_ROOTS, graph)) {
        if (!shell.has(m)) owner.set(m, home.has(m) ? 'shell' : 'gestures')
      }
      // What the sign-in app shares with the home page goes into the shell it shares with the
      // shop, so it loads no page chunk; what it shares with the item pages alone (popups, toasts,
      // images) into a chunk of their own, not into home's first load. What the console reaches
      // stays in the bundler's own shared chunks, or the shop's CSS (its html/body rules among it)
      // would come into the console.
      for (const m of reach(PASSPORT_ROOTS, graph)) {
        const group = owner.get(m)
        if (group === undefined || group === 'shell' || group === 'gestures') continue
        owner.set(m, home.has(m) ? 'shell' : 'overlays')
      }
      for (const m of reach(CONSOLE_ROOTS, graph)) owner.delete(m)
      // The entry and the pages stay chunks of their own that import these (the manifest and the
      // router's lazy imports name them).
      for (const root of [...SHELL_ROOTS, ...HOME_ROOTS, ...ITEM_ROOTS]) owner.delete(root)
      // What the entry itself imports stays with it: in the shell it would make the entry import
      // the shell, which must wait for the first screen's paint.
      for (const m of reach([ENTRY], graph)) owner.delete(m)
    }
    return owner.get(id) ?? null
  }
}
