import { spawn } from 'node:child_process'
import path from 'node:path'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_PUSH_LIMITS } from '../src/modules/push/limits'
import { createTestApp, type TestApp } from './helpers/app'
import { createLots } from './helpers/auction'
import { testDatabases } from './helpers/databases'
import { listen } from './helpers/push-client'

const SOCKETS = 4
const MESSAGES = 150
const IDS = 200
/** The budget: the server answers within 50 ms while a flood runs. */
const BUDGET_MS = 50
/** How long the event loop is watched at least, so its p99 rests on a few hundred samples. */
const MIN_WINDOW_MS = 1000
const MS = 1e6 // the histogram counts nanoseconds
/**
 * CPU time this process (the server, and the health calls) may spend from the flooder's start
 * until every flooding socket is closed. The bounded server needs well under 300 ms; one-by-one
 * lookups without limits took over 7 s. CPU time, unlike wall time, hardly grows on a busy machine.
 */
const FLOOD_CPU_BUDGET_MS = 1500
/**
 * No single stall may reach this: a freeze (the review's 5.8 s health; one-by-one lookups on SQLite
 * stalled the loop for 6 s in one go, which a percentile of many samples can miss). Far above what
 * a busy machine does to a process.
 */
const FREEZE_MS = 1000
const FLOODER = path.join(import.meta.dirname, 'helpers', 'push-flooder.mjs')

interface Seen {
  lots: number
  rateLimited: number
  errors: number
  closeCode: number | null
}

