// bench/lighthouse.mjs: the budgets follow the host's benchmark index; a run Lighthouse could not
// record is tried again in a fresh browser, and what its trace held is said; a page that never
// records is an error, not a missing figure.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  budgetsFor,
  CALIBRATED_HOST_INDEX,
  failureOf,
  missedLimits,
  SLOW_HOST_TBT_MS,
  TARGETS,
  withRetries,
} from '../bench/lighthouse.mjs'

const page = {
  performance: 99,
  accessibility: 100,
  'best-practices': 100,
  lcpMs: 1200,
  cls: 0,
  tbtMs: 180,
}

test("issue 13's figures on a host Lighthouse's throttling is calibrated for, TBT 300 below it", () => {
  assert.deepEqual(budgetsFor(CALIBRATED_HOST_INDEX), TARGETS)
  assert.deepEqual(budgetsFor(3600), TARGETS)
  assert.deepEqual(budgetsFor(CALIBRATED_HOST_INDEX - 1), { ...TARGETS, tbtMs: SLOW_HOST_TBT_MS })
  // No index read (an old Lighthouse): not taken for a calibrated host.
  assert.equal(budgetsFor(Number.NaN).tbtMs, SLOW_HOST_TBT_MS)
  assert.deepEqual(missedLimits(page, budgetsFor(1800)), ['TBT 180 ms > 150 ms'])
  assert.deepEqual(missedLimits(page, budgetsFor(1200)), [])
  // Only blocking time is relaxed.
  assert.deepEqual(missedLimits({ ...page, lcpMs: 2100, tbtMs: 90 }, budgetsFor(1200)), [
    'LCP 2100 ms > 2000 ms',
  ])
})

const good = { lhr: { categories: {} } }
const noNavstart = {
  lhr: { runtimeError: { code: 'NO_NAVSTART', message: 'Something went wrong' } },
  artifacts: {
    Trace: {
      traceEvents: [
        { name: 'TracingStartedInBrowser' },
        { name: 'FrameCommittedInBrowser' },
        { name: 'navigationStart', args: { data: { documentLoaderURL: '' } } },
      ],
    },
  },
}

/** An audit answering `results` in turn, and a record of what the retries did. */
function scripted(results) {
  const calls = []
  return {
    calls,
    audit: async () => {
      const next = results[calls.filter((c) => c === 'audit').length]
      calls.push('audit')
      if (next instanceof Error) throw next
      return next
    },
    relaunch: async () => calls.push('relaunch'),
    warn: (line) => calls.push(line),
  }
}

test('a recorded run is taken as it is, with no fresh browser', async () => {
  const s = scripted([good])
  assert.equal(await withRetries('/', s.audit, s.relaunch, s.warn), good)
  assert.deepEqual(s.calls, ['audit'])
})

test('an unrecorded run, or a thrown one, is tried again in a fresh browser, saying why', async () => {
  const s = scripted([noNavstart, new Error('Protocol error'), good])
  assert.equal(await withRetries('/', s.audit, s.relaunch, s.warn), good)
  assert.deepEqual(s.calls, [
    'audit',
    '/: NO_NAVSTART (trace: 3 events, navigationStart 1 [-], FrameCommittedInBrowser 1, ' +
      'TracingStartedInBrowser 1); attempt 2 in a fresh browser',
    'relaunch',
    'audit',
    '/: threw Protocol error; attempt 3 in a fresh browser',
    'relaunch',
    'audit',
  ])
})

test('three unrecorded runs in a row fail the page, naming it', async () => {
  const s = scripted([noNavstart, noNavstart, noNavstart, good])
  await assert.rejects(
    withRetries('/lot', s.audit, s.relaunch, s.warn),
    /^Error: \/lot: not measured in 3 attempts: NO_NAVSTART/,
  )
  assert.equal(s.calls.filter((c) => c === 'audit').length, 3)
})

test('a failure with no trace says so', () => {
  assert.equal(failureOf({ lhr: { runtimeError: { code: 'NO_FCP' } } }), 'NO_FCP (no trace)')
  assert.equal(failureOf(undefined), 'no result (no trace)')
})
