// How scripts/test.mjs turns the checks after vitest into counts for its totals line.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { lighthouseCounts, tapCounts } from './test-gates.mjs'

const NAMES = ['home', 'special', 'lot', 'mall item']
const page = (name, missed = []) => ({ name, missed })

test('Lighthouse: one test per page, failed when the page missed a budget', () => {
  const all = NAMES.map((name) => page(name))
  assert.deepEqual(lighthouseCounts({ pages: all }, NAMES, 0), { passed: 4, failed: 0 })
  const twoMissed = [
    page('home', ['TBT 900 ms > 150 ms']),
    page('special'),
    page('lot'),
    page('mall item', ['LCP']),
  ]
  assert.deepEqual(lighthouseCounts({ pages: twoMissed }, NAMES, 1), { passed: 2, failed: 2 })
})

test('Lighthouse: no JSON, a page left out, or an exit with no page missed are failures', () => {
  assert.deepEqual(lighthouseCounts(null, NAMES, 1), { passed: 0, failed: 4 })
  const three = NAMES.slice(0, 3).map((name) => page(name))
  assert.deepEqual(lighthouseCounts({ pages: three }, NAMES, 0), { passed: 3, failed: 1 })
  const all = NAMES.map((name) => page(name))
  assert.deepEqual(lighthouseCounts({ pages: all }, NAMES, 1), { passed: 3, failed: 1 })
})

test('TAP totals are read from the summary; a truncated stream is a failure', () => {
  assert.deepEqual(
    tapCounts('ok 1 - a\nnot ok 2 - b\n# tests 2\n# pass 1\n# fail 1\n# cancelled 0\n'),
    {
      passed: 1,
      failed: 1,
    },
  )
  assert.deepEqual(tapCounts('ok 1 - a\n'), { passed: 0, failed: 1 })
})
