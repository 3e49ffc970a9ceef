#!/usr/bin/env node
// Lighthouse on the pages collectors land on (issue 13): mobile form factor, Lighthouse's default
// simulated throttling (slow 4G, 4× CPU), Debian's Chromium, the median of three runs per page,
// against a production-mode server with demo data. Writes bench/results/lighthouse.json and exits
// non-zero when a page misses a budget, so CI fails a change that makes first load slower. The
// budgets are issue 13's figures (TARGETS), blocking time relaxed only on a host slower than the one
// Lighthouse's default throttling is calibrated for, which the report then says (budgetsFor).
//
//   node bench/lighthouse.mjs                 starts its own production server (web app must be built)
//   node bench/lighthouse.mjs --url http://127.0.0.1:8181   measures a server already running
//   --runs N (default 3)   --out FILE   --no-assert
//
// The JSON is the machine-readable summary: `pages[].missed` lists the budgets a page missed (empty
// when it met them all), `pages[].targetsMissed` issue 13's figures it does not reach yet.
// scripts/test.mjs counts each page as one test from `missed`.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'

const root = path.resolve(import.meta.dirname, '..')

/** Issue 13's figures for every page (median of the runs): what first load is working towards. */
export const TARGETS = {
  performance: 95,
  accessibility: 95,
  'best-practices': 95,
  lcpMs: 2000,
  cls: 0.05,
  tbtMs: 150,
}

/**
 * The slowest host Lighthouse's default throttling is defined for. Its 4× CPU slowdown "moves a
 * typical run in the high-end desktop bracket somewhere into the mid-tier mobile bracket", the
 * high-end desktop's benchmark index being 1500–2000 (Lighthouse's docs/throttling.md,
 * "Calibrating the CPU slowdown"; for a low-end desktop, 1000–1500, it suggests 2×). On a slower
 * host the same 4× models a slower phone than that, and blocking time grows with it: CI runs of
 * one build measured 8–64 ms at an index of 1700 or more and 42–227 ms at 1000–1430 (ADR 026,
 * Measured). On a faster host it models a faster phone (the docs would raise the multiplier there):
 * the budget is the figure under the setting, default throttling, not a
 * calibrated phone.
 */
export const CALIBRATED_HOST_INDEX = 1500

/** Blocking time allowed on a host below CALIBRATED_HOST_INDEX: the budget before 2026-11-28. */
export const SLOW_HOST_TBT_MS = 300

/**
 * What fails the build (ADR 026): issue 13's figures on a host at least as fast as the one
 * Lighthouse's default throttling is defined for (the page's median benchmark index at least
 * CALIBRATED_HOST_INDEX). Below it, blocking time is held at 300 ms instead and the report says
 * why; every other figure stays. The index is noisy, so near 1500 one page or one hour may get the
 * other budget.
 */
export function budgetsFor(benchmarkIndex) {
  return benchmarkIndex >= CALIBRATED_HOST_INDEX ? TARGETS : { ...TARGETS, tbtMs: SLOW_HOST_TBT_MS }
}

export const PAGES = [
  { name: 'home', path: '/' },
  { name: 'special', path: '/specialDetail?id=1' },
  { name: 'lot', path: '/productDetail?id=1' },
  { name: 'mall item', path: '/productDetail?productNo=M100001' },
]

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-dev-shm-usage',
]

/** How many times one run of a page is tried when Lighthouse could not record it. */
const ATTEMPTS = 3

/**
 * A browser that has already run Lighthouse once, unscored, on `url`. Unrecorded traces
 * (NO_NAVSTART, see withRetries) came on a fresh browser's first page at first, and once since in
 * the middle of a run: the warm-up spares the first measured page; withRetries covers the rest.
 */
async function launchChrome(url) {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS })
  await lighthouse(url, {
    port: chrome.port,
    logLevel: 'error',
    onlyCategories: ['performance'],
  }).catch(() => {})
  return chrome
}

function measured(result) {
  return Boolean(result?.lhr && !result.lhr.runtimeError)
}

/**
 * One measured run of a page. A trace Lighthouse failed to record (NO_NAVSTART, seen in CI twice
 * in a row on the first page of a fresh browser) says nothing about the page: it asks to be run
 * again. Each retry gets a fresh browser (`relaunch`), and `warn` says what the failed trace held,
 * so the next look has something to go on. ATTEMPTS failures in a row are the page's: thrown.
 * `label` names the page in what is said.
 */
