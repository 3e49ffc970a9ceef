#!/usr/bin/env node
// `npm test`: every suite — unit, server integration (SQLite, and PostgreSQL when it answers) and
// browser journeys — then the scripts' own tests and, where the browser suites ran (the web app is
// built), the performance budgets of issue 13: the home route's bundle (1 test) and Lighthouse on
// the landing pages (1 test per page), alone on the machine after vitest so its CPU load does not
// skew total blocking time. Then one totals line `N passed, N failed`. With REQUIRE_PG=1 or
// REQUIRE_BROWSER=1 a missing PostgreSQL or Chromium fails the run instead of skipping it.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { runBundleBudget, runLighthouse, runScriptTests } from './test-gates.mjs'

const root = path.resolve(import.meta.dirname, '..')
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const requireBrowser = process.env.REQUIRE_BROWSER === '1'
const loud = (text) => console.warn(`\n${'*'.repeat(78)}\n*** ${text}\n${'*'.repeat(78)}\n`)

const projects = ['unit', 'server']
if (fs.existsSync(chromium)) {
  projects.push('e2e')
} else if (requireBrowser) {
  console.error(`REQUIRE_BROWSER=1 but no Chromium at ${chromium}`)
  console.log('0 passed, 1 failed')
  process.exit(1)
} else {
  loud(
    `No Chromium at ${chromium}: browser (e2e) suites, bundle budget and Lighthouse SKIPPED. ` +
      'apt-get install -y chromium',
  )
}

if (projects.includes('e2e')) {
  console.log('building the web app for the browser suites…')
  const build = spawnSync('npm', ['run', 'build', '-w', '@numisma/web'], {
    cwd: root,
    stdio: 'inherit',
  })
  if (build.status !== 0) {
    console.log('0 passed, 1 failed')
    process.exit(1)
  }
}

const report = path.join(root, 'test-results', 'vitest.json')
fs.rmSync(report, { force: true })
const args = ['vitest', 'run', ...projects.flatMap((p) => ['--project', p])]
args.push('--reporter=default', '--reporter=json', `--outputFile.json=${report}`)
const run = spawnSync('npx', args, { cwd: root, stdio: 'inherit', env: process.env })

let passed = 0
let failed = 0
let skipped = 0
if (fs.existsSync(report)) {
  const result = JSON.parse(fs.readFileSync(report, 'utf8'))
  passed = result.numPassedTests
  // A file that fails to load has no tests of its own; count it as one failure.
  const brokenFiles = result.testResults.filter(
    (file) => file.status === 'failed' && file.assertionResults.length === 0,
  ).length
  failed = result.numFailedTests + brokenFiles
  skipped = result.numPendingTests + result.numTodoTests
}
if (run.status !== 0 && failed === 0) failed = 1 // a crash or an error outside any test

// After vitest has finished, one at a time: the scripts' tests, then the budgets.
const gates = [runScriptTests(root, path.join(root, 'test-results'))]
if (projects.includes('e2e')) {
  gates.push(runBundleBudget(root))
  gates.push(await runLighthouse(root, path.join(root, 'test-results')))
}
for (const gate of gates) {
  passed += gate.passed
  failed += gate.failed
}
// Tests that apply to one database only (e.g. PostgreSQL's row locks) count as skipped on the
// other; said on its own line, so the last line stays the totals alone (`N passed, N failed`).
if (skipped) console.log(`\n${skipped} skipped`)
console.log(`\n${passed} passed, ${failed} failed`)
process.exit(failed > 0 || run.status !== 0 ? 1 : 0)
