import { spawn } from 'node:child_process'
import path from 'node:path'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { createInterface } from 'node:readline'
import { expect } from 'vitest'

/**
 * Measuring the server while a hostile client floods one of its sockets from another process
 * (push-flood.test.ts, security-floods.test.ts): helpers/push-flooder.mjs is the attacker, this
 * process is the server, whose event loop, CPU and /svc/health are watched throughout.
 */

/** The budget: the server answers within 50 ms while a flood runs. */
export const BUDGET_MS = 50
/**
 * No single stall may reach this: a freeze (the review's 5.8 s health; one-by-one lookups on SQLite
 * stalled the loop for 6 s in one go, which a percentile of many samples can miss). Far above what
 * a busy machine does to a process.
 */
export const FREEZE_MS = 1000
/** How long the event loop is watched at least, so its p99 rests on a few hundred samples. */
const MIN_WINDOW_MS = 1000
const MS = 1e6 // the histogram counts nanoseconds
const FLOODER = path.join(import.meta.dirname, 'push-flooder.mjs')

/** What one flooding socket heard, and how it was closed. */
export interface Seen {
  lots: number
  messages: number
  rateLimited: number
  errors: number
  closeCode: number | null
}

/** What helpers/push-flooder.mjs does: frames from `payloads` in turn, or subscribes of `lotSets`. */
export type FloodPlan = {
  url: string
  sockets: number
  messages: number
  headers?: Record<string, string>
} & ({ lotSets: number[][] } | { payloads: string[] })

/** Runs helpers/push-flooder.mjs in its own process (the attacker is not the server's process). */
function startFlooder(plan: FloodPlan) {
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

export async function timedHealth(base: string): Promise<number> {
  const started = performance.now()
  const response = await fetch(`${base}/svc/health`)
  await response.text()
  expect(response.status).toBe(200)
  return performance.now() - started
}

export interface FloodMeasure {
  /** What each flooding socket heard. */
  seen: Seen[]
  /** The 99th percentile and the longest of the event loop's stalls (CPU per turn), ms. */
  p99: number
  longest: number
  /** The median /svc/health answer during the flood, ms. */
  healthMedian: number
  /** CPU this process spent from the flooder's start until every flooding socket was closed. */
  floodCpuMs: number
  /** All of it in words, for the assertions' messages. */
  summary: string
}

/**
 * Floods `plan.url` from another process and measures this process (the server) meanwhile, from
 * before the flooder starts until the flood is over and at least a second has passed: a timer
 * every 2 ms records the CPU spent since its previous turn (CPU rather than wall time, because two
 * cores shared by other suites and PostgreSQL leave this process waiting for a core now and then,
 * which is not the server's doing; the wall-clock delay is reported beside it), and /svc/health
 * is asked throughout (every call must answer 200). The flooder gives up on the server after 10 s.
 */
export async function measureFlood(base: string, plan: FloodPlan): Promise<FloodMeasure> {
  await timedHealth(base) // warm: the first request pays for lazy set-up
  // Watched from before the flooder starts: a server that freezes does so as the first frames
  // arrive, possibly before the flooder reports that its flood is queued.
  const loop = monitorEventLoopDelay({ resolution: 2 })
  loop.enable()
  const loopCpu = sampleLoopCpu()
  const cpuAtStart = process.cpuUsage()
  const windowEnds = performance.now() + MIN_WINDOW_MS
  const flooder = startFlooder(plan)
  try {
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
    const healthMedian = sorted[Math.floor(sorted.length / 2)]!
    const summary =
      `event-loop stalls (CPU per turn) p99 ${p99.toFixed(1)} ms, max ${longest.toFixed(1)} ms ` +
      `over ${stalls.length} turns; event-loop delay (wall, machine included) p99 ` +
      `${(loop.percentile(99) / MS).toFixed(1)} ms, max ${(loop.max / MS).toFixed(1)} ms; CPU during the flood ` +
      `${Math.round(floodCpuMs)} ms; health median ` +
      `${healthMedian.toFixed(1)} ms of ${timings.length} calls (${timings.map(Math.round).join(', ')})`
    return { seen, p99, longest, healthMedian, floodCpuMs, summary }
  } finally {
    loop.disable()
    loopCpu.stop()
    flooder.child.kill()
  }
}
