// bench/lighthouse.mjs: a run Lighthouse could not record is tried again in a fresh browser, and
// what its trace held is said; a page that never records is an error, not a missing figure.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { failureOf, withRetries } from '../bench/lighthouse.mjs'

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
