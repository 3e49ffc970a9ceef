// node --test scripts/: the bundle budget counts what a route loads before its first render — the
// static-import closure of the entry and of the route's chunk, each file once — and nothing behind
// a dynamic import. scripts/test.mjs runs this file with `npm test`.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import {
  APP,
  BUDGETS,
  closure,
  filesOf,
  measureRoute,
  overBudget,
  filesHolding,
  LATER_LIBRARIES,
} from './bundle-budget.mjs'

const HOME = 'src/features/home/pages/home-page.tsx'
const SCRIPT = path.join(import.meta.dirname, 'bundle-budget.mjs')

/** index.html → shared, runtime; home → shared (again), homeOnly → runtime; dynamics elsewhere. */
const manifest = {
  'index.html': {
    file: 'assets/index.js',
    isEntry: true,
    imports: ['_shared.js', '_runtime.js'],
    dynamicImports: [HOME, 'src/debug.tsx'],
    css: ['assets/index.css'],
  },
  '_shared.js': { file: 'assets/shared.js', imports: ['_runtime.js'], css: ['assets/shared.css'] },
  '_runtime.js': { file: 'assets/runtime.js' },
  [HOME]: {
    file: 'assets/home.js',
    isDynamicEntry: true,
    imports: ['index.html', '_shared.js', '_homeOnly.js'],
    dynamicImports: ['src/other-route.tsx'],
    css: ['assets/home.css'],
  },
  '_homeOnly.js': { file: 'assets/home-only.js', imports: ['_runtime.js'] },
  'src/debug.tsx': { file: 'assets/debug.js', isDynamicEntry: true, imports: ['_big.js'] },
  'src/other-route.tsx': { file: 'assets/other.js', isDynamicEntry: true, imports: ['_big.js'] },
  '_big.js': { file: 'assets/big.js', css: ['assets/big.css'] },
}

/** Incompressible bytes, so a file's gzip size is close to its length and easy to reason about. */
const noise = (bytes) => crypto.randomBytes(bytes)

function fakeDist(sizes = {}) {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'bundle-budget-test-'))
  fs.mkdirSync(path.join(dist, '.vite'), { recursive: true })
  fs.mkdirSync(path.join(dist, 'assets'))
  fs.writeFileSync(path.join(dist, '.vite/manifest.json'), JSON.stringify(manifest))
  const files = new Set(
    Object.values(manifest).flatMap((chunk) => [chunk.file, ...(chunk.css ?? [])]),
  )
  for (const file of files) {
    fs.writeFileSync(path.join(dist, file), noise(sizes[file] ?? 1000))
  }
  return dist
}

test('the closure follows static imports only, each chunk once', () => {
  const keys = closure(manifest, ['index.html', HOME])
  assert.deepEqual(
    [...keys].sort(),
    ['_homeOnly.js', '_runtime.js', '_shared.js', HOME, 'index.html'].sort(),
  )
  const { js, css } = filesOf(manifest, keys)
  assert.deepEqual(js.sort(), [
    'assets/home-only.js',
    'assets/home.js',
    'assets/index.js',
    'assets/runtime.js',
    'assets/shared.js',
  ])
  assert.deepEqual(css.sort(), ['assets/home.css', 'assets/index.css', 'assets/shared.css'])
})

test('a missing manifest key is an error, not a smaller figure', () => {
  assert.throws(() => closure(manifest, ['index.html', 'src/renamed-page.tsx']), /renamed-page/)
})

test('sizes are summed over the closure: a shared chunk counts once, dynamic chunks not at all', () => {
  const dist = fakeDist({ 'assets/shared.js': 5000, 'assets/big.js': 500_000 })
  try {
    const route = measureRoute(dist, manifest, HOME)
    const js = route.files.filter((f) => f.kind === 'js')
    assert.equal(js.length, 5)
    assert.ok(!route.files.some((f) => f.file.includes('big') || f.file.includes('debug')))
    // 4 × 1000 + 5000 incompressible bytes: gzip adds a little, never takes much away.
    assert.ok(route.js.gzip > 8900 && route.js.gzip < 9300, `js gzip ${route.js.gzip}`)
    assert.ok(route.css.gzip > 2900 && route.css.gzip < 3200, `css gzip ${route.css.gzip}`)
    assert.ok(route.js.brotli > 8900 && route.js.brotli < 9300, `js brotli ${route.js.brotli}`)
    assert.equal(route.js.raw, 9000)
  } finally {
    fs.rmSync(dist, { recursive: true, force: true })
  }
})

test('the app the entry imports after the first screen counts for every route', () => {
  const withApp = structuredClone(manifest)
  withApp['index.html'].dynamicImports.push(APP)
  withApp[APP] = { file: 'assets/app.js', isDynamicEntry: true, imports: ['_big.js'] }
  const dist = fakeDist({ 'assets/big.js': 7000 })
  fs.writeFileSync(path.join(dist, '.vite/manifest.json'), JSON.stringify(withApp))
  fs.writeFileSync(path.join(dist, 'assets/app.js'), noise(1000))
  try {
    const route = measureRoute(dist, withApp, HOME)
    assert.ok(route.files.some((f) => f.file === 'assets/app.js'))
    assert.ok(route.files.some((f) => f.file === 'assets/big.js'))
    assert.equal(route.js.raw, 4 * 1000 + 1000 + 1000 + 7000)
  } finally {
    fs.rmSync(dist, { recursive: true, force: true })
  }
})

