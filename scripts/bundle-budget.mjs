#!/usr/bin/env node
// Bundle budget (issue 13, item 6): what the home route loads before its first render, gzipped,
// must stay within budget. Read from the web build's manifest (apps/web/dist/.vite/manifest.json):
// the static-import closure of the `index.html` entry plus that of the route's page chunk (which
// the router reaches by a dynamic import), with their CSS. Dynamic imports — other routes, the
// debug console — are not part of a first render and are not counted. Each file is gzipped at
// level 9; brotli is reported alongside. Exits 1 when home is over a budget, naming its biggest
// files. The special page and the lot/mall item route are reported for information; any of the
// three whose first load holds zod fails too (the shop checks answers with schemas it loads after
// the first render, apps/web/src/lib/lazy-schema.ts).
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
 * What fails the build (ADR 026). CSS is held at the figure, which home meets. Its JS is
 * not there yet: React DOM alone is about 70 KB, and with React Router, i18next and TanStack Query
 * the framework is about 105. It is held just above what home loads now (178 KB on 2026-11-27,
 * down from 269 with zod, the gestures and the data router after the first render or gone, ADR
 * 026 §10–12), so a change that adds to the first load fails CI while the target is worked towards.
 */
export const BUDGETS = {
  jsGzip: 180 * 1024,
  cssGzip: 30 * 1024,
}

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
 * zod's schemas all keep their internals in `._zod`, which minifying leaves alone: a file with it
 * ships zod. (The first load sets zod's configuration in `__zod_globalConfig`, which this skips.)
 */
export const ZOD = /\._zod\b/

/** The route's first-load JS files that hold zod. */
export function zodFiles(dist, route) {
  return route.files
    .filter((f) => f.kind === 'js' && ZOD.test(fs.readFileSync(path.join(dist, f.file), 'latin1')))
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

  const withZod = rows
    .map(({ name, route }) => ({ name, files: zodFiles(args.dist, route) }))
    .filter((row) => row.files.length > 0)
  for (const { name, files } of withZod) {
    console.error(`zod in ${name}'s first load: ${files.join(', ')}`)
  }
  if (withZod.length) {
    console.error('  (schemas on the first load are lazy ones: apps/web/src/lib/lazy-schema.ts)')
  }

  const short = overBudget(home, TARGETS)
  if (short.length) console.log(`(issue 13 target not yet met: ${short.join('; ')})`)
  const over = overBudget(home)
  if (over.length === 0) {
    if (withZod.length) process.exit(1)
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
