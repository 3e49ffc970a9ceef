// The checks scripts/test.mjs runs after vitest, turned into test counts for the totals line: the
// scripts' own node:test files, the bundle budget (1 test) and Lighthouse (1 test per page).
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

/** Totals from a TAP stream's closing `# pass N` / `# fail N` lines; a stream without them fails. */
export function tapCounts(tap) {
  const count = (label) => Number(new RegExp(`^# ${label} (\\d+)$`, 'm').exec(tap)?.[1] ?? NaN)
  const passed = count('pass')
  const failed = count('fail') + (count('cancelled') || 0)
  if (Number.isNaN(passed) || Number.isNaN(failed)) return { passed: 0, failed: 1 }
  return { passed, failed }
}

/**
 * One test per page from bench/lighthouse.mjs's JSON: a page passes when it missed no budget. A
 * page absent from the JSON (or no JSON: the run crashed) is a failure, as is a non-zero exit with
 * every page passing (something failed outside the pages).
 */
export function lighthouseCounts(result, pageNames, exitStatus) {
  const byName = new Map((result?.pages ?? []).map((page) => [page.name, page]))
  let passed = 0
  let failed = 0
  for (const name of pageNames) {
    const page = byName.get(name)
    if (page && Array.isArray(page.missed) && page.missed.length === 0) passed++
    else failed++
  }
  if (exitStatus !== 0 && failed === 0) return { passed: Math.max(0, passed - 1), failed: 1 }
  return { passed, failed }
}

/** node --test over scripts/*.test.mjs: spec to the console, TAP to a file for the counts. */
export function runScriptTests(root, reportDir) {
  const dir = path.join(root, 'scripts')
  const files = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.test.mjs'))
    .map((name) => path.join(dir, name))
  if (files.length === 0) return { passed: 0, failed: 0 }
  const tapFile = path.join(reportDir, 'scripts.tap')
  fs.mkdirSync(reportDir, { recursive: true })
  fs.rmSync(tapFile, { force: true })
  console.log('\nscripts (node --test):')
  const run = spawnSync(
    process.execPath,
    [
      '--test',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tapFile}`,
      ...files,
    ],
    { cwd: root, stdio: 'inherit' },
  )
  const counts = fs.existsSync(tapFile)
    ? tapCounts(fs.readFileSync(tapFile, 'utf8'))
    : { passed: 0, failed: 1 }
  if (run.status !== 0 && counts.failed === 0) counts.failed = 1
  return counts
}

/** The home route's bundle budget: one test, passed when the script exits 0. */
export function runBundleBudget(root) {
  console.log('\nbundle budget (node scripts/bundle-budget.mjs):')
  const run = spawnSync(process.execPath, ['scripts/bundle-budget.mjs'], {
    cwd: root,
    stdio: 'inherit',
  })
  return run.status === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 }
}

/** Lighthouse on the landing pages, alone on the machine (after vitest): one test per page. */
export async function runLighthouse(root, reportDir) {
  const { PAGES } = await import('../bench/lighthouse.mjs')
  const out = path.join(reportDir, 'lighthouse.json')
  fs.mkdirSync(reportDir, { recursive: true })
  fs.rmSync(out, { force: true })
  console.log('\nLighthouse (node bench/lighthouse.mjs):')
  const run = spawnSync(process.execPath, ['bench/lighthouse.mjs', '--out', out], {
    cwd: root,
    stdio: 'inherit',
  })
  let result = null
  try {
    result = JSON.parse(fs.readFileSync(out, 'utf8'))
  } catch {
    console.error(`Lighthouse wrote no ${path.relative(root, out)}: every page counts as failed`)
  }
  return lighthouseCounts(
    result,
    PAGES.map((page) => page.name),
    run.status ?? 1,
  )
}