export async function withRetries(label, audit, relaunch, warn = console.warn) {
  const once = () => audit().catch((error) => ({ error }))
  let result = await once()
  for (let attempt = 2; attempt <= ATTEMPTS && !measured(result); attempt++) {
    warn(`${label}: ${failureOf(result)}; attempt ${attempt} in a fresh browser`)
    await relaunch()
    result = await once()
  }
  if (!measured(result)) {
    throw new Error(`${label}: not measured in ${ATTEMPTS} attempts: ${failureOf(result)}`)
  }
  return result
}

/** A failed run's error code, and what its trace held of what Lighthouse looks for. */
export function failureOf(result) {
  if (result?.error) return `threw ${result.error.message ?? result.error}`
  const code = result?.lhr?.runtimeError?.code ?? 'no result'
  const events = result?.artifacts?.Trace?.traceEvents
  if (!events) return `${code} (no trace)`
  const count = (name) => events.filter((e) => e.name === name).length
  const starts = events.filter((e) => e.name === 'navigationStart')
  const urls = starts.map((e) => e.args?.data?.documentLoaderURL || '-').join(' ')
  return (
    `${code} (trace: ${events.length} events, navigationStart ${starts.length} [${urls}], ` +
    `FrameCommittedInBrowser ${count('FrameCommittedInBrowser')}, ` +
    `TracingStartedInBrowser ${count('TracingStartedInBrowser')})`
  )
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/** A production-mode server over a fresh SQLite database with the demo catalogue. */
async function startServer() {
  const port = await freePort()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'numisma-lighthouse-'))
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NUMISMA_ENV: 'production',
      SEED: 'demo',
      PORT: String(port),
      DATA_DIR: dataDir,
      PAY_PASSWORD_PEPPER: 'lighthouse-bench-pepper-0000',
      SMS_PROVIDER: 'sandbox',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      REDIS_URL: '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const base = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`)
    try {
      const res = await fetch(`${base}/svc/health`)
      if (res.ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('server did not become healthy in 60 s')
    await new Promise((r) => setTimeout(r, 250))
  }
  return {
    base,
    stop: async () => {
      child.kill('SIGTERM')
      await new Promise((r) => child.once('exit', r))
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

function figuresOf(lhr) {
  const audit = (id) => lhr.audits[id]?.numericValue ?? Number.NaN
  return {
    performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
    'best-practices': Math.round((lhr.categories['best-practices']?.score ?? 0) * 100),
    fcpMs: Math.round(audit('first-contentful-paint')),
    lcpMs: Math.round(audit('largest-contentful-paint')),
    tbtMs: Math.round(audit('total-blocking-time')),
    cls: Math.round(audit('cumulative-layout-shift') * 1000) / 1000,
    siMs: Math.round(audit('speed-index')),
    transferKiB: Math.round(audit('total-byte-weight') / 1024),
    // Lighthouse's measure of the host's CPU. Its default 4× slowdown assumes a high-end desktop
    // (1500–2000): on a slower host the same page blocks longer, which a reader of TBT should know.
    benchmarkIndex: Math.round(lhr.environment?.benchmarkIndex ?? Number.NaN),
  }
}

/** What a failed category or metric is made of, so a CI log says where to look. */
function findingsOf(lhr) {
  const failing = []
  for (const id of ['accessibility', 'best-practices']) {
    for (const ref of lhr.categories[id]?.auditRefs ?? []) {
      const a = lhr.audits[ref.id]
      if (ref.weight > 0 && a && a.score !== null && a.score < 1) failing.push(`${id}: ${a.id}`)
    }
  }
  for (const a of Object.values(lhr.audits)) {
    if (a.details?.type === 'opportunity' && (a.details.overallSavingsMs ?? 0) >= 100) {
      failing.push(`performance: ${a.id} (~${Math.round(a.details.overallSavingsMs)} ms)`)
    }
  }
  return failing
}

/** The figures of `limits` a page's medians miss, as readable lines (empty when it meets all). */
export function missedLimits(figures, limits) {
  const missed = []
  for (const key of ['performance', 'accessibility', 'best-practices']) {
    if (figures[key] < limits[key]) missed.push(`${key} ${figures[key]} < ${limits[key]}`)
  }
  if (figures.lcpMs > limits.lcpMs) missed.push(`LCP ${figures.lcpMs} ms > ${limits.lcpMs} ms`)
  if (figures.cls > limits.cls) missed.push(`CLS ${figures.cls} > ${limits.cls}`)
  if (figures.tbtMs > limits.tbtMs) missed.push(`TBT ${figures.tbtMs} ms > ${limits.tbtMs} ms`)
  return missed
}

async function main() {
  const { values: args } = parseArgs({
    options: {
      url: { type: 'string' },
      runs: { type: 'string', default: '3' },
      out: { type: 'string', default: path.join(root, 'bench/results/lighthouse.json') },
      'no-assert': { type: 'boolean', default: false },
    },
  })
  const runs = Number(args.runs)
  const server = args.url ? { base: args.url, stop: async () => {} } : await startServer()
  let chrome = await launchChrome(`${server.base}/`)
  const pages = []
  let failed = false
  try {
    for (const page of PAGES) {
      const samples = []
      let findings = []
      for (let i = 0; i < runs; i++) {
        const audit = () =>
          lighthouse(`${server.base}${page.path}`, {
            port: chrome.port,
            output: 'json',
            logLevel: 'error',
            onlyCategories: ['performance', 'accessibility', 'best-practices'],
          })
        const result = await withRetries(page.path, audit, async () => {
          await chrome.kill()
          chrome = await launchChrome(`${server.base}/`)
        })
        samples.push(figuresOf(result.lhr))
        findings = findingsOf(result.lhr)
      }
      const figures = Object.fromEntries(
        Object.keys(samples[0]).map((k) => [k, median(samples.map((s) => s[k]))]),
      )
      const budgets = budgetsFor(figures.benchmarkIndex)
      const missed = missedLimits(figures, budgets)
      const targetsMissed = missedLimits(figures, TARGETS)
      if (missed.length) failed = true
      pages.push({
        ...page,
        median: figures,
        runs: samples,
        budgets,
        missed,
        targetsMissed,
        findings,
      })
      console.log(
        `${page.name.padEnd(10)} perf ${figures.performance} a11y ${figures.accessibility} ` +
          `bp ${figures['best-practices']} FCP ${figures.fcpMs} LCP ${figures.lcpMs} ` +
          `TBT ${figures.tbtMs} CLS ${figures.cls} ${figures.transferKiB} KiB (host ${figures.benchmarkIndex})` +
          (missed.length ? `  OVER BUDGET: ${missed.join('; ')}` : '') +
          (targetsMissed.length
            ? `  (issue 13 targets not yet met: ${targetsMissed.join('; ')})`
            : '') +
          (budgets.tbtMs > TARGETS.tbtMs
            ? `  HOST BELOW LIGHTHOUSE'S CALIBRATION (benchmark index ${figures.benchmarkIndex} < ` +
              `${CALIBRATED_HOST_INDEX}): TBT held at ${budgets.tbtMs} ms, not the issue's ${TARGETS.tbtMs}`
            : ''),
      )
      for (const f of missed.length || targetsMissed.length ? findings : []) console.log(`    ${f}`)
    }
  } finally {
    await chrome.kill()
    await server.stop()
  }
  const result = {
    tool: `lighthouse ${(await import('lighthouse/package.json', { with: { type: 'json' } })).default.version}`,
    settings: 'mobile form factor, default simulated throttling, median of ' + runs,
    machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.release()}, node ${process.version}`,
    budgets: {
      onCalibratedHost: budgetsFor(CALIBRATED_HOST_INDEX),
      belowIt: budgetsFor(0),
      calibratedHostIndex: CALIBRATED_HOST_INDEX,
    },
    targets: TARGETS,
    date: new Date().toISOString(),
    pages,
  }
  fs.mkdirSync(path.dirname(args.out), { recursive: true })
  fs.writeFileSync(args.out, `${JSON.stringify(result, null, 2)}\n`)
  console.log(`written ${path.relative(root, args.out)}`)
  if (failed && !args['no-assert']) {
    console.error('Lighthouse budgets missed')
    process.exit(1)
  }
}

// Run when executed, not when imported (scripts/test.mjs reads PAGES).
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await main()
}