/** Runs helpers/push-flooder.mjs in its own process (the attacker is not the server's process). */
function startFlooder(plan: {
  url: string
  sockets: number
  messages: number
  lotSets: number[][]
}) {
  const child = spawn(process.execPath, [FLOODER, JSON.stringify(plan)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const lines = createInterface({ input: child.stdout })
  const result = new Promise<Seen[]>((resolve, reject) => {
    lines.on('line', (line) => {
      // `flooding` says the flood is queued; the measurement starts before the flooder does.
      if (line !== 'flooding') resolve(JSON.parse(line) as Seen[])
    })
    child.on('exit', (code) => reject(new Error(`flooder exited with ${code} before reporting`)))
  })
  return { child, result }
}

/**
 * The event loop's own stalls: a timer every 2 ms records the CPU this process spent since the
 * previous turn. Work that holds the loop (a synchronous query, a long loop) shows in full; a
 * process that waits for a core on a busy machine spends none, so the machine's stalls do not.
 */
function sampleLoopCpu() {
  const stallsMs: number[] = []
  let previous = process.cpuUsage()
  const timer = setInterval(() => {
    const now = process.cpuUsage()
    stallsMs.push((now.user - previous.user + now.system - previous.system) / 1000)
    previous = now
  }, 2)
  return {
    stop(): number[] {
      clearInterval(timer)
      return stallsMs
    },
  }
}

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0
}

async function timedHealth(base: string): Promise<number> {
  const started = performance.now()
  const response = await fetch(`${base}/svc/health`)
  await response.text()
  expect(response.status).toBe(200)
  return performance.now() - started
}

/**
 * Issue 7, defect 3: four anonymous sockets, each sending 150 subscribes of 200 lot ids, froze the
 * server (120,000 one-by-one lookups; /svc/health from 2 ms to 5.8 s). Every subscribe names 200
 * lots the socket does not follow yet (two sets in turn), the worst case for the snapshot.
 */
describe.each(await testDatabases())('push flood ($name)', (kind) => {
  let t: TestApp
  let base: string
  let sets: [number[], number[]]

  beforeAll(async () => {
    t = await createTestApp(kind)
    const ids = await createLots(t, 2 * IDS)
    sets = [ids.slice(0, IDS), ids.slice(IDS)]
    base = await listen(t.app)
  })
  afterAll(() => t.close())

  /*
   * What the budget is measured on: the server's event loop (the server runs in this process; the
   * flooder does not), from the flooder's start until the flood is over and at least a second has
   * passed. A timer every 2 ms records the CPU spent since its previous turn: the 99th percentile
   * of those stalls stays under 50 ms and none reaches a second (a freeze: one-by-one lookups on
   * SQLite held the loop for 6 s in one go). CPU rather than wall time, because two cores shared
   * by other suites and PostgreSQL leave this process waiting for a core now and then, which is
   * not the server's doing (the wall-clock delay is reported beside it). Health is asked
   * throughout: every call answers 200 and the median answer stays under 50 ms. On PostgreSQL each
   * lookup waits for the network, so the old code kept the loop turning while it burnt seconds
   * of CPU: the CPU the whole flood costs is bounded too.
   */
  it(`keeps the event loop and /svc/health under ${BUDGET_MS} ms and the flood's CPU bounded, and closes the flooding sockets`, async () => {
    await timedHealth(base) // warm: the first request pays for lazy set-up
    // Watched from before the flooder starts: a server that freezes does so as the first
    // subscribes arrive, possibly before the flooder reports that its flood is queued.
    const loop = monitorEventLoopDelay({ resolution: 2 })
    loop.enable()
    const loopCpu = sampleLoopCpu()
    const cpuAtStart = process.cpuUsage()
    const windowEnds = performance.now() + MIN_WINDOW_MS
    const flooder = startFlooder({
      url: `${base.replace(/^http/, 'ws')}/svc/push/ws`,
      sockets: SOCKETS,
      messages: MESSAGES,
      lotSets: sets,
    })
    try {
      // The flooder gives up on the server after 10 s.
      let over = false
      let floodCpuMs = 0
      const result = flooder.result.finally(() => {
        over = true
        const cpu = process.cpuUsage(cpuAtStart)
        floodCpuMs = (cpu.user + cpu.system) / 1000
      })
      result.catch(() => undefined) // awaited below; not an unhandled rejection meanwhile
      const timings: number[] = []
      while (timings.length < 8 || !over || performance.now() < windowEnds) {
        timings.push(await timedHealth(base))
        await new Promise((r) => setTimeout(r, 10))
      }
      loop.disable()
      const stalls = loopCpu.stop()
      const seen = await result

      const p99 = percentile(stalls, 99)
      const longest = Math.max(...stalls)
      const sorted = [...timings].sort((a, b) => a - b)
      const median = sorted[Math.floor(sorted.length / 2)]!
      const summary =
        `event-loop stalls (CPU per turn) p99 ${p99.toFixed(1)} ms, max ${longest.toFixed(1)} ms ` +
        `over ${stalls.length} turns; event-loop delay (wall, machine included) p99 ` +
        `${(loop.percentile(99) / MS).toFixed(1)} ms, max ${(loop.max / MS).toFixed(1)} ms; CPU during the flood ` +
        `${Math.round(floodCpuMs)} ms; health median ` +
        `${median.toFixed(1)} ms of ${timings.length} calls (${timings.map(Math.round).join(', ')})`
      expect(p99, summary).toBeLessThan(BUDGET_MS)
      expect(longest, summary).toBeLessThan(FREEZE_MS)
      expect(median, summary).toBeLessThan(BUDGET_MS)
      expect(floodCpuMs, summary).toBeLessThan(FLOOD_CPU_BUDGET_MS)

      expect(seen.map((s) => s.closeCode)).toEqual(Array(SOCKETS).fill(1008))
      for (const socket of seen) {
        expect(socket.rateLimited).toBe(DEFAULT_PUSH_LIMITS.refusalsBeforeClose - 1)
        // At most one burst of subscribes was answered, each with at most its 200 lots.
        expect(socket.lots).toBeLessThanOrEqual(DEFAULT_PUSH_LIMITS.messageBurst * IDS)
        expect(socket.errors).toBe(0)
      }
    } finally {
      loop.disable()
      loopCpu.stop()
      flooder.child.kill()
    }
  })
})