test('overBudget names each budget exceeded, and nothing when within', () => {
  const route = { js: { gzip: 150 * 1024 }, css: { gzip: 30 * 1024 } }
  assert.deepEqual(overBudget(route, { jsGzip: 150 * 1024, cssGzip: 30 * 1024 }), [])
  const over = overBudget(
    { js: { gzip: 150 * 1024 + 1 }, css: { gzip: 31 * 1024 } },
    { jsGzip: 150 * 1024, cssGzip: 30 * 1024 },
  )
  assert.equal(over.length, 2)
  assert.match(over[0], /JS/)
  assert.match(over[1], /CSS/)
})

test('the script exits 1 over budget, naming the biggest file, and 0 within', () => {
  const small = fakeDist()
  // Incompressible bytes over the enforced budget (gzip barely shrinks them).
  const big = fakeDist({ 'assets/home-only.js': BUDGETS.jsGzip + 10 * 1024 })
  try {
    const ok = spawnSync(process.execPath, [SCRIPT, '--dist', small], { encoding: 'utf8' })
    assert.equal(ok.status, 0, ok.stdout + ok.stderr)
    assert.match(ok.stdout, /home/)
    const over = spawnSync(process.execPath, [SCRIPT, '--dist', big], { encoding: 'utf8' })
    assert.equal(over.status, 1, over.stdout + over.stderr)
    assert.match(over.stderr, /home-only\.js/)
  } finally {
    fs.rmSync(small, { recursive: true, force: true })
    fs.rmSync(big, { recursive: true, force: true })
  }
})

const [ZOD, NOBLE] = LATER_LIBRARIES

test('zod on a first load fails the script, naming the file; the jitless setting does not', () => {
  const dist = fakeDist()
  try {
    // What the first load may hold: the line that makes zod jitless before zod loads.
    fs.writeFileSync(
      path.join(dist, 'assets/shared.js'),
      'var t=globalThis;(t.__zod_globalConfig??={}).jitless=!0;',
    )
    assert.deepEqual(filesHolding(dist, measureRoute(dist, manifest, HOME), ZOD), [])
    // A dynamic chunk may hold zod.
    fs.writeFileSync(path.join(dist, 'assets/big.js'), 'e._zod.def.shape')
    const ok = spawnSync(process.execPath, [SCRIPT, '--dist', dist], { encoding: 'utf8' })
    assert.equal(ok.status, 0, ok.stdout + ok.stderr)
    fs.writeFileSync(path.join(dist, 'assets/home-only.js'), 'function n(e){return e._zod.run}')
    assert.deepEqual(filesHolding(dist, measureRoute(dist, manifest, HOME), ZOD), [
      'assets/home-only.js',
    ])
    const run = spawnSync(process.execPath, [SCRIPT, '--dist', dist], { encoding: 'utf8' })
    assert.equal(run.status, 1, run.stdout + run.stderr)
    assert.match(run.stderr, /zod in home's first load: assets\/home-only\.js/)
  } finally {
    fs.rmSync(dist, { recursive: true, force: true })
  }
})

test("@noble/hashes on a first load fails the script, by SHA-256's or SHA-1's first round constant", () => {
  const dist = fakeDist()
  try {
    fs.writeFileSync(
      path.join(dist, 'assets/big.js'),
      'I=Uint32Array.from([1116352408,1899447441])',
    )
    const ok = spawnSync(process.execPath, [SCRIPT, '--dist', dist], { encoding: 'utf8' })
    assert.equal(ok.status, 0, ok.stdout + ok.stderr)
    fs.writeFileSync(
      path.join(dist, 'assets/shared.js'),
      'I=Uint32Array.from([1116352408,1899447441])',
    )
    assert.deepEqual(filesHolding(dist, measureRoute(dist, manifest, HOME), NOBLE), [
      'assets/shared.js',
    ])
    const run = spawnSync(process.execPath, [SCRIPT, '--dist', dist], { encoding: 'utf8' })
    assert.equal(run.status, 1, run.stdout + run.stderr)
    assert.match(run.stderr, /@noble\/hashes in home's first load: assets\/shared\.js/)
    // HMAC over SHA-1 alone (hmacSignature) brings no SHA-256.
    fs.writeFileSync(path.join(dist, 'assets/shared.js'), 'K=[1518500249,1859775393]')
    assert.deepEqual(filesHolding(dist, measureRoute(dist, manifest, HOME), NOBLE), [
      'assets/shared.js',
    ])
  } finally {
    fs.rmSync(dist, { recursive: true, force: true })
  }
})
