#!/usr/bin/env node
// Bundle budget (issue 13, item 6): what the home route loads before its first render, gzipped,
// must stay within budget. Read from the web build's manifest (apps/web/dist/.vite/manifest.json):
// the static-import closure of the `index.html` entry plus that of the route's page chunk (which
// the router reaches by a dynamic import), with their CSS. Dynamic imports — other routes, the
// debug console — are not part of a first render and are not counted. Each file is gzipped at
// level 9; brotli is reported alongside. Exits 1 when home is over a budget, naming its biggest
// files. The special page and the lot/mall item route are reported for information; any of the
// three whose first load holds zod or @noble/hashes fails too (LATER_LIBRARIES: the shop checks
// answers with schemas, and signs requests with hashing, that it loads after the first render).
//
//   node scripts/bundle-budget.mjs            (after `npm run build -w @numisma/web`)
//   node scripts/bundle-budget.mjs --dist DIR --json FILE
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import zlib from 'node:zlib'

/** Issue 13, item 6: the home route's initial JS and CSS, gzip -9, in bytes. */
export const TARGETS = {
  jsGzip: 150 * 1024,
  cssGzip: 30 * 1024,
}

/**
 * What fails the build: the figures (ADR 026). Home loaded 269 KB gzip before ADR 026 and
 * 146 after §13 (2026-11-27), with React DOM alone about 63 of it: what a change adds to the first
 * load has to come out of it elsewhere, or arrive after the first render.
 */
export const BUDGETS = TARGETS

export const ENTRY = 'index.html'
/**
 * The app the entry imports (apps/web/src/main.tsx): on a landing page after the server's first
 * screen has painted, on any other page at once (ADR 026 §9). Part of every route's first render.
 */
export const APP = 'src/app/start-shop.tsx'
export const BUDGETED_ROUTE = { name: 'home', key: 'src/features/home/pages/home-page.tsx' }
export const INFO_ROUTES = [
  { name: 'special', key: 'src/features/auction/pages/special-detail-page.tsx' },
  { name: 'lot / mall item', key: 'src/app/product-detail-route.tsx' },
]

const root = path.resolve(import.meta.dirname, '..')

/** Manifest keys reachable from `starts` through static `imports` (not `dynamicImports`). */
export function closure(manifest, starts) {
  const seen = new Set()
  const visit = (key) => {
    if (seen.has(key)) return
    const chunk = manifest[key]
    if (!chunk) throw new Error(`${key} is not in the build manifest`)
    seen.add(key)
    for (const next of chunk.imports ?? []) visit(next)
  }
  for (const key of starts) visit(key)
  return seen
}

/** The JS and CSS files of those chunks, each once. */
export function filesOf(manifest, keys) {
  const js = new Set()
  const css = new Set()
  for (const key of keys) {
    js.add(manifest[key].file)
    for (const file of manifest[key].css ?? []) css.add(file)
  }
  return { js: [...js], css: [...css] }
}

function sizesOf(dist, file) {
  const bytes = fs.readFileSync(path.join(dist, file))
  return {
    raw: bytes.length,
    gzip: zlib.gzipSync(bytes, { level: 9 }).length,
    brotli: zlib.brotliCompressSync(bytes, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }).length,
  }
}

const sum = (files) =>
  files.reduce(
    (total, f) => ({
      raw: total.raw + f.raw,
      gzip: total.gzip + f.gzip,
      brotli: total.brotli + f.brotli,
    }),
    { raw: 0, gzip: 0, brotli: 0 },
  )

/** What the route `key` loads before its first render: files (biggest first) and JS/CSS totals. */
export function measureRoute(dist, manifest, key) {
  const { js, css } = filesOf(
    manifest,
    closure(manifest, manifest[APP] ? [ENTRY, APP, key] : [ENTRY, key]),
  )
  const files = [
    ...js.map((file) => ({ file, kind: 'js', ...sizesOf(dist, file) })),
    ...css.map((file) => ({ file, kind: 'css', ...sizesOf(dist, file) })),
  ].sort((a, b) => b.gzip - a.gzip)
  return {
    files,
    js: sum(files.filter((f) => f.kind === 'js')),
    css: sum(files.filter((f) => f.kind === 'css')),
  }
}

