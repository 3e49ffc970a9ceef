import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_PUSH_LIMITS } from '../src/modules/push/limits'
import { createTestApp, type TestApp } from './helpers/app'
import { createLots } from './helpers/auction'
import { testDatabases } from './helpers/databases'
import { BUDGET_MS, FREEZE_MS, measureFlood } from './helpers/flood'
import { listen } from './helpers/push-client'

const SOCKETS = 4
const MESSAGES = 150
const IDS = 200
/**
 * CPU time this process (the server, and the health calls) may spend from the flooder's start
 * until every flooding socket is closed. The bounded server needs well under 300 ms; one-by-one
 * lookups without limits took over 7 s. CPU time, unlike wall time, hardly grows on a busy machine.
 */
const FLOOD_CPU_BUDGET_MS = 1500

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
    const { seen, p99, longest, healthMedian, floodCpuMs, summary } = await measureFlood(base, {
      url: `${base.replace(/^http/, 'ws')}/svc/push/ws`,
      sockets: SOCKETS,
      messages: MESSAGES,
      lotSets: sets,
    })
    expect(p99, summary).toBeLessThan(BUDGET_MS)
    expect(longest, summary).toBeLessThan(FREEZE_MS)
    expect(healthMedian, summary).toBeLessThan(BUDGET_MS)
    expect(floodCpuMs, summary).toBeLessThan(FLOOD_CPU_BUDGET_MS)

    expect(seen.map((s) => s.closeCode)).toEqual(Array(SOCKETS).fill(1008))
    for (const socket of seen) {
      expect(socket.rateLimited).toBe(DEFAULT_PUSH_LIMITS.refusalsBeforeClose - 1)
      // At most one burst of subscribes was answered, each with at most its 200 lots.
      expect(socket.lots).toBeLessThanOrEqual(DEFAULT_PUSH_LIMITS.messageBurst * IDS)
      expect(socket.errors).toBe(0)
    }
  })
})