/** One line per budget the route exceeds; empty when it is within all of them. */
export function overBudget(route, budgets = BUDGETS) {
  const over = []
  if (route.js.gzip > budgets.jsGzip) {
    over.push(`initial JS ${kb(route.js.gzip)} KB gzip > ${kb(budgets.jsGzip)} KB`)
  }
  if (route.css.gzip > budgets.cssGzip) {
    over.push(`initial CSS ${kb(route.css.gzip)} KB gzip > ${kb(budgets.cssGzip)} KB`)
  }
  return over
}

/**
 * Libraries the first render does without, which come right after it; a route whose first load
 * holds one fails. Each is known by a mark minifying leaves alone. zod: its schemas keep their
 * internals in `._zod` (the first load sets zod's configuration in `__zod_globalConfig`, which the
 * mark skips). @noble/hashes: the first round constants of SHA-256 (0x428a2f98) and SHA-1
 * (0x5a827999), either of which signing brings.
 */
export const LATER_LIBRARIES = [
  {
    name: 'zod',
    mark: /\._zod\b/,
    how: 'schemas on the first load are lazy ones: apps/web/src/lib/lazy-schema.ts',
  },
  {
    name: '@noble/hashes',
    mark: /\b(1116352408|1518500249)\b|0x428a2f98|0x5a827999/,
    how: 'the shop signs requests with contracts/signing.ts loaded by api-client after the first render; import contracts/signing-headers.ts',
  },
]

/** The route's first-load JS files that hold the library. */
export function filesHolding(dist, route, library) {
  return route.files
    .filter(
      (f) =>
        f.kind === 'js' && library.mark.test(fs.readFileSync(path.join(dist, f.file), 'latin1')),
    )
    .map((f) => f.file)
}

const kb = (bytes) => (bytes / 1024).toFixed(1)

function main() {
  const { values: args } = parseArgs({
    options: {
      dist: { type: 'string', default: path.join(root, 'apps/web/dist') },
      json: { type: 'string' },
    },
  })
  const manifestPath = path.join(args.dist, '.vite/manifest.json')
  if (!fs.existsSync(manifestPath)) {
    console.error(`No ${manifestPath}: build the web app first (npm run build -w @numisma/web)`)
    process.exit(1)
  }
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'))

  const rows = []
  const home = measureRoute(args.dist, manifest, BUDGETED_ROUTE.key)
  rows.push({ ...BUDGETED_ROUTE, route: home, budgeted: true })
  for (const info of INFO_ROUTES) {
    if (manifest[info.key]) {
      rows.push({ ...info, route: measureRoute(args.dist, manifest, info.key), budgeted: false })
    } else {
      console.warn(`(${info.name}: ${info.key} is not in the manifest, not reported)`)
    }
  }

  const cell = (n) => kb(n).padStart(8)
  console.log(
    `route                  files    JS gz    JS br   CSS gz   CSS br   (KB; budget home: JS ${kb(BUDGETS.jsGzip)}, CSS ${kb(BUDGETS.cssGzip)} gzip)`,
  )
  for (const { name, route, budgeted } of rows) {
    console.log(
      `${(name + (budgeted ? '' : ' (info)')).padEnd(22)} ${String(route.files.length).padStart(5)}` +
        `${cell(route.js.gzip)} ${cell(route.js.brotli)} ${cell(route.css.gzip)} ${cell(route.css.brotli)}`,
    )
  }

  if (args.json) {
    const out = rows.map(({ name, key, route, budgeted }) => ({ name, key, budgeted, ...route }))
    fs.mkdirSync(path.dirname(args.json), { recursive: true })
    const summary = { budgets: BUDGETS, targets: TARGETS, routes: out }
    fs.writeFileSync(args.json, `${JSON.stringify(summary, null, 2)}\n`)
  }

  let early = 0
  for (const library of LATER_LIBRARIES) {
    for (const { name, route } of rows) {
      const files = filesHolding(args.dist, route, library)
      if (!files.length) continue
      early++
      console.error(`${library.name} in ${name}'s first load: ${files.join(', ')}`)
      console.error(`  (${library.how})`)
    }
  }

  const short = overBudget(home, TARGETS)
  if (short.length) console.log(`(issue 13 target not yet met: ${short.join('; ')})`)
  const over = overBudget(home)
  if (over.length === 0) {
    if (early) process.exit(1)
    console.log('bundle budget: home within budget')
    return
  }
  console.error(`bundle budget MISSED for home: ${over.join('; ')}`)
  console.error('biggest files home loads first (gzip):')
  for (const f of home.files.slice(0, 8)) {
    console.error(`  ${kb(f.gzip).padStart(8)} KB  ${f.file}`)
  }
  process.exit(1)
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main()
}
